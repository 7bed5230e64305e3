import { ruleError, type RuleError } from '../errors.js';
import { apply } from '../game/apply.js';
import { other, type DisputeFact, type GameEvent, type GameEventType, type Seat } from '../game/events.js';
import { bagCount, rackSize, type GameState } from '../game/state.js';
import { err, ok, type Result } from '../result.js';
import { joinTiles, rackValue } from '../tiles.js';
import type { DisputeKind } from './dispute.js';
import { specOf } from './kinds/index.js';

/**
 * The facts of a dispute on a stored game that its log already holds (issue 14): the scores, the bag
 * count then, what was exchanged and how many, who moved, blank designations, plays since, what a
 * challenge found. They are read from the events, never taken from the claimant; a claimed value that
 * differs is `FACTS_CONTRADICT_LOG`, naming the event. Pure: the same log gives the same facts.
 */

/** A game's engine events, and the version (store sequence number) of the first of them. */
export interface GameLog {
  readonly events: readonly GameEvent[];
  readonly firstVersion: number;
}

/** What a fact is read from: the event the dispute concerns, the states around it, and what came after. */
interface Scene {
  readonly kind: DisputeKind;
  readonly log: GameLog;
  /** Index in `log.events` of the event the dispute concerns. */
  readonly index: number;
  readonly event: GameEvent;
  readonly player: Seat;
  readonly states: readonly GameState[];
  readonly version: number;
}

type Fact = Omit<DisputeFact, 'source'>;
type Deriver = (s: Scene) => Fact | undefined;

const before = (s: Scene): GameState => s.states[Math.max(0, s.index - 1)]!;
const final = (s: Scene): GameState => s.states[s.states.length - 1]!;
const lastVersion = (s: Scene): number => s.log.firstVersion + s.log.events.length - 1;
const at = (version: number, name: string, value: unknown): Fact => ({ name, value, version });
const pair = (s: Scene, p: readonly [number, number]) => ({ player: p[s.player], opponent: p[other(s.player)] });

/** The events after the concerned one, with their versions. */
const after = (s: Scene) => s.log.events.slice(s.index + 1).map((e, i) => ({ e, version: s.version + 1 + i }));

/** The challenge of the concerned play, if one came before the next turn. */
const challengeOf = (s: Scene) => {
  for (const { e, version } of after(s)) {
    if (e.type === 'challenge') return { e, version };
    if (e.type === 'play' || e.type === 'exchange' || e.type === 'pass') return undefined;
  }
  return undefined;
};

/** The tiles the player drew right after the concerned event (before anyone's next turn). */
const drawnAfter = (s: Scene) => {
  for (const { e, version } of after(s)) {
    if (e.type === 'tiles-drawn' && e.seat === s.player) return { e, version };
    if (e.type === 'play' || e.type === 'exchange' || e.type === 'pass') return undefined;
  }
  return undefined;
};

const playOf = (s: Scene) => (s.event.type === 'play' ? s.event : undefined);
const exchangeCount = (s: Scene): Fact | undefined => (s.event.type === 'exchange' ? at(s.version, '', s.event.count) : undefined);

/** Facts read the same way for every kind that has them. */
const GENERIC: Readonly<Record<string, Deriver>> = {
  rackSize: (s) => at(s.log.firstVersion, 'rackSize', s.states[0]!.rules.board.rackSize),
  bagCount: (s) => at(s.version - 1, 'bagCount', bagCount(before(s))),
  scores: (s) => at(s.version - 1, 'scores', pair(s, before(s).scores as [number, number])),
  exchangedCount: exchangeCount,
  placedFaceDown: exchangeCount,
  announced: (s) => (playOf(s) ? at(s.version, 'announced', playOf(s)!.score) : undefined),
  playsSince: (s) => at(lastVersion(s), 'playsSince', after(s).filter(({ e }) => e.type === 'play').length),
  wordsChallenged: (s) => {
    const c = challengeOf(s);
    if (c) return at(c.version, 'wordsChallenged', c.e.words.length);
    return undefined;
  },
  playValid: (s) => {
    const c = challengeOf(s);
    return c ? at(c.version, 'playValid', c.e.valid) : undefined;
  },
  playAcceptable: (s) => {
    const c = challengeOf(s);
    return c ? at(c.version, 'playAcceptable', c.e.valid) : undefined;
  },
  ruledAcceptable: (s) => {
    const c = challengeOf(s);
    return c ? at(c.version, 'ruledAcceptable', c.e.valid) : undefined;
  },
  nextPlayMade: (s) => {
    const next = after(s).find(({ e }) => e.type === 'play' && e.seat !== s.player);
    return at(next?.version ?? lastVersion(s), 'nextPlayMade', next !== undefined);
  },
  drawnTiles: (s) => {
    const d = drawnAfter(s);
    return d ? at(d.version, 'drawnTiles', d.e.tiles.length + (d.e.hidden ?? 0)) : undefined;
  },
  margin: (s) => at(lastVersion(s), 'margin', Math.abs(final(s).scores[0] - final(s).scores[1])),
  requesterClockRunning: (s) => at(lastVersion(s), 'requesterClockRunning', final(s).status !== 'ended' && final(s).turn === s.player),
  racks: (s) => {
    const f = final(s);
    return at(lastVersion(s), 'racks', pair(s, [rackSize(f.racks[0]), rackSize(f.racks[1])]));
  },
  opponentRackValue: (s) => {
    const rack = s.states[s.index]!.racks[other(s.player)];
    return rack.hidden > 0 ? undefined : at(s.version, 'opponentRackValue', rackValue(s.states[0]!.distribution, rack.tiles));
  },
  finalScores: (s) => {
    const f = final(s);
    return f.result ? at(lastVersion(s), 'finalScores', pair(s, f.scores as [number, number])) : undefined;
  },
  scoresBeforeAdjustments: (s) => {
    const r = final(s).result;
    return r ? at(lastVersion(s), 'scoresBeforeAdjustments', pair(s, r.scoresBeforeAdjustments as [number, number])) : undefined;
  },
  designation: (s) => {
    const play = playOf(s);
    // The log records the letter of every blank played, so a blank in it was declared.
    return play && play.placements.some((p) => p.blank) ? at(s.version, 'designation', 'properly-declared') : undefined;
  },
  gameEvents: (s) => at(s.version, 'gameEvents', s.index + 1),
  rack: (s) => {
    const r = before(s).racks[s.player];
    return r.hidden > 0 ? undefined : { ...at(s.version - 1, 'rack', joinTiles(r.tiles)), privateTo: s.player };
  },
};

