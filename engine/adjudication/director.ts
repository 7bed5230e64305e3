import { cite, ruleError, RULE_SOURCES, type Citation, type RuleError, type RuleSource } from '../errors.js';
import type { DisputeAppealed, DisputeFiled, GameEvent, RulingApplied, Seat } from '../game/events.js';
import type { GameState } from '../game/state.js';
import { err, ok, type Result } from '../result.js';
import { PRESETS } from '../rules/presets.js';
import type { RuleSet } from '../rules/ruleset.js';
import { adjudicate } from './adjudicate.js';
import type { GameLog } from './from-log.js';
import { disputesOf } from './game-disputes.js';
import { endingEvents, rulingEvent } from './on-game.js';
import { parseDispute } from './parse.js';
import type { Effect, Ruling } from './ruling.js';

/**
 * Directors (issue 14, item 4): a director rules on a dispute the rule set left open (DIRECTOR_DECIDES)
 * or one a player appealed, choosing among the remedies the rules allow for it; a seated player may
 * appeal an automatic ruling once. Pure: the service appends the events in one transaction.
 */

/** A remedy a director may choose: a ruling some rule set gives for these very facts, by its code. */
export type Remedy = Pick<Ruling, 'verdict' | 'ruling' | 'effects' | 'citations' | 'explanation'>;

/** Dismissing the dispute is always open to a director (the act stands, nothing follows), under the rules the dispute was ruled by. */
const dismissed = (filed: DisputeFiled): Remedy => ({
  verdict: 'ALLOWED',
  ruling: 'NO_PENALTY',
  effects: [],
  citations: [...filed.ruling.citations],
  explanation: 'The director dismissed the dispute: the act stands and nothing follows.',
});

/**
 * The remedies the rules allow for a filed dispute: the rulings its facts get under the game's rule set
 * and under every preset (each rule set's answer to the same question), one per ruling code, the game's
 * own first; rulings that leave the matter to a director or have no rule are no remedy. Dismissal
 * (NO_PENALTY) is always among them.
 */
export const remediesFor = (filed: DisputeFiled, rules: RuleSet): Remedy[] => {
  const parsed = parseDispute({ kind: filed.kind, ...Object.fromEntries(filed.facts.map((f) => [f.name, f.value])) });
  const out = new Map<string, Remedy>();
  if (parsed.ok)
    for (const rs of [rules, ...Object.values(PRESETS)]) {
      const r = adjudicate(parsed.value, rs);
      if (r.ok && r.value.verdict !== 'DIRECTOR_DECIDES' && r.value.verdict !== 'NO_RULE' && !out.has(r.value.ruling))
        out.set(r.value.ruling, r.value);
    }
  if (!out.has('NO_PENALTY')) out.set('NO_PENALTY', dismissed(filed));
  return [...out.values()];
};

export interface DirectorRuling {
  readonly dispute: number;
  /** A ruling code among `remediesFor`. */
  readonly remedy: string;
  readonly note: string;
  readonly citation?: { readonly source: string; readonly rule: string };
}

const notFound = (n: number) => err(ruleError('DISPUTE_NOT_FOUND', `The game has no dispute ${n}.`, { field: 'dispute', dispute: n }));

const filedOf = (log: GameLog, n: number): DisputeFiled | undefined =>
  log.events.find((e): e is DisputeFiled => e.type === 'dispute-filed' && e.dispute === n);

/** Score changes already applied for dispute `n`, per seat (the automatic ruling a director's replaces). */
const appliedScores = (log: GameLog, n: number): [number, number] => {
  const sum: [number, number] = [0, 0];
  for (const e of log.events) if (e.type === 'ruling-applied' && e.dispute === n) for (const c of e.scoreChanges) sum[c.seat] += c.points;
  return sum;
};

const directorCitation = (c: DirectorRuling['citation']): Result<Citation | null, RuleError> => {
  if (!c) return ok(null);
  if (!(c.source in RULE_SOURCES))
    return err(
      ruleError('BAD_INPUT', `citation.source must be one of ${Object.keys(RULE_SOURCES).join(', ')}, not "${c.source}".`, {
        field: 'citation.source',
      }),
    );
  return ok(cite(c.source as RuleSource, c.rule));
};

