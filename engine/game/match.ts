import { cite, ruleError } from '../errors.js';
import { err, ok, type Result } from '../result.js';
import type { RuleSet } from '../rules/ruleset.js';
import type { PlayerInfo, Seat } from './events.js';
import { firstSecondTally, forfeitedBeforeStart, forfeiterOf, recordedScores, type FirstSecondTally, type PlayerGame } from './forfeits.js';
import type { GameState } from './state.js';

/**
 * Matches (seed-003 rule 1, scoring 11): two games, each player going first once; the player with
 * more points over both games wins the match, equal totals are a tie.
 */

const RULE_1 = cite('seed-003', 'rule 1', 'Seed');
const SCORING_11 = cite('seed-003', 'scoring 11', 'Seed');

const key = (p: PlayerInfo): string => p.id ?? p.name;

/** The games of a match: the same seats, the first player alternating (seed-003 rule 1). */
export const matchGames = (rules: RuleSet): Result<{ firstSeat: Seat }[]> => {
  if (rules.match.games === null)
    return err(ruleError('NOT_A_MATCH', `${rules.name} plays single games, not matches.`, { rule: 'match.games' }));
  return ok(Array.from({ length: rules.match.games }, (_, i) => ({ firstSeat: (i % 2) as Seat })));
};

export interface MatchResult {
  /** Points over all games, by player (`id`, else name). */
  readonly totals: Readonly<Record<string, number>>;
  /** The winner's key, or null for a tied match. */
  readonly winner: string | null;
  /** Each game's winner's key (null = tied game). */
  readonly gameWinners: readonly (string | null)[];
}

/**
 * The result of a finished match (seed-003 scoring 11: combined points, else a tie). A forfeited game
 * counts with its recorded scores (`recordedScores`: the rule set's forfeit scoring). An aborted game
 * has no result: MATCH_ABORTED.
 */
export function matchResult(rules: RuleSet, games: readonly GameState[]): Result<MatchResult> {
  if (rules.match.games === null)
    return err(ruleError('NOT_A_MATCH', `${rules.name} plays single games, not matches.`, { rule: 'match.games' }));
  if (games.length !== rules.match.games) {
    return err(
      ruleError('MATCH_INCOMPLETE', `A match has ${rules.match.games} games; ${games.length} given.`, { games: games.length }, RULE_1),
    );
  }
  const names = games[0]!.players.map(key);
  const firsts = new Map<string, number>();
  const totals: Record<string, number> = Object.fromEntries(names.map((n) => [n, 0]));
  const gameWinners: (string | null)[] = [];
  for (const [i, g] of games.entries()) {
    const here = g.players.map(key);
    if (here.some((n) => !(n in totals)) || new Set(here).size !== 2) {
      return err(
        ruleError('MATCH_PLAYERS_DIFFER', `Game ${i + 1} is not between the match's two players.`, { game: i + 1, players: here }, RULE_1),
      );
    }
    if (g.status !== 'ended' || !g.result)
      return err(ruleError('MATCH_INCOMPLETE', `Game ${i + 1} has not ended.`, { game: i + 1 }, RULE_1));
    if (isAborted(g)) {
      return err(
        ruleError(
          'MATCH_ABORTED',
          `Game ${i + 1} was aborted: it has no result, so the match has no combined points to decide it.`,
          { game: i + 1 },
          SCORING_11,
        ),
      );
    }
    const first = here[g.firstSeat]!;
    firsts.set(first, (firsts.get(first) ?? 0) + 1);
    const scores = recordedScores(rules, g);
    here.forEach((n, seat) => (totals[n]! += scores[seat]!));
    gameWinners.push(g.result.winner === null ? null : here[g.result.winner]!);
  }
  if (names.some((n) => (firsts.get(n) ?? 0) !== games.length / 2)) {
    return err(
      ruleError('MATCH_FIRST_PLAYER', 'In a match each player goes first in one game.', { firsts: Object.fromEntries(firsts) }, RULE_1),
    );
  }
  const [a, b] = names as [string, string];
  const winner = totals[a]! === totals[b]! ? null : totals[a]! > totals[b]! ? a : b;
  return ok({ totals, winner, gameWinners });
}

