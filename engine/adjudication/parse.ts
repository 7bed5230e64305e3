import { ruleError, type RuleError } from '../errors.js';
import { err, ok, type Result } from '../result.js';
import { without } from '../game/multiset.js';
import { joinTiles } from '../tiles.js';
import { Facts } from './facts.js';
import { DISPUTE_KINDS, PARTIES, isDisputeKind, type Dispute, type DisputeKind, type Scores } from './dispute.js';
import { specOf, type FactSpec } from './kinds/index.js';

/** Error codes of `parseDispute`. */
export const DISPUTE_ERROR_CODES = ['INVALID_DISPUTE', 'UNKNOWN_DISPUTE_KIND'] as const;

/** The facts as read from their description (kinds/): field name → value, null for an optional fact left out. */
type Values = Record<string, unknown>;

const NO_SCORES: Scores = { player: 0, opponent: 0 };

/** Reads one fact as its description says (type, range, default), through the reader's checks. */
const readFact = (f: Facts, s: FactSpec): unknown => {
  switch (s.type) {
    case 'int':
      return f.int(s.name, s.min, s.max, s.default as number | undefined);
    case 'number':
      return s.optional ? f.seconds(s.name, s.max, true) : (f.seconds(s.name, s.max) ?? 0);
    case 'boolean':
      return s.optional ? f.maybeBool(s.name) : f.bool(s.name, s.default as boolean | undefined);
    case 'enum':
      return f.oneOf(s.name, s.enum.values);
    case 'scores':
      return s.optional ? f.scores(s.name, true) : (f.scores(s.name) ?? NO_SCORES);
    case 'tiles':
      return f.tiles(s.name, s.min, s.max, s.default as readonly string[] | undefined);
    case 'letter':
      return f.letter(s.name);
    case 'enum-list':
      return f.array(s.name, s.minItems).map((t, i) => {
        if (typeof t !== 'string' || !s.enum.values.includes(t))
          f.fail(`${s.name}[${i}]`, `must be one of ${s.enum.values.join(', ')}, not ${JSON.stringify(t)}`, t);
        return t;
      });
    case 'scores-list':
      return f.array(s.name, s.minItems).map((g, i) => {
        const r = (typeof g === 'object' && g !== null ? g : {}) as Record<string, unknown>;
        if (!Number.isInteger(r.player) || !Number.isInteger(r.opponent) || Object.keys(r).length !== 2)
          f.fail(`${s.name}[${i}]`, 'must be {"player": n, "opponent": n} with integer scores', g);
        return { player: r.player as number, opponent: r.opponent as number };
      });
    case 'object-list':
      return f.array(s.name, s.minItems).map((g, i) => {
        const item = f.item(`${s.name}[${i}]`, g);
        if (!item) return {};
        const out = Object.fromEntries(s.item.map((x) => [x.name, readFact(item, x)]));
        item.noExtras();
        f.adopt(item);
        return out;
      });
  }
};

type Refine = (v: Values, f: Facts) => Values;

const atMostRack = (v: Values, f: Facts, field: string, what = 'the rack holds'): void => {
  const n = v[field] as number;
  if (n > (v.rackSize as number)) f.fail(field, `is ${n}, more than ${what} (${v.rackSize as number})`, n);
};

/**
 * What the facts' descriptions cannot say alone: defaults that depend on another fact, and facts that
 * contradict each other (INVALID_DISPUTE naming the field). Kinds without such rules take the facts as read.
 */
