import { byeCandidates } from './byes.js';
import { meetings } from './common.js';
import type { PairingPlayer, PairingRequest, RoundPairing } from './types.js';

/** Test data for the pairing methods: players, requests, and a division played forward with given results. */

export const player = (id: number, over: Partial<PairingPlayer> = {}): PairingPlayer => ({
  id,
  rating: 2000 - id,
  wins: 0,
  losses: 0,
  spread: 0,
  rank: id,
  opponents: [],
  firsts: 0,
  seconds: 0,
  byes: 0,
  ...over,
});

/** Players 1..n, fresh, ranked by entrant number. */
export const field = (n: number): PairingPlayer[] => Array.from({ length: n }, (_, i) => player(i + 1));

export const request = (players: readonly PairingPlayer[], over: Partial<PairingRequest> = {}): PairingRequest => ({
  round: 1,
  totalRounds: 12,
  players,
  prePaired: [],
  maxRepeats: 0,
  byeChoice: 'lowest-ranked-without-bye',
  gibsonSpreadPerGame: 300,
  seed: 'fixture-seed',
  roster: players.map((p) => p.id).sort((a, b) => a - b),
  ...over,
});

/** Every id in the round: games' players, the bye and the extra byes, in that order. */
export const idsInRound = (r: RoundPairing): number[] => [
  ...r.games.flatMap((g) => [g.first, g.second]),
  ...(r.bye === null ? [] : [r.bye]),
  ...(r.extraByes ?? []),
];

/** Unordered pairs of a round as "a-b" with a < b, sorted. */
export const pairKeys = (r: RoundPairing): string[] =>
  r.games.map((g) => (g.first < g.second ? `${g.first}-${g.second}` : `${g.second}-${g.first}`)).sort();

/** A small deterministic random source (mulberry32), for divisions played forward in tests and the bench. */
export const rng = (seed: number): (() => number) => {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

interface Record {
  id: number;
  rating: number;
  wins: number;
  losses: number;
  spread: number;
  opponents: (number | null)[];
  firsts: number;
  seconds: number;
  byes: number;
}

/** A division being played forward: its players' records and the request for its next round. */
export class Division {
  readonly records: Record[];
  round = 1;

  constructor(
    n: number,
    readonly totalRounds: number,
    readonly random: () => number,
  ) {
    this.records = Array.from({ length: n }, (_, i) => ({
      id: i + 1,
      rating: 2000 - i,
      wins: 0,
      losses: 0,
      spread: 0,
      opponents: [],
      firsts: 0,
      seconds: 0,
      byes: 0,
    }));
  }

  /** The players in standings order: wins, then spread, then entrant number. */
  players(): PairingPlayer[] {
    return [...this.records]
      .sort((a, b) => b.wins - a.wins || b.spread - a.spread || a.id - b.id)
      .map((r, i) => ({ ...r, opponents: [...r.opponents], rank: i + 1 }));
  }

  request(over: Partial<PairingRequest> = {}): PairingRequest {
    return request(this.players(), { round: this.round, totalRounds: this.totalRounds, roster: this.records.map((r) => r.id), ...over });
  }

  /** Records a round with random results (spread -250..+250, no ties), a bye as a win by 50. */
  play(r: RoundPairing): void {
    const byId = new Map(this.records.map((x) => [x.id, x]));
    for (const g of r.games) {
      const a = byId.get(g.first)!;
      const b = byId.get(g.second)!;
      const s = Math.round((this.random() - 0.5) * 500) || 1;
      a.opponents.push(b.id);
      b.opponents.push(a.id);
      a.firsts++;
      b.seconds++;
      (s > 0 ? a : b).wins++;
      (s > 0 ? b : a).losses++;
      a.spread += s;
      b.spread -= s;
    }
    for (const id of [...(r.bye === null ? [] : [r.bye]), ...(r.extraByes ?? [])]) {
      const p = byId.get(id)!;
      p.opponents.push(0);
      p.byes++;
      p.wins++;
      p.spread += 50;
    }
    this.round++;
  }
}

/** Every perfect matching of `items` (brute force, for small test fields): the oracle the searches are checked against. */
export function* perfectMatchings<T>(items: readonly T[]): Generator<[T, T][]> {
  const [first, ...rest] = items;
  if (first === undefined) {
    yield [];
    return;
  }
  for (let i = 0; i < rest.length; i++) {
    const partner = rest[i]!;
    const others = rest.filter((_, j) => j !== i);
    for (const m of perfectMatchings(others)) yield [[first, partner], ...m];
  }
}

/** A random round (shuffled pairs, the odd one out on the bye), to give a division a random history. */
export const randomRound = (ids: readonly number[], random: () => number): RoundPairing => {
  const order = [...ids];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const games = [];
  for (let i = 0; i + 1 < order.length; i += 2)
    games.push({ first: order[i]!, second: order[i + 1]!, firstReason: 'draw' as const, repeats: 0 });
  return { games, bye: order.length % 2 === 1 ? order.at(-1)! : null, gibsonized: [] };
};

/** A division of n players after `rounds` random rounds. */
export const randomDivision = (n: number, rounds: number, seed: number, totalRounds = rounds + 4): Division => {
  const d = new Division(n, totalRounds, rng(seed));
  for (let r = 0; r < rounds; r++)
    d.play(
      randomRound(
        d.records.map((x) => x.id),
        d.random,
      ),
    );
  return d;
};

/** Whether some pairing of the request (any bye candidate) keeps every meeting within maxRepeats: brute force. */
export const pairable = (req: PairingRequest, pool: readonly PairingPlayer[]): boolean => {
  const evenPools = pool.length % 2 === 0 ? [pool] : byeCandidates(req, pool).map((bye) => pool.filter((p) => p !== bye));
  return evenPools.some((even) => {
    for (const m of perfectMatchings(even)) if (m.every(([a, b]) => meetings(a, b.id) <= req.maxRepeats)) return true;
    return false;
  });
};