export const MATCH_STATUSES = ['open', 'playing', 'ended', 'aborted'] as const;
/**
 * `open`: a game waits for its second player; `ended`: every game has ended (the result is set);
 * `aborted`: a game was aborted, so the match has no result (see {@link matchStanding}).
 */
export type MatchStatus = (typeof MATCH_STATUSES)[number];

/** A game that ended by abort (before its first turn): it has no winner and no result to count. */
const isAborted = (g: GameState): boolean => g.status === 'ended' && g.result?.reason === 'aborted';

export interface MatchStanding {
  readonly status: MatchStatus;
  /** Points so far over the games begun (recorded scores of ended games), by player key; empty while open. */
  readonly totals: Readonly<Record<string, number>>;
  /** Firsts and seconds of each player over the games begun (seed-001 §4 for games forfeited before they began). */
  readonly firsts: Readonly<Record<string, FirstSecondTally>>;
  /** The match result once every game has ended; null before. */
  readonly result: MatchResult | null;
}

/**
 * Where a match stands (seed-003 rule 1, scoring 11): `games` in match order, null for a game not
 * begun (its seat still open). Totals count each game begun; the result is {@link matchResult} once all
 * have ended. A match with an aborted game is `aborted` at once, with no result: scoring 11 decides on the
 * points of every game, and an aborted game has none, so no honest result exists (its other games count
 * for nothing). Firsts and seconds follow `tournament.forfeitFirstSecond` (seed-001 §4): a game forfeited
 * before its first turn is unplayed — the forfeiter's position follows the rule, the opponent gets neither.
 */
export function matchStanding(rules: RuleSet, games: readonly (GameState | null)[]): Result<MatchStanding> {
  if (rules.match.games === null)
    return err(ruleError('NOT_A_MATCH', `${rules.name} plays single games, not matches.`, { rule: 'match.games' }));
  const begun = games.filter((g): g is GameState => g !== null);
  const names = begun[0]?.players.map(key) ?? [];
  const totals: Record<string, number> = Object.fromEntries(names.map((n) => [n, 0]));
  const sequences: Record<string, PlayerGame[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (const [i, g] of begun.entries()) {
    const here = g.players.map(key);
    if (here.some((n) => !(n in totals))) {
      return err(
        ruleError('MATCH_PLAYERS_DIFFER', `Game ${i + 1} is not between the match's two players.`, { game: i + 1, players: here }, RULE_1),
      );
    }
    const scores = g.status === 'ended' ? recordedScores(rules, g) : g.scores;
    const forfeiter = forfeitedBeforeStart(g) ? forfeiterOf(g) : null;
    here.forEach((n, seat) => {
      totals[n]! += scores[seat]!;
      sequences[n]!.push(
        forfeiter === null
          ? { kind: 'played', first: seat === g.firstSeat }
          : { kind: 'unplayed', role: seat === forfeiter ? 'forfeiter' : 'opponent' },
      );
    });
  }
  const firsts = Object.fromEntries(names.map((n) => [n, firstSecondTally(rules.tournament.forfeitFirstSecond, sequences[n]!)]));
  if (begun.some(isAborted)) return ok({ status: 'aborted', totals, firsts, result: null });
  const allEnded = games.length === rules.match.games && begun.length === games.length && begun.every((g) => g.status === 'ended');
  if (!allEnded) return ok({ status: begun.length < games.length ? 'open' : 'playing', totals, firsts, result: null });
  const result = matchResult(rules, begun);
  if (!result.ok) return result;
  return ok({ status: 'ended', totals, firsts, result: result.value });
}
