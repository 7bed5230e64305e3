import { cite, type Citation, type RuleError } from '../errors.js';
import { ok, type Result } from '../result.js';
import {
  divisionNamed,
  entrantExists,
  fail,
  roundOf,
  SEED_001_S1,
  type Decided,
  type DecideContext,
  type TournamentCommandOf,
} from './commands.js';
import type { PairedGame } from './pairing/types.js';
import { forfeitScores } from './decide-slips.js';
import { gameOf, type DivisionState, type RoundState, type TournamentState } from './state.js';

/**
 * Late arrival at a round with an announced start (issue 30, item 4). Seed-001 §1: the director may start
 * a late player's clock no earlier than 5 minutes after the start (`time.lateClockStartMinutes`); after 25
 * minutes (`time.lateForfeitMinutes`), or when the clock would read −0:01, the game is forfeited. WESPA
 * 2.3: the clock is started at the start and the game is forfeited when the late player's time is gone.
 * The forfeit is a result like any other, recorded as a forfeit for late arrival (seed-001 §4 then counts
 * the forfeiter's first or second).
 */

const MINUTE = 60_000;
const WESPA_2_3: Citation = cite('wespa-3.0', '2.3', 'V');

interface LateGame {
  readonly division: DivisionState;
  readonly round: RoundState;
  readonly game: PairedGame;
  readonly startsAt: number;
}

const lateGame = (state: TournamentState, c: { division: string; round: number; player: number }): Result<LateGame, RuleError> => {
  const d = divisionNamed(state, c.division);
  if (!d.ok) return d;
  const r = roundOf(d.value, c.round);
  if (!r.ok) return r;
  const p = entrantExists(d.value, c.player);
  if (!p.ok) return p;
  if (d.value.spec.rules.time.lateArrival === 'none')
    return fail('LATE_ARRIVAL_NOT_IN_RULES', 'This division’s rule set has no late-arrival procedure (time.lateArrival is none).', {
      field: 'division',
    });
  const planned = d.value.spec.rounds[c.round - 1]!.startsAt;
  if (planned === null)
    return fail(
      'NO_ANNOUNCED_START',
      `Round ${c.round} has no announced start, so no one is late for it (seed-001 §1).`,
      { field: 'round' },
      SEED_001_S1,
    );
  if (r.value.status === 'unpaired' || r.value.status === 'ended')
    return fail('ROUND_NOT_PAIRED', `Round ${c.round} is ${r.value.status}.`, { field: 'round' });
  const game = gameOf(r.value, c.player);
  if (!game) return fail('GAME_NOT_IN_ROUND', `Player ${c.player} has no game in round ${c.round}.`, { field: 'player' });
  if (r.value.slips[game.first]) return fail('RESULT_EXISTS', `${game.first} v ${game.second} has a result already.`, { field: 'player' });
  return ok({ division: d.value, round: r.value, game, startsAt: Date.parse(planned) });
};

/** When the director may start the late player's clock, under the division's rule. */
const earliestClockStart = (g: LateGame): number =>
  g.division.spec.rules.time.lateArrival === 'seed-001'
    ? g.startsAt + g.division.spec.rules.time.lateClockStartMinutes * MINUTE
    : g.startsAt;

/** When the game is forfeited if the player has not come: seed-001 at 25 minutes or when the clock would read −0:01, whichever comes first; WESPA when the time is gone. */
export const lateForfeitAt = (rules: DivisionState['spec']['rules'], startsAt: number, clockStartedAt: number | null): number => {
  const clockOut =
    clockStartedAt === null || rules.time.gameMinutes === 0 ? Infinity : clockStartedAt + rules.time.gameMinutes * MINUTE + 1000;
  if (rules.time.lateArrival === 'seed-001') return Math.min(startsAt + rules.time.lateForfeitMinutes * MINUTE, clockOut);
  return clockStartedAt === null ? startsAt + rules.time.gameMinutes * MINUTE + 1000 : clockOut;
};

const citationOf = (g: LateGame): Citation => (g.division.spec.rules.time.lateArrival === 'seed-001' ? SEED_001_S1 : WESPA_2_3);

export const decideStartLateClock = (state: TournamentState, c: TournamentCommandOf<'start-late-clock'>, ctx: DecideContext): Decided => {
  const g = lateGame(state, c);
  if (!g.ok) return g;
  if (g.value.round.lateClocks.some((x) => x.player === c.player))
    return fail('BAD_INPUT', `Player ${c.player}’s clock was started already.`, { field: 'player' });
  const earliest = earliestClockStart(g.value);
  if (Date.parse(ctx.now) < earliest)
    return fail(
      'LATE_CLOCK_TOO_EARLY',
      `The late player’s clock may be started no earlier than ${new Date(earliest).toISOString()} (${g.value.division.spec.rules.time.lateClockStartMinutes} minutes after the announced start).`,
      { field: 'player', earliest: new Date(earliest).toISOString() },
      citationOf(g.value),
    );
  return ok([{ type: 'late-clock-started', at: ctx.now, by: ctx.actor, division: c.division, round: c.round, player: c.player }]);
};

export const decideForfeitLate = (state: TournamentState, c: TournamentCommandOf<'forfeit-late'>, ctx: DecideContext): Decided => {
  const g = lateGame(state, c);
  if (!g.ok) return g;
  const rules = g.value.division.spec.rules;
  const clock = g.value.round.lateClocks.find((x) => x.player === c.player);
  const at = lateForfeitAt(rules, g.value.startsAt, clock ? Date.parse(clock.at) : null);
  if (Date.parse(ctx.now) < at)
    return fail(
      'LATE_FORFEIT_TOO_EARLY',
      `The game is forfeited for late arrival only from ${new Date(at).toISOString()}.`,
      { field: 'player', from: new Date(at).toISOString() },
      citationOf(g.value),
    );
  const { game, division } = g.value;
  return ok([
    {
      type: 'result-recorded',
      at: ctx.now,
      by: ctx.actor,
      division: c.division,
      round: c.round,
      players: [game.first, game.second],
      scores: forfeitScores(division, [game.first, game.second], c.player),
      kind: 'forfeit',
      forfeiter: c.player,
      forfeitReason: 'late-arrival',
      gameId: null,
      final: true,
    },
  ]);
};
