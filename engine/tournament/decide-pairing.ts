import { ok } from '../result.js';
import { divisionNamed, entrantExists, fail, roundOf, type Decided, type DecideContext, type TournamentCommandOf } from './commands.js';
import { pairRound, validatePairing } from './pairing/index.js';
import type { PairedGame, PairingMethod, PairingRequest } from './pairing/types.js';
import { pairingRequest } from './pairing-request.js';
import { playsInRound, type DivisionState, type RoundState, type TournamentState } from './state.js';

/**
 * Pairing a round, the director's overrides, and the round's start and end (issue 30, item 2). A round
 * is paired (or re-paired) until it starts; every pairing and override is an event with its author.
 * Methods that rank by results need the round before finished; a round robin or Initial Fontes is fixed
 * by the seeds and may be paired ahead.
 */

/** Methods whose pairings do not depend on the results of the round before. */
export const PAIR_AHEAD_METHODS: readonly PairingMethod[] = [
  'round-robin',
  'double-round-robin',
  'match-round-robin',
  'initial-fontes',
  'manual',
];

const openRound = (division: DivisionState, round: number): ReturnType<typeof roundOf> => {
  const r = roundOf(division, round);
  if (!r.ok) return r;
  if (r.value.status === 'started' || r.value.status === 'ended')
    return fail('ROUND_ALREADY_STARTED', `Round ${round} of division ${division.spec.name} has started; its pairings stand.`, {
      field: 'round',
      round,
    });
  return r;
};

const unfinished = (r: RoundState): PairedGame[] => r.games.filter((g) => !r.slips[g.first]);

/** Round `round` may be paired: every earlier round paired, and (for methods that rank by results) the one before finished. */
const mayPair = (division: DivisionState, round: number, method: PairingMethod): Decided | null => {
  const unpaired = division.rounds.slice(0, round - 1).find((r) => r.status === 'unpaired');
  if (unpaired)
    return fail('PREVIOUS_ROUND_NOT_PAIRED', `Round ${unpaired.number} is not paired yet; pair rounds in order.`, {
      field: 'round',
      round: unpaired.number,
    });
  const before = division.rounds[round - 2];
  if (before && !PAIR_AHEAD_METHODS.includes(method)) {
    const open = unfinished(before);
    if (open.length > 0)
      return fail(
        'PREVIOUS_ROUND_NOT_FINISHED',
        `${method} pairs by results, and round ${before.number} still has ${open.length} game(s) without a result (${open.map((g) => `${g.first} v ${g.second}`).join(', ')}).`,
        { field: 'round', round: before.number, games: open.map((g) => [g.first, g.second]) },
      );
  }
  return null;
};

export const decidePairRound = (state: TournamentState, c: TournamentCommandOf<'pair-round'>, ctx: DecideContext): Decided => {
  const d = divisionNamed(state, c.division);
  if (!d.ok) return d;
  const r = openRound(d.value, c.round);
  if (!r.ok) return r;
  const method = c.method ?? d.value.spec.rounds[c.round - 1]!.method;
  if (method === 'manual')
    return fail('BAD_INPUT', `Round ${c.round} is paired by hand: give its games with overridePairing.`, { field: 'method' });
  const refused = mayPair(d.value, c.round, method);
  if (refused) return refused;
  const request = pairingRequest(d.value, c.round, c.seed);
  if (request.players.length < 2)
    return fail('NOT_ENOUGH_PLAYERS', `Round ${c.round} has ${request.players.length} player(s) to pair; a round needs two.`, {
      field: 'round',
    });
  const paired = pairRound(method, request);
  if (!paired.ok) return paired;
  const byeSpread = d.value.spec.rules.tournament.byeSpread;
  return ok([
    {
      type: 'round-paired',
      at: ctx.now,
      by: ctx.actor,
      division: c.division,
      round: c.round,
      method,
      games: paired.value.games,
      // A fixed schedule (round robin) gives a bye to every player whose scheduled opponent is not playing.
      byes: [...(paired.value.bye === null ? [] : [paired.value.bye]), ...(paired.value.extraByes ?? [])].map((player) => ({
        player,
        spread: byeSpread,
      })),
      gibsonized: paired.value.gibsonized,
      seed: c.seed,
      byeChoice: request.byeChoice,
    },
  ]);
};

const timesMet = (request: PairingRequest, a: number, b: number): number =>
  request.players.find((p) => p.id === a)?.opponents.filter((o) => o === b).length ?? 0;

