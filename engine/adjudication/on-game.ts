import { ruleError, type RuleError } from '../errors.js';
import { replay } from '../game/apply.js';
import { other, type DisputeFact, type DisputeFiled, type GameEvent, type RulingApplied, type Seat } from '../game/events.js';
import type { GameState } from '../game/state.js';
import { err, ok, type Result } from '../result.js';
import { adjudicate } from './adjudicate.js';
import { isDisputeKind, type Party } from './dispute.js';
import { factsFromLog, mergeFacts, type GameLog } from './from-log.js';
import { parseDispute } from './parse.js';
import type { Effect, Ruling } from './ruling.js';

/**
 * A dispute filed on a stored game (issue 14): its facts from the log and the claimant, the game's own
 * rule set, the automatic ruling, and the events that record it — `dispute-filed`, then (unless the rule
 * set leaves the matter to a director) `ruling-applied` with the effects the game can carry out: score
 * corrections, a forfeit, the game ended by ruling, tiles shown. Pure; the service appends the events.
 */

export interface DisputeClaim {
  readonly kind: string;
  /** The version (event number) of the act in dispute. */
  readonly concerns: number;
  /** The seat whose act is disputed, when the concerned event is no seat's act. */
  readonly player: Seat | null;
  /** The facts only the table knows, by the kind's fact names. */
  readonly facts: Readonly<Record<string, unknown>>;
  readonly note?: string;
}

export interface Claimant {
  readonly seat: Seat | null;
  readonly by: string | null;
}

/** Kinds whose facts include a hidden rack: only that rack's player (or a director) may file them. */
const OWN_RACK_KINDS: readonly string[] = ['free-trade', 'blank-substitution'];

const seatOfParty = (player: Seat, party: Party | 'both' | 'tie'): Seat | null =>
  party === 'player' ? player : party === 'opponent' ? other(player) : null;

/** The specific tiles a `tiles-shown` effect shows, when the log knows them: the player's draw after the act. */
const shownTiles = (log: GameLog, concerns: number, player: Seat): readonly string[] => {
  for (const e of log.events.slice(concerns - log.firstVersion + 1)) {
    if (e.type === 'tiles-drawn' && e.seat === player) return e.tiles;
    if (e.type === 'play' || e.type === 'exchange' || e.type === 'pass') return [];
  }
  return [];
};

/** The game events that carry a ruling's effects out (after `ruling-applied`): a forfeit, the game ended. */
const endingEvents = (effects: readonly Effect[], player: Seat, state: GameState, seed: string | null): GameEvent[] => {
  if (state.status === 'ended') return [];
  const revealedSeed = state.bagKind === 'seeded' ? seed : null;
  const forfeit = effects.find((e) => e.type === 'game-forfeited');
  if (forfeit && forfeit.type === 'game-forfeited') {
    const loser = seatOfParty(player, forfeit.loser)!;
    return [
      { type: 'forfeited', seat: loser, reason: 'ruling' },
      { type: 'game-ended', reason: 'ruling', adjustments: [], loser, seed: revealedSeed },
    ];
  }
  if (effects.some((e) => e.type === 'game-ends'))
    return [{ type: 'game-ended', reason: 'ruling', adjustments: [], loser: null, seed: revealedSeed }];
  return [];
};

/** `ruling-applied` for a ruling of dispute `n` (the automatic one, or a director's with `by`). */
export const rulingEvent = (
  n: number,
  ruling: Ruling | DisputeFiled['ruling'],
  player: Seat,
  log: GameLog,
  concerns: number,
  extra: { by?: string | null; note?: string } = {},
): RulingApplied => {
  const effects = ruling.effects as readonly Effect[];
  const scoreChanges = effects.flatMap((e) =>
    e.type === 'score-delta' && e.points !== 0 ? [{ seat: seatOfParty(player, e.party)!, points: e.points }] : [],
  );
  const shows = effects.some((e) => e.type === 'tiles-shown');
  const tiles = shows ? shownTiles(log, concerns, player) : [];
  return {
    type: 'ruling-applied',
    dispute: n,
    ruling: ruling.ruling,
    verdict: ruling.verdict,
    ...(ruling.citations[0] ? { citation: ruling.citations[0] } : {}),
    citations: [...ruling.citations],
    effects: [...effects],
    scoreChanges,
    note: extra.note ?? ruling.explanation,
    ...(tiles.length ? { revealed: [{ seat: player, tiles: [...tiles] }] } : {}),
    by: extra.by ?? null,
  };
};

