import type { DivisionRatingInput, DivisionRatingSystem, RatedGame } from './division-types.js';

/**
 * The NASPA (formerly NSA) rating system as tsh computes it for a division, its `nsa2008` system (the
 * default of tsh's `nsa` and `naspa` realms). Read from tsh's Perl modules, not copied: `Ratings::Elo`
 * (© 2008–2010 John J. Chew III, rev. 1.8: `ExpectLogistic`, `Multiplier`, `ConvertExcessToPoints`,
 * `CalculateExcess`, `RateVeterans`, `RateNewcomersCorrectly`, `SetupNewcomerPR`, the `nsa2008` defaults),
 * `Ratings` (© 2008–2012, rev. 1.11: `MakeSplits`, `CalculateSplitRatings`, `CountEWins`,
 * `CalculateSegmentRatings`, `CalculateAccelerationBonus`, `AddFeedback`, `RoundNewRatings`, `Search`),
 * `TSH::Division` (`ComputeRatings`, `MakeRatingsInput`: a missing `lifeg` counts as 100) and `TSH::Config`
 * (`RealmDefaults`: realm nsa → rating_system nsa2008). The same algorithm in prose: Marc Levesque,
 * "Ratings Calculation" (wordgameplayers.org/faq/wgpo-players-faq/ratings-calculation/, 2017).
 * docs/tournaments.md#tournament-ratings has the steps and the comparison with real `.t` files.
 */

/** tsh's `ExpectLogistic`: a player rated `a` beats one rated `b` with this probability. */
export const expectedScore = (a: number, b: number): number => 1 - 1 / (1 + Math.exp(0.0031879 * (a - b)));

/** Points per excess win, by games played before the event and the rating band (tsh's `Multiplier`). */
export const multiplier = (games: number, rating: number): number =>
  games < 0 ? 0 : games < 50 ? (rating < 1800 ? 30 : rating < 2000 ? 24 : 15) : rating < 1800 ? 20 : rating < 2000 ? 16 : 10;

/** tsh's default when a player line has no `lifeg` (TSH::Division `MakeRatingsInput`). */
export const DEFAULT_LIFE_GAMES = 100;

/** Rounds 0-based, inclusive: an event of 17 rounds or more is rated in two segments, of 36 or more in three. */
export const segmentsOf = (rounds: number): (readonly [number, number])[] => {
  const last = rounds - 1;
  if (last < 16) return [[0, last]];
  if (last < 35) {
    const s1 = Math.floor(last / 2);
    return [
      [0, s1],
      [s1 + 1, last],
    ];
  }
  const s1 = Math.floor(last / 3);
  const s2 = Math.floor((2 * last + 1) / 3);
  return [
    [0, s1],
    [s1 + 1, s2],
    [s2 + 1, last],
  ];
};

interface Player {
  readonly id: number;
  readonly lifeGames: number;
  /** Rating at the start of the segment; 0 unrated. */
  old: number;
  /** Rating the expectations use (the old one, or a newcomer's estimate). */
  effective: number;
  next: number;
  feedback: number;
  /** Opponents (ids) and own scores of the segment's rated games, in round order. */
  games: { opponent: number; score: number }[];
}

/** tsh's `Search`: a binary search over whole ratings that answers the last midpoint it tried. */
const search = (f: (x: number) => number, low: number, high: number): number => {
  let mid = low;
  while (high - low > 1) {
    mid = Math.floor((low + high) / 2);
    if (f(mid) < 0) low = mid;
    else high = mid;
  }
  return mid;
};

const MAX_ITERATIONS = 50;

/** Performance ratings of the unrated players, iterated until none changes (tsh's `RateNewcomersCorrectly`). */
const rateNewcomers = (players: ReadonlyMap<number, Player>): void => {
  const unrated = [...players.values()].filter((p) => p.old === 0);
  if (unrated.length === 0) return;
  const current = new Map<number, number>();
  for (const p of unrated) {
    const rated = p.games.map((g) => players.get(g.opponent)!.old).filter((r) => r > 0);
    current.set(p.id, rated.length > 0 ? rated.reduce((a, b) => a + b, 0) / rated.length : 1500);
  }
  // The averaging passes cap by rated opponents only (tsh's second loop has no unrated-opponent cap).
  const estimate = (p: Player, averaging: boolean): number => {
    const n = p.games.length;
    const won = p.games.reduce((s, g) => s + g.score, 0);
    const target = won === 0 ? n * 0.05 : won === n ? n * 0.95 : won;
    const ratingOf = (id: number) => players.get(id)!.old || current.get(id)!;
    let r = search((x) => p.games.reduce((s, g) => s + expectedScore(x, ratingOf(g.opponent)), 0) - target, 0, 3000);
    if (r < 500) r = 500;
    const maxRated = Math.max(0, ...p.games.map((g) => players.get(g.opponent)!.old));
    const maxUnrated = Math.max(0, ...p.games.filter((g) => players.get(g.opponent)!.old === 0).map((g) => current.get(g.opponent)!));
    const cap = averaging ? maxRated : maxRated || maxUnrated;
    return cap ? Math.min(r, cap + (400 * won) / n) : r;
  };
  const step = (averaging = false): boolean => {
    const next = new Map(unrated.filter((p) => p.games.length > 0).map((p) => [p.id, estimate(p, averaging)]));
    const changed = [...next].some(([id, r]) => r !== current.get(id));
    for (const [id, r] of next) current.set(id, r);
    return changed;
  };
  let i = 0;
  while (i < MAX_ITERATIONS && step()) i++;
  if (i === MAX_ITERATIONS) {
    // No fixed point: tsh averages the estimates of as many further iterations.
    const sums = new Map<number, number>();
    for (let k = 0; k < MAX_ITERATIONS; k++) {
      step(true);
      for (const p of unrated) if (p.games.length > 0) sums.set(p.id, (sums.get(p.id) ?? 0) + current.get(p.id)!);
    }
    for (const [id, s] of sums) current.set(id, s / MAX_ITERATIONS);
  }
  // One without a game in the segment stays unrated (tsh's `CopyField` drops their estimate).
  for (const p of unrated.filter((u) => u.games.length > 0)) {
    p.effective = current.get(p.id)!;
    p.next = current.get(p.id)!;
  }
};

