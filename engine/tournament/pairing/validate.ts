import { err, ok, type Result } from '../../result.js';
import { cite, type RuleError } from '../../errors.js';
import { pairingError } from './codes.js';
import { meetings, playersById } from './common.js';
import type { PairingPlayer, PairingRequest, RoundPairing } from './types.js';

const checkGames = (
  request: PairingRequest,
  byId: ReadonlyMap<number, PairingPlayer>,
  pairing: RoundPairing,
  seen: Set<number>,
): RuleError | null => {
  const take = (id: number, what: string): RuleError | null => {
    if (!byId.has(id))
      return pairingError('UNKNOWN_PLAYER', `${what}: player ${id} is not an active player of the division`, { field: what, player: id });
    if (seen.has(id))
      return pairingError('PLAYER_PAIRED_TWICE', `${what}: player ${id} is already paired this round`, { field: what, player: id });
    seen.add(id);
    return null;
  };
  for (const g of pairing.games) {
    if (g.first === g.second)
      return pairingError('SELF_PAIRING', `games: player ${g.first} is paired with themself`, { field: 'games', player: g.first });
    const bad = take(g.first, 'games') ?? take(g.second, 'games');
    if (bad) return bad;
    const a = byId.get(g.first) as PairingPlayer;
    if (meetings(a, g.second) > request.maxRepeats)
      return pairingError(
        'REPEAT_LIMIT',
        `games: players ${g.first} and ${g.second} have met ${meetings(a, g.second)} time(s), more than maxRepeats (${request.maxRepeats}) allows`,
        { field: 'games', players: [g.first, g.second], maxRepeats: request.maxRepeats },
      );
  }
  for (const id of [...(pairing.bye === null ? [] : [pairing.bye]), ...(pairing.extraByes ?? [])]) {
    const bad = take(id, 'bye');
    if (bad) return bad;
  }
  return null;
};

const checkByes = (request: PairingRequest, pairing: RoundPairing): RuleError | null => {
  const byes = (pairing.bye === null ? 0 : 1) + (pairing.extraByes?.length ?? 0);
  const odd = request.players.length % 2 === 1;
  const citation = cite('seed-001', '§4');
  if (odd && byes === 0)
    return pairingError(
      'BYE_MISSING',
      `bye: ${request.players.length} active players, so one of them must have the bye`,
      { players: request.players.length },
      citation,
    );
  if (byes > (odd ? 1 : 0))
    return pairingError(
      'BYE_NOT_NEEDED',
      `bye: ${request.players.length} active players need ${odd ? 'one bye' : 'no bye'}, not ${byes}`,
      { players: request.players.length, byes },
      citation,
    );
  return null;
};

/**
 * Checks a pairing the director gave or changed (the `manual` method, an override; issue 30, item 11):
 * every game between two distinct active players, every active player in exactly one game or on the
 * bye (PLAYER_PAIRED_TWICE, PLAYER_NOT_PAIRED, UNKNOWN_PLAYER), one bye exactly when the number of
 * active players is odd (BYE_MISSING, BYE_NOT_NEEDED; extra byes count as byes, so a fixed schedule's
 * `extraByes` do not pass here), and no pair beyond `maxRepeats` (REPEAT_LIMIT).
 */
export const validatePairing = (request: PairingRequest, pairing: RoundPairing): Result<true, RuleError> => {
  const byId = playersById(request);
  const seen = new Set<number>();
  const bad = checkGames(request, byId, pairing, seen) ?? checkByes(request, pairing);
  if (bad) return err(bad);
  const missing = request.players.find((p) => !seen.has(p.id));
  if (missing)
    return err(
      pairingError('PLAYER_NOT_PAIRED', `games: player ${missing.id} has neither a game nor the bye`, {
        field: 'games',
        player: missing.id,
      }),
    );
  return ok(true);
};