const REFINE: { readonly [K in DisputeKind]?: Refine } = {
  'illegal-exchange': (v, f) => {
    atMostRack(v, f, 'exchangedCount');
    const stage = v.stage as string;
    const oldTilesInBag = (v.oldTilesInBag as boolean | null) ?? stage === 'old-returned-new-not-racked';
    if (oldTilesInBag && (stage === 'announced' || stage === 'drawn-not-racked'))
      f.fail('oldTilesInBag', `cannot be true at stage ${stage} (no old tile has gone into the bag yet)`, oldTilesInBag);
    if (!oldTilesInBag && stage === 'old-returned-new-not-racked')
      f.fail('oldTilesInBag', 'cannot be false at stage old-returned-new-not-racked', oldTilesInBag);
    return { ...v, oldTilesInBag };
  },
  'exchange-count-mismatch': (v, f) => {
    atMostRack(v, f, 'announced');
    atMostRack(v, f, 'placedFaceDown');
    if (v.announced === v.placedFaceDown)
      f.fail('placedFaceDown', `equals announced (${v.announced as number}): there is no mismatch`, v.placedFaceDown);
    return v;
  },
  'late-arrival': (v, f) => {
    const at = v.clockStartedAtMinute as number | null;
    if (at !== null && at > (v.minutesLate as number))
      f.fail('clockStartedAtMinute', `is ${at}, after the player arrived (${v.minutesLate as number})`, at);
    return v;
  },
  'return-from-challenge': (v, f) => {
    if (v.drawnTouchedRack && v.drawnTiles === 0) f.fail('drawnTouchedRack', 'cannot be true when drawnTiles is 0', true);
    return v;
  },
  overdraw: (v, f) => {
    const [onRack, drawn, rack] = [v.tilesOnRack as number, v.drawn as number, v.rackSize as number];
    atMostRack(v, f, 'tilesOnRack', 'a full rack');
    if (onRack + drawn <= rack)
      f.fail(
        'drawn',
        `is ${drawn}: with ${onRack} on the rack that makes ${onRack + drawn}, not more than ${rack}, so nothing was overdrawn`,
        drawn,
      );
    return v;
  },
  'scoring-error': (v, f) => {
    if (v.announced === v.correct) f.fail('correct', `equals announced (${v.announced as number}): there is no error`, v.correct);
    return v;
  },
  'tally-slip-change': (v, f) => {
    if (v.scoresReversed && v.slipMatchesAgreedScore) f.fail('scoresReversed', 'cannot be true when slipMatchesAgreedScore is true', true);
    return v;
  },
  'scoreless-turns': (v, f) => {
    const r = v.rackValues as Scores | null;
    if (r && (r.player < 0 || r.opponent < 0)) f.fail('rackValues', 'must not be negative', r);
    return v;
  },
  'forfeit-order': (v, f) => {
    const seen = new Set<number>();
    (v.games as { round: number }[]).forEach((g, i) => {
      if (seen.has(g.round)) f.fail(`games[${i}].round`, `repeats round ${g.round}`, g.round);
      seen.add(g.round);
    });
    return v;
  },
  'tied-game': (v, f) => {
    const s = v.finalScores as Scores;
    if (s.player !== s.opponent) f.fail('finalScores', `are ${s.player}–${s.opponent}, not a tie`, s);
    return v;
  },
  'exchange-tiles-not-bagged': (v, f) => (atMostRack(v, f, 'tiles'), v),
  'placement-challenge': (v, f) => {
    if (!v.challenged && v.fault === 'none')
      f.fail('challenged', 'cannot be false when fault is none (there is nothing to dispute)', false);
    return v;
  },
  'courtesy-draw': (v, f) => (atMostRack(v, f, 'drawnTiles', 'a rack holds'), v),
  'tiles-found': (v, f) => {
    const racks = v.racks as Scores;
    const full = v.rackSize as number;
    for (const side of PARTIES)
      if (racks[side] < 0 || racks[side] > full) f.fail(`racks.${side}`, `must be between 0 and ${full}, not ${racks[side]}`, racks[side]);
    if (racks.player === full && racks.opponent === full) f.fail('racks', `are both full (${full}): nobody was short of tiles`, racks);
    return v;
  },
  'blank-designation': (v, f) => {
    if (v.designation === 'undeclared' && (v.playsSince as number) > 0)
      f.fail(
        'playsSince',
        `is ${v.playsSince as number}, but an undeclared blank is caught at the clock press; one found after later plays is improperly-declared`,
        v.playsSince,
      );
    return v;
  },
  'abort-request': (v, f) => {
    if (v.reply !== 'none' && v.secondsWithoutReply !== null)
      f.fail('secondsWithoutReply', `cannot be given when reply is ${v.reply as string}`, v.secondsWithoutReply);
    return { ...v, secondsWithoutReply: v.secondsWithoutReply ?? 0 };
  },
  'idle-opponent': (v, f) => {
    if (v.answered && v.secondsUnanswered !== null)
      f.fail('secondsUnanswered', 'cannot be given when answered is true', v.secondsUnanswered);
    if (!v.answered && v.secondsUnanswered === null) f.fail('secondsUnanswered', 'is required (a number) when answered is false', null);
    return { ...v, secondsUnanswered: v.secondsUnanswered ?? 0 };
  },
  'free-trade': (v, f) => {
    const [rack, trades] = [v.rack as string[], v.trades as string[]];
    if (rack.length > 0 && without(rack, trades) === null)
      f.fail('trades', `names ${joinTiles(trades)}, which the rack ${joinTiles(rack)} does not hold`, joinTiles(trades));
    return v;
  },
};

/**
 * Validates a dispute given as JSON (`{"kind": "illegal-exchange", "bagCount": 5, ...}`) and fills in the
 * defaults, reading each kind's facts from its description (kinds/). Rejects unknown kinds
 * (`UNKNOWN_DISPUTE_KIND`) and impossible or missing facts (`INVALID_DISPUTE`, the message names the
 * field): out of range, more tiles than a rack holds, a stage that contradicts another fact, unknown fields.
 */
export const parseDispute = (json: unknown): Result<Dispute, RuleError> => {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return err(ruleError('INVALID_DISPUTE', 'A dispute must be a JSON object with a "kind" field.', { value: json }));
  }
  const obj = json as Record<string, unknown>;
  if (!isDisputeKind(obj.kind)) {
    return err(
      ruleError('UNKNOWN_DISPUTE_KIND', `Dispute kind ${JSON.stringify(obj.kind)} is not one of ${DISPUTE_KINDS.join(', ')}.`, {
        field: 'kind',
        value: obj.kind,
        known: [...DISPUTE_KINDS],
      }),
    );
  }
  const kind = obj.kind;
  const facts = new Facts(kind, obj);
  const read: Values = Object.fromEntries(specOf(kind).facts.map((s) => [s.name, readFact(facts, s)]));
  const refined = (REFINE[kind] ?? ((v: Values) => v))(read, facts);
  facts.noExtras();
  if (facts.error) return err(facts.error);
  const dispute = { kind, ...refined } as Dispute;
  return ok(typeof obj.description === 'string' ? { ...dispute, description: obj.description } : dispute);
};
