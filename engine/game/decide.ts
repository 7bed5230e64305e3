import type { Layout } from '../board.js';
import { cite } from '../errors.js';
import type { Lexicon } from '../lexicon/lexicon.js';
import { ok, type Result } from '../result.js';
import type { RuleSet } from '../rules/ruleset.js';
import { apply } from './apply.js';
import { commitment } from './bag.js';
import { Batch, fail } from './decide/batch.js';
import { decideChallenge } from './decide/challenge.js';
import type { Command, CommandHandler, CommandHandlers, DecideContext } from './decide/command.js';
import { drawEvent } from './decide/follow-up.js';
import { decideAbort, decideLoss, decidePause } from './decide/lifecycle.js';
import { decideExchange, decideFreeTrade } from './decide/tile-swaps.js';
import { decideBlankSubstitution, decidePass, decidePlay } from './decide/turn.js';
import { other, type GameEvent, type PlayerInfo, type Seat, type TimeControl } from './events.js';
import type { GameState } from './state.js';

/**
 * Commands → events. `decide` validates a command completely and returns every event it causes
 * (the play, its draw, a game end…) or an error and no events, so the service can append the list
 * in one transaction and a game is never half-applied. Randomness is the server's secret `seed`;
 * the clock is `now`; neither is read from globals. Each command kind has its handler in `decide/`
 * (turn, tile swaps, challenge, lifecycle); this module checks the seed and dispatches.
 */

export { COMMAND_KINDS, type Command, type DecideContext } from './decide/command.js';
export { challengeEvents } from './decide/challenge.js';
export { drawEvent, endIfOver } from './decide/follow-up.js';
export { playEvent } from './decide/turn.js';

/** Creates a seeded game: `game-created` with the bag commitment, then seven tiles to each player, first player first. */
export function createGame(params: {
  readonly rules: RuleSet;
  readonly lexicon: { readonly name: string; readonly hash: string } | null;
  readonly players: readonly [PlayerInfo, PlayerInfo];
  readonly timeControl: TimeControl;
  readonly seed: string;
  readonly firstSeat?: Seat;
  readonly createdAt: string;
  /** A board given as data (`engine/layout.ts`); its name must be `rules.board.layout`. */
  readonly layout?: Layout;
}): Result<GameEvent[]> {
  if (params.seed.length < 16)
    return fail('WEAK_SEED', 'The bag seed must be at least 16 characters of secret randomness.', { length: params.seed.length });
  const first = params.firstSeat ?? 0;
  const created: GameEvent = {
    type: 'game-created',
    rules: params.rules,
    lexicon: params.lexicon,
    players: params.players,
    timeControl: params.timeControl,
    firstSeat: first,
    bag: { kind: 'seeded', commitment: commitment(params.seed) },
    createdAt: params.createdAt,
    ...(params.layout ? { layout: params.layout } : {}),
  };
  const s0 = apply(null, created);
  if (!s0.ok) return s0;
  const b = new Batch(s0.value);
  b.events.push(created);
  for (const seat of [first, other(first)]) {
    const d = drawEvent(b.state, seat, params.rules.board.rackSize, params.seed);
    if (d) {
      const r = b.push(d);
      if (!r.ok) return r;
    }
  }
  return ok(b.events);
}

/** The handler of each command kind; the type makes a missing kind a compile error. */
export const COMMAND_HANDLERS: CommandHandlers = {
  play: decidePlay,
  'blank-substitution': decideBlankSubstitution,
  exchange: decideExchange,
  pass: decidePass,
  challenge: decideChallenge,
  resign: decideLoss,
  timeout: decideLoss,
  forfeit: decideLoss,
  abort: decideAbort,
  'request-pause': decidePause,
  'accept-pause': decidePause,
  'decline-pause': decidePause,
  resume: decidePause,
  'free-trade': decideFreeTrade,
};

/** Decides a command; see the module comment. */
export function decide(state: GameState, command: Command, ctx: DecideContext): Result<GameEvent[]> {
  if (state.bagKind === 'seeded' && ctx.seed !== null && commitment(ctx.seed) !== state.commitment) {
    return fail('SEED_COMMITMENT_MISMATCH', 'The seed given does not match the commitment made when the game was created.');
  }
  // TypeScript cannot tie `COMMAND_HANDLERS[command.kind]` to the command's own kind, so it sees a
  // union of handlers; the table's type already guarantees each takes exactly the commands of its key.
  const handler = COMMAND_HANDLERS[command.kind] as CommandHandler<Command['kind']>;
  return handler(state, command, ctx);
}

/**
 * seed-002 self-lookup: a player may check words before playing them, without penalty, when
 * `challenge.selfLookup` is on. No event: looking a word up changes nothing in the game.
 */
export function lookup(state: GameState, words: readonly string[], lexicon: Lexicon): Result<{ word: string; valid: boolean }[]> {
  if (!state.rules.challenge.selfLookup) {
    return fail(
      'HOUSE_RULE_OFF',
      `${state.rules.name} does not allow looking words up during the game.`,
      { rule: 'challenge.selfLookup' },
      cite('seed-002', 'Free Challenges & the Dictionary', 'Seed'),
    );
  }
  return ok(words.map((w) => ({ word: w.toUpperCase(), valid: lexicon.has(w.toUpperCase()) })));
}