/** Facts whose name means something particular in one kind. */
const BY_KIND: Partial<Record<DisputeKind, Readonly<Record<string, Deriver>>>> = {
  'exchange-tiles-not-bagged': {
    tiles: exchangeCount,
    drawnSince: (s) => {
      // The exchange's own draw comes before its tiles go back; a draw after that is someone's next draw.
      const events = after(s);
      const returned = events.findIndex(({ e }) => e.type === 'tiles-returned');
      const later = events.slice(returned + 1).find(({ e }) => e.type === 'tiles-drawn');
      return at(later?.version ?? lastVersion(s), 'drawnSince', later !== undefined);
    },
  },
  'challenge-outcome': {
    wordsChallenged: (s) =>
      GENERIC.wordsChallenged!(s) ?? (playOf(s) ? at(s.version, 'wordsChallenged', playOf(s)!.words.length) : undefined),
  },
};

/**
 * The facts of `kind` a stored game's log can hold, which a claim on the game therefore need not give (the log
 * may still lack one in a given game: an exchange's draw not made yet, a hidden rack; then the claim's or the
 * default applies).
 */
export const logFactNames = (kind: DisputeKind): string[] =>
  specOf(kind)
    .facts.filter((s) => (BY_KIND[kind]?.[s.name] ?? GENERIC[s.name]) !== undefined)
    .map((s) => s.name);

/** The act a kind disputes, when it is an event of the log: the concerned event must be one. */
const SUBJECT: Partial<Record<DisputeKind, readonly GameEventType[]>> = {
  'illegal-exchange': ['exchange'],
  'exchange-count-mismatch': ['exchange'],
  'exchange-early-return': ['exchange'],
  'exchange-tiles-not-bagged': ['exchange'],
  'challenge-outcome': ['play'],
  'return-from-challenge': ['play'],
  'fast-bagging': ['play'],
  'out-play-hold': ['play'],
  'scoring-error': ['play'],
  'challenge-after-draw': ['play'],
  'wrong-adjudication': ['play'],
  'mistyped-challenge': ['play'],
  'placement-challenge': ['play'],
  'long-hold': ['play'],
  'courtesy-draw': ['play'],
  'going-out': ['play'],
  'blank-designation': ['play'],
  resignation: ['resigned'],
};

/** What else the log must show for a kind to arise at all: the reason it does not, or undefined. */
const ARISES: Partial<Record<DisputeKind, (s: Scene) => string | undefined>> = {
  'blank-designation': (s) => (playOf(s)?.placements.some((p) => p.blank) ? undefined : `the play at version ${s.version} has no blank`),
  'tied-game': (s) => (final(s).result ? undefined : `the game has not ended (version ${lastVersion(s)})`),
  // A recorded game with clock readings charges overtime from them at its end (recorded-clock.ts): a
  // dispute would charge the same minutes twice.
  overtime: (s) => {
    const i = s.log.events.findIndex((e) => e.type === 'clock-reading' && e.seat === s.player);
    return i < 0
      ? undefined
      : `the log keeps seat ${s.player}'s clock (a reading at version ${s.log.firstVersion + i}), so its overtime is charged from the readings at the end of the game`;
  },
  'going-out': (s) => {
    const after = s.states[s.index]!;
    return rackSize(after.racks[s.player]) === 0 && bagCount(after) === 0 ? undefined : `the play at version ${s.version} did not go out`;
  },
};

