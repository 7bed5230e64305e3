/**
 * Test fixtures for the game tests: a started game with chosen racks, and a runner that decides a
 * command and folds its events. Test-only; kept out of the engine's public surface.
 */
import type { Lexicon } from '../lexicon/lexicon.js';
import type { RuleSet } from '../rules/ruleset.js';
import { splitTiles } from '../tiles.js';
import { apply } from './apply.js';
import { commitment } from './bag.js';
import { decide, type Command } from './decide.js';
import type { GameEvent, Seat } from './events.js';
import type { GameState } from './state.js';

export const SEED = 'arbiter-test-seed-0123456789abcdef';

export const lexiconOf = (words: readonly string[]): Lexicon => {
  const set = new Set(words);
  return { name: 'TEST', hash: 'sha256:test', wordCount: set.size, has: (w) => set.has(w) };
};

/** CAT and friends; TAC, XU are phonies. */
export const LEX = lexiconOf(['CAT', 'CATS', 'AT', 'TA', 'ACT', 'SCAT', 'CATE', 'RE', 'ER', 'ERE', 'QI', 'ZA', 'AX', 'EX', 'XI', 'OX']);

const tiles = (s: string): string[] => splitTiles(s)!;

/** Folds events onto a state; throws on a violation (tests only). */
export const fold = (state: GameState | null, events: readonly GameEvent[]): GameState => {
  let s = state;
  for (const e of events) {
    const r = apply(s, e);
    if (!r.ok) throw new Error(`${e.type}: ${r.error.code} ${r.error.message}`);
    s = r.value;
  }
  return s!;
};

/** The opening events of a seeded game where the first draws are the given racks. */
export const openingEvents = (rules: RuleSet, racks: readonly [string, string], firstSeat: Seat = 0): GameEvent[] => [
  {
    type: 'game-created',
    rules,
    lexicon: { name: 'TEST', hash: 'sha256:test' },
    players: [{ name: 'Ann' }, { name: 'Bob' }],
    timeControl: { kind: 'untimed' },
    firstSeat,
    bag: { kind: 'seeded', commitment: commitment(SEED) },
    createdAt: '2024-01-01T00:00:00Z',
  },
  { type: 'tiles-drawn', seat: firstSeat, tiles: tiles(racks[firstSeat]) },
  { type: 'tiles-drawn', seat: firstSeat === 0 ? 1 : 0, tiles: tiles(racks[firstSeat === 0 ? 1 : 0]) },
];

export const start = (rules: RuleSet, racks: readonly [string, string], firstSeat: Seat = 0): GameState =>
  fold(null, openingEvents(rules, racks, firstSeat));

/** The same game with only `left` tiles in the bag (the rest removed from play, as if long gone). */
export const withBag = (s: GameState, left: number): GameState => ({ ...s, bag: s.bag.slice(0, left) });

/** Decides and applies a command; throws on an error. */
export const run = (s: GameState, cmd: Command, lexicon: Lexicon | null = LEX): { state: GameState; events: GameEvent[] } => {
  const r = decide(s, cmd, { lexicon, seed: SEED });
  if (!r.ok) throw new Error(`${cmd.kind}: ${r.error.code} ${r.error.message}`);
  return { state: fold(s, r.value), events: r.value };
};

export const rejects = (s: GameState, cmd: Command, lexicon: Lexicon | null = LEX): string => {
  const r = decide(s, cmd, { lexicon, seed: SEED });
  if (r.ok) throw new Error(`${cmd.kind} was accepted`);
  return r.error.code;
};