export const decideOverride = (state: TournamentState, c: TournamentCommandOf<'override-pairing'>, ctx: DecideContext): Decided => {
  const d = divisionNamed(state, c.division);
  if (!d.ok) return d;
  const r = openRound(d.value, c.round);
  if (!r.ok) return r;
  const refused = mayPair(d.value, c.round, 'manual');
  if (refused) return refused;
  if (c.reason.trim() === '') return fail('BAD_INPUT', 'An override says why (reason).', { field: 'reason' });
  const request = pairingRequest(d.value, c.round, r.value.seed ?? 'override');
  const games: PairedGame[] = c.games.map(([first, second]) => ({
    first,
    second,
    firstReason: 'director',
    repeats: timesMet(request, first, second),
  }));
  const checked = validatePairing(request, { games, bye: c.bye, gibsonized: [] });
  if (!checked.ok) return checked;
  const byes = c.bye === null ? [] : [{ player: c.bye, spread: d.value.spec.rules.tournament.byeSpread }];
  return ok([
    { type: 'pairing-overridden', at: ctx.now, by: ctx.actor, division: c.division, round: c.round, games, byes, reason: c.reason.trim() },
  ]);
};

export const decidePrePair = (state: TournamentState, c: TournamentCommandOf<'pre-pair'>, ctx: DecideContext): Decided => {
  const d = divisionNamed(state, c.division);
  if (!d.ok) return d;
  const r = roundOf(d.value, c.round);
  if (!r.ok) return r;
  if (r.value.status !== 'unpaired')
    return fail(
      'ROUND_ALREADY_STARTED',
      `Round ${c.round} is paired already: change it with overridePairing, or pre-pair before pairing.`,
      { field: 'round' },
    );
  const [a, b] = c.players;
  for (const [p, field] of [
    [a, 'players[0]'],
    [b, 'players[1]'],
  ] as const) {
    const e = entrantExists(d.value, p, field);
    if (!e.ok) return e;
    if (!playsInRound(d.value, p, c.round))
      return fail('PLAYER_WITHDRAWN', `Player ${p} has withdrawn and plays no round ${c.round}.`, { field });
    if (r.value.prePaired.some((x) => x.includes(p)))
      return fail('ALREADY_PREPAIRED', `Player ${p} is pre-paired in round ${c.round} already.`, { field });
  }
  if (a === b) return fail('BAD_INPUT', 'A player cannot be paired with themself.', { field: 'players' });
  return ok([{ type: 'couple-prepaired', at: ctx.now, by: ctx.actor, division: c.division, round: c.round, players: [a, b] }]);
};

export const decideStartRound = (state: TournamentState, c: TournamentCommandOf<'start-round'>, ctx: DecideContext): Decided => {
  const d = divisionNamed(state, c.division);
  if (!d.ok) return d;
  const r = roundOf(d.value, c.round);
  if (!r.ok) return r;
  if (r.value.status === 'unpaired') return fail('ROUND_NOT_PAIRED', `Round ${c.round} is not paired yet.`, { field: 'round' });
  if (r.value.status !== 'paired') return fail('ROUND_ALREADY_STARTED', `Round ${c.round} has started already.`, { field: 'round' });
  return ok([{ type: 'round-started', at: ctx.now, by: ctx.actor, division: c.division, round: c.round }]);
};

export const decideEndRound = (state: TournamentState, c: TournamentCommandOf<'end-round'>, ctx: DecideContext): Decided => {
  const d = divisionNamed(state, c.division);
  if (!d.ok) return d;
  const r = roundOf(d.value, c.round);
  if (!r.ok) return r;
  if (r.value.status === 'ended') return fail('ROUND_ENDED', `Round ${c.round} has ended already.`, { field: 'round' });
  if (r.value.status === 'unpaired') return fail('ROUND_NOT_PAIRED', `Round ${c.round} is not paired yet.`, { field: 'round' });
  const open = unfinished(r.value);
  if (open.length > 0)
    return fail('ROUND_HAS_OPEN_GAMES', `Round ${c.round} has ${open.length} game(s) without a result.`, {
      field: 'round',
      games: open.map((g) => [g.first, g.second]),
    });
  const events =
    r.value.status === 'paired'
      ? [{ type: 'round-started' as const, at: ctx.now, by: ctx.actor, division: c.division, round: c.round }]
      : [];
  return ok([...events, { type: 'round-ended', at: ctx.now, by: ctx.actor, division: c.division, round: c.round }]);
};