/**
 * A director's ruling on dispute `req.dispute` (open, or appealed): `ruling-applied` with `by` = the
 * director (and the organization whose director role they ruled by, if not a global one), replacing what an
 * automatic ruling applied (its score changes are reversed), then the events
 * that end the game when the remedy does. Errors: DISPUTE_NOT_FOUND, DISPUTE_ALREADY_RULED,
 * REMEDY_NOT_ALLOWED (details: allowed), BAD_INPUT (citation.source).
 */
export const ruleOnDisputeOnGame = (
  log: GameLog,
  state: GameState,
  req: DirectorRuling,
  director: string,
  seed: string | null,
  organization: string | null = null,
): Result<readonly GameEvent[], RuleError> => {
  const filed = filedOf(log, req.dispute);
  if (!filed) return notFound(req.dispute);
  const status = disputesOf(log.events, log.firstVersion, null).find((d) => d.number === req.dispute)!.status;
  if (status === 'ruled')
    return err(
      ruleError('DISPUTE_ALREADY_RULED', `Dispute ${req.dispute} is ruled and not appealed: there is nothing left for a director.`, {
        field: 'dispute',
      }),
    );
  const remedies = remediesFor(filed, state.rules);
  const chosen = remedies.find((r) => r.ruling === req.remedy);
  if (!chosen)
    return err(
      ruleError('REMEDY_NOT_ALLOWED', `${req.remedy} is no remedy the rules allow for this ${filed.kind} dispute.`, {
        field: 'remedy',
        allowed: remedies.map((r) => r.ruling),
      }),
    );
  const cited = directorCitation(req.citation);
  if (!cited.ok) return cited;
  const citations = cited.value ? [cited.value, ...chosen.citations] : [...chosen.citations];
  const base = rulingEvent(req.dispute, { ...chosen, citations }, filed.player, log, filed.concerns, { by: director, note: req.note });
  const before = appliedScores(log, req.dispute);
  const target: [number, number] = [0, 0];
  for (const c of base.scoreChanges) target[c.seat] += c.points;
  const scoreChanges = ([0, 1] as const).flatMap((seat) =>
    target[seat] - before[seat] !== 0 ? [{ seat: seat as Seat, points: target[seat] - before[seat] }] : [],
  );
  const applied: RulingApplied = { ...base, scoreChanges, ...(organization ? { organization } : {}) };
  return ok([applied, ...endingEvents(chosen.effects as readonly Effect[], filed.player, state, seed)]);
};

/**
 * A seated player's appeal of dispute `n`'s automatic ruling: `dispute-appealed`. Errors:
 * DISPUTE_NOT_FOUND, DISPUTE_NOT_RULED (still open: a director rules anyway), ALREADY_APPEALED (once per
 * dispute, and a director's ruling is final).
 */
export const appealDisputeOnGame = (
  log: GameLog,
  n: number,
  appellant: { readonly seat: Seat; readonly by: string },
  note?: string,
): Result<readonly GameEvent[], RuleError> => {
  const d = disputesOf(log.events, log.firstVersion, appellant.seat).find((x) => x.number === n);
  if (!d) return notFound(n);
  if (d.status === 'open')
    return err(
      ruleError('DISPUTE_NOT_RULED', `Dispute ${n} is open: a director will rule on it; there is no automatic ruling to appeal.`, {
        field: 'dispute',
      }),
    );
  if (d.appealed || d.applied?.by)
    return err(
      ruleError(
        'ALREADY_APPEALED',
        `Dispute ${n} was appealed already: a dispute may be appealed once, and a director’s ruling is final.`,
        {
          field: 'dispute',
        },
      ),
    );
  const appeal: DisputeAppealed = {
    type: 'dispute-appealed',
    dispute: n,
    seat: appellant.seat,
    by: appellant.by,
    ...(note ? { note } : {}),
  };
  return ok([appeal]);
};
