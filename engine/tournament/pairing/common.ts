import { err, ok, type Result } from '../../result.js';
import type { RuleError } from '../../errors.js';
import { pairingError } from './codes.js';
import { decideFirst } from './first-second.js';
import { BYE_CHOICES, type PairedGame, type PairingPlayer, type PairingRequest, type RoundPairing } from './types.js';

/** Times `a` has met entrant `b` in earlier rounds (a bye, 0, is never a meeting). */
export const meetings = (a: PairingPlayer, b: number): number => {
  if (b === 0) return 0;
  let n = 0;
  for (const o of a.opponents) if (o === b) n++;
  return n;
};

/** Whether two players may meet this round: they have met at most `maxRepeats` times before. */
export const mayMeet = (request: PairingRequest, a: PairingPlayer, b: PairingPlayer): boolean => meetings(a, b.id) <= request.maxRepeats;

/** The active players by entrant number. */
export const playersById = (request: PairingRequest): ReadonlyMap<number, PairingPlayer> => new Map(request.players.map((p) => [p.id, p]));

/** A paired game decided by the balance of firsts and seconds (first-second.ts). */
export const balancedGame = (request: PairingRequest, a: PairingPlayer, b: PairingPlayer): PairedGame => ({
  ...decideFirst(a, b, request.seed, request.round),
  repeats: meetings(a, b.id),
});

/** The round as a method returns it. */
export const roundPairing = (
  games: readonly PairedGame[],
  bye: number | null,
  gibsonized: readonly number[] = [],
  extraByes: readonly number[] = [],
): RoundPairing => (extraByes.length > 0 ? { games, bye, gibsonized, extraByes } : { games, bye, gibsonized });

/** The error every search returns when no pairing keeps all meetings within `maxRepeats`. */
export const repeatLimitError = (request: PairingRequest, players: readonly PairingPlayer[]): RuleError =>
  pairingError(
    'REPEAT_LIMIT',
    `maxRepeats: players ${players.map((p) => p.id).join(', ')} cannot all be paired without two of them meeting more than ${request.maxRepeats + 1} time(s)`,
    { maxRepeats: request.maxRepeats, round: request.round, players: players.map((p) => p.id) },
  );

const isCount = (n: number): boolean => Number.isInteger(n) && n >= 0;

const checkNumbers = (request: PairingRequest): RuleError | null => {
  if (
    !Number.isInteger(request.totalRounds) ||
    request.totalRounds < 1 ||
    !Number.isInteger(request.round) ||
    request.round < 1 ||
    request.round > request.totalRounds
  )
    return pairingError('ROUND_OUT_OF_RANGE', `round: ${request.round} is not between 1 and totalRounds (${request.totalRounds})`, {
      round: request.round,
      totalRounds: request.totalRounds,
    });
  if (!isCount(request.maxRepeats))
    return pairingError('INVALID_REQUEST', `maxRepeats: ${request.maxRepeats} is not a whole number of 0 or more`, { field: 'maxRepeats' });
  if (!(request.gibsonSpreadPerGame >= 0))
    return pairingError('INVALID_REQUEST', `gibsonSpreadPerGame: ${request.gibsonSpreadPerGame} is negative`, {
      field: 'gibsonSpreadPerGame',
    });
  if (!(BYE_CHOICES as readonly string[]).includes(request.byeChoice))
    return pairingError('INVALID_REQUEST', `byeChoice: "${request.byeChoice}" is not one of ${BYE_CHOICES.join(', ')}`, {
      field: 'byeChoice',
    });
  if (request.prizePlaces !== undefined && (!Number.isInteger(request.prizePlaces) || request.prizePlaces < 1))
    return pairingError('INVALID_REQUEST', `prizePlaces: ${request.prizePlaces} is not a whole number of 1 or more`, {
      field: 'prizePlaces',
    });
  return null;
};

const checkPlayers = (request: PairingRequest): RuleError | null => {
  const seen = new Set<number>();
  for (const p of request.players) {
    if (!Number.isInteger(p.id) || p.id < 1)
      return pairingError('INVALID_REQUEST', `players: entrant number ${p.id} is not a whole number of 1 or more`, {
        field: 'players',
        player: p.id,
      });
    if (seen.has(p.id))
      return pairingError('DUPLICATE_PLAYER', `players: player ${p.id} is listed twice`, { field: 'players', player: p.id });
    seen.add(p.id);
  }
  return null;
};

const checkCouple = (
  request: PairingRequest,
  byId: ReadonlyMap<number, PairingPlayer>,
  couple: readonly [number, number],
  taken: Set<number>,
): RuleError | null => {
  const [a, b] = couple;
  if (a === b) return pairingError('SELF_PAIRING', `prePaired: player ${a} is paired with themself`, { field: 'prePaired', player: a });
  for (const id of couple) {
    if (!byId.has(id))
      return pairingError('UNKNOWN_PLAYER', `prePaired: player ${id} is not an active player of the division`, {
        field: 'prePaired',
        player: id,
      });
    if (taken.has(id))
      return pairingError('PLAYER_PAIRED_TWICE', `prePaired: player ${id} is in two couples`, { field: 'prePaired', player: id });
    taken.add(id);
  }
  const pa = byId.get(a);
  const pb = byId.get(b);
  if (pa && pb && !mayMeet(request, pa, pb))
    return pairingError(
      'REPEAT_LIMIT',
      `prePaired: players ${a} and ${b} have met ${meetings(pa, b)} time(s), more than maxRepeats (${request.maxRepeats}) allows`,
      {
        field: 'prePaired',
        players: [a, b],
        maxRepeats: request.maxRepeats,
      },
    );
  return null;
};

/**
 * Checks a request before any method pairs it: round within the division, counts in range, no
 * entrant listed twice, and the pre-paired couples (issue 30, item 2: "a director can pre-pair a
 * couple") made of distinct active players, none in two couples, none beyond `maxRepeats`. The bye
 * is chosen among the others, so a pre-paired player never gets it.
 */
export const validateRequest = (request: PairingRequest): Result<true, RuleError> => {
  const problem = checkNumbers(request) ?? checkPlayers(request);
  if (problem) return err(problem);
  const byId = playersById(request);
  const taken = new Set<number>();
  for (const couple of request.prePaired) {
    const bad = checkCouple(request, byId, couple, taken);
    if (bad) return err(bad);
  }
  return ok(true);
};

/** The pre-paired players' entrant numbers. */
export const prePairedIds = (request: PairingRequest): ReadonlySet<number> => new Set(request.prePaired.flat());

/** The pre-paired couples as games, first and second by the balance of firsts (first-second.ts). */
export const prePairedGames = (request: PairingRequest): PairedGame[] => {
  const byId = playersById(request);
  return request.prePaired.flatMap(([a, b]) => {
    const pa = byId.get(a);
    const pb = byId.get(b);
    return pa && pb ? [balancedGame(request, pa, pb)] : [];
  });
};

/** The players a method pairs itself: the active players less the pre-paired ones, in rank order. */
export const freePlayers = (request: PairingRequest): PairingPlayer[] => {
  const taken = prePairedIds(request);
  return request.players.filter((p) => !taken.has(p.id));
};

/** A player's opponent in the round before this one (0 for a bye), or null (first round, or no game). */
export const previousOpponent = (p: PairingPlayer): number | null => p.opponents.at(-1) ?? null;