/** The number the next dispute of the game takes (1, 2, …). */
export const nextDisputeNumber = (events: readonly GameEvent[]): number => events.filter((e) => e.type === 'dispute-filed').length + 1;

/** The dispute and its facts, or why it cannot be filed (unknown kind, facts contradicting the log, invalid facts). */
const factsOf = (
  log: GameLog,
  claim: DisputeClaim,
  claimant: Claimant,
): Result<{ player: Seat; facts: DisputeFact[]; ruling: Ruling }, RuleError> => {
  if (!isDisputeKind(claim.kind)) return parseDispute({ kind: claim.kind }) as Result<never, RuleError>;
  const fromLog = factsFromLog(claim.kind, log, claim.concerns, claim.player);
  if (!fromLog.ok) return fromLog;
  const { player, rules } = fromLog.value;
  if (OWN_RACK_KINDS.includes(claim.kind) && claimant.seat !== null && claimant.seat !== player)
    return err(
      ruleError(
        'NOT_YOUR_DISPUTE',
        `A ${claim.kind} dispute is about seat ${player}'s own rack: only that player or a director may file it.`,
        {
          field: 'kind',
        },
      ),
    );
  const facts = mergeFacts(fromLog.value.facts, claim.facts);
  if (!facts.ok) return facts;
  const parsed = parseDispute({ kind: claim.kind, ...Object.fromEntries(facts.value.map((f) => [f.name, f.value])) });
  if (!parsed.ok) {
    const field = parsed.error.details?.['field'];
    const logFact = facts.value.find((f) => f.source === 'log' && f.name === field);
    // A log fact outside the kind's range means the situation the kind describes did not arise.
    if (logFact)
      return err(
        ruleError('FACTS_CONTRADICT_LOG', `The game log at version ${logFact.version} rules this out: ${parsed.error.message}`, {
          field,
          version: logFact.version,
          log: logFact.privateTo === undefined ? logFact.value : null,
        }),
      );
    return parsed;
  }
  const ruling = adjudicate(parsed.value, rules);
  return ruling.ok ? ok({ player, facts: facts.value, ruling: ruling.value }) : ruling;
};

/**
 * Files a dispute on the game of `log` (state `state`, the fold of it): the events to append. A ruling
 * whose verdict is DIRECTOR_DECIDES leaves the dispute open (no `ruling-applied` yet).
 */
export const fileDisputeOnGame = (
  log: GameLog,
  claim: DisputeClaim,
  claimant: Claimant,
  seed: string | null,
): Result<readonly GameEvent[], RuleError> => {
  const r = factsOf(log, claim, claimant);
  if (!r.ok) return r;
  const { player, facts, ruling } = r.value;
  const n = nextDisputeNumber(log.events);
  const filed: DisputeFiled = {
    type: 'dispute-filed',
    dispute: n,
    kind: claim.kind,
    concerns: claim.concerns,
    player,
    seat: claimant.seat,
    by: claimant.by,
    facts,
    ruling: {
      verdict: ruling.verdict,
      ruling: ruling.ruling,
      effects: [...ruling.effects],
      citations: [...ruling.citations],
      explanation: ruling.explanation,
    },
    ...(claim.note ? { note: claim.note } : {}),
  };
  if (ruling.verdict === 'DIRECTOR_DECIDES') return ok([filed]);
  const state = replay(log.events);
  if (!state.ok) throw new Error(`fileDisputeOnGame: the log does not replay: ${state.error.code}`);
  const applied = rulingEvent(n, ruling, player, log, claim.concerns);
  return ok([filed, applied, ...endingEvents(ruling.effects, player, state.value, seed)]);
};

export { endingEvents };