export const contradiction = (message: string, details: Record<string, unknown>): RuleError =>
  ruleError('FACTS_CONTRADICT_LOG', message, details);

/** Every state of the log: `states[i]` after `events[i]`. */
const statesOf = (events: readonly GameEvent[]): GameState[] => {
  const states: GameState[] = [];
  let s: GameState | null = null;
  for (const e of events) {
    const r = apply(s, e);
    if (!r.ok) throw new Error(`factsFromLog: the log does not replay: ${r.error.code}`);
    states.push((s = r.value));
  }
  return states;
};

const seatOfEvent = (e: GameEvent): Seat | undefined => ('seat' in e && (e.seat === 0 || e.seat === 1) ? e.seat : undefined);

/** The scene of a dispute: the concerned event, the seat whose act it is, and the states. */
const sceneOf = (kind: DisputeKind, log: GameLog, concerns: number, player: Seat | null): Result<Scene, RuleError> => {
  const index = concerns - log.firstVersion;
  const event = log.events[index];
  if (index < 1 || !event) {
    const last = log.firstVersion + log.events.length - 1;
    return err(
      ruleError(
        'INVALID_DISPUTE',
        `concerns must be a version of the game's log after its creation (${log.firstVersion + 1}–${last}), not ${concerns}.`,
        {
          field: 'concerns',
          value: concerns,
        },
      ),
    );
  }
  const wanted = SUBJECT[kind];
  if (wanted && !wanted.includes(event.type))
    return err(
      contradiction(`A ${kind} dispute concerns a ${wanted.join(' or ')}, but version ${concerns} of the log is a ${event.type}.`, {
        field: 'concerns',
        version: concerns,
        event: event.type,
        expected: wanted,
      }),
    );
  const actor = seatOfEvent(event);
  if (actor !== undefined && player !== null && player !== actor)
    return err(
      contradiction(`Version ${concerns} (${event.type}) is seat ${actor}'s act, not seat ${player}'s.`, {
        field: 'player',
        claimed: player,
        log: actor,
        version: concerns,
        event: event.type,
      }),
    );
  const seat = actor ?? player;
  if (seat === null || seat === undefined)
    return err(
      ruleError('INVALID_DISPUTE', `Version ${concerns} (${event.type}) is no seat's act: name the seat whose act is disputed (player).`, {
        field: 'player',
      }),
    );
  return ok({ kind, log, index, event, player: seat, states: statesOf(log.events), version: concerns });
};

/** The log's facts for a dispute of `kind` about the event at version `concerns` (see the module comment). */
export const factsFromLog = (
  kind: DisputeKind,
  log: GameLog,
  concerns: number,
  player: Seat | null = null,
): Result<{ readonly player: Seat; readonly facts: readonly Fact[]; readonly rules: GameState['rules'] }, RuleError> => {
  const scene = sceneOf(kind, log, concerns, player);
  if (!scene.ok) return scene;
  const s = scene.value;
  const ruledOut = ARISES[kind]?.(s);
  if (ruledOut)
    return err(
      contradiction(`A ${kind} dispute cannot arise here: ${ruledOut}.`, { field: 'concerns', version: concerns, event: s.event.type }),
    );
  const facts: Fact[] = [];
  for (const spec of specOf(kind).facts) {
    const derive = BY_KIND[kind]?.[spec.name] ?? GENERIC[spec.name];
    const fact = derive?.(s);
    if (fact) facts.push({ ...fact, name: spec.name });
  }
  return ok({ player: s.player, facts, rules: s.states[0]!.rules });
};

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * The dispute's facts: the log's, then the claimant's for the rest. A claimed fact the log holds must
 * equal it (else FACTS_CONTRADICT_LOG naming the fact and the version it was read at).
 */
export const mergeFacts = (logFacts: readonly Fact[], claimed: Readonly<Record<string, unknown>>): Result<DisputeFact[], RuleError> => {
  const out: DisputeFact[] = logFacts.map((f) => ({ ...f, source: 'log' }));
  for (const f of logFacts) {
    const c = claimed[f.name];
    if (c !== undefined && c !== null && !same(c, f.value))
      return err(
        contradiction(`${f.name} is ${JSON.stringify(f.value)} in the game log at version ${f.version}, not ${JSON.stringify(c)}.`, {
          field: f.name,
          claimed: c,
          log: f.privateTo === undefined ? f.value : null,
          version: f.version,
        }),
      );
  }
  for (const [name, value] of Object.entries(claimed)) {
    if (value === undefined || logFacts.some((f) => f.name === name)) continue;
    out.push({ name, value, source: 'claimant' });
  }
  return ok(out);
};