const BOUNDARY_LOW = 1800;
const BOUNDARY_HIGH = 2000;

/** Excess wins to points, the multiplier changing where the rating crosses 1800 or 2000 (`ConvertExcessToPoints`). */
const applyExcess = (start: number, excess: number, games: number): number => {
  let rating = start;
  let left = excess;
  // Each pass ends at a boundary or returns; three bands need at most a few passes (the bound is a guard).
  for (let pass = 0; left !== 0 && pass < 8; pass++) {
    const m = multiplier(games, rating);
    const reached = rating + m * left;
    if (multiplier(games, reached) === m) return reached;
    const boundary =
      rating < BOUNDARY_LOW ? BOUNDARY_LOW : rating < BOUNDARY_HIGH ? (left > 0 ? BOUNDARY_HIGH : BOUNDARY_LOW - 1) : BOUNDARY_HIGH - 1;
    left -= (boundary - rating) / m;
    rating = boundary;
  }
  return rating;
};

/** One segment: newcomers' estimates, veterans' excess wins and acceleration, feedback, rounding, the floor. */
const rateSegment = (players: ReadonlyMap<number, Player>): void => {
  for (const p of players.values()) {
    p.feedback = 0;
    p.effective = p.old;
    p.next = p.old;
  }
  rateNewcomers(players);
  const veterans = [...players.values()].filter((p) => p.old > 0 && p.games.length > 0);
  for (const p of veterans) {
    const won = p.games.reduce((s, g) => s + g.score, 0);
    const expected = p.games.reduce((s, g) => s + expectedScore(p.effective, players.get(g.opponent)!.effective), 0);
    p.next = applyExcess(p.old, won - expected, p.lifeGames);
  }
  for (const p of veterans) {
    // Acceleration: whatever a veteran gains beyond 5 points a game is added again; rated opponents get 1/20 of it per game.
    const acceleration = p.next - p.old - 5 * p.games.length;
    if (acceleration <= 0) continue;
    p.next += acceleration;
    for (const g of p.games) {
      const o = players.get(g.opponent)!;
      if (o.old > 0) o.feedback += acceleration / 20;
    }
  }
  for (const p of players.values()) {
    // The nsa2008 floor applies to veterans, before feedback (tsh's `RateVeterans`, then `AddFeedback`).
    if (p.old > 0 && p.next < 1) p.next = 1;
  }
  for (const p of players.values()) p.next = Math.floor(0.5 + p.next + p.feedback);
};

const gamesIn = (rounds: DivisionRatingInput['rounds'], from: number, to: number, id: number): Player['games'] => {
  const out: Player['games'] = [];
  for (const games of rounds.slice(from, to + 1))
    for (const g of games as readonly RatedGame[]) {
      if (g.a === id) out.push({ opponent: g.b, score: g.score });
      else if (g.b === id) out.push({ opponent: g.a, score: 1 - g.score });
    }
  return out;
};

export const naspa: DivisionRatingSystem = {
  name: 'naspa',
  description:
    'NASPA ratings as tsh computes them (nsa2008): excess wins × a multiplier by games and rating band, acceleration and feedback, events of 17+ rounds split.',
  rate: ({ players, rounds, plannedRounds }) => {
    const state = new Map<number, Player>(
      players.map((p) => [
        p.id,
        {
          id: p.id,
          lifeGames: p.lifeGames ?? DEFAULT_LIFE_GAMES,
          old: p.ratingIn,
          effective: p.ratingIn,
          next: p.ratingIn,
          feedback: 0,
          games: [],
        },
      ]),
    );
    for (const [from, to] of segmentsOf(Math.max(plannedRounds, rounds.length))) {
      for (const p of state.values()) p.games = gamesIn(rounds, from, to, p.id);
      rateSegment(state);
      for (const p of state.values()) p.old = p.next;
    }
    return new Map([...state.values()].map((p) => [p.id, p.old]));
  },
};
