import type { TournamentEvent } from '../engine/tournament/events.js';
import { standings } from '../engine/tournament/standings.js';
import { divisionOf, gameBetween, type TournamentState } from '../engine/tournament/state.js';
import type { TournamentOutboxItem } from '../store/tournaments.js';
import type { TournamentWebhookPayload } from './webhook-events.js';

/**
 * The webhooks a tournament command announces (issue 30, item 9; contract: service/webhook-events.ts
 * TournamentWebhookPayload), written in the command's transaction with its events:
 *
 * - `round-paired`: a round paired or its pairing overridden (its games and byes);
 * - `result-recorded`: a game's result entered (its players and scores, a forfeit's forfeiter);
 * - `slip-submitted`: a slip submitted, or a result entered final (a league game's end, a late forfeit);
 * - `standings-changed`: once per division whose standings (rank, wins, losses, spread, withdrawal of any
 *   player) differ after the command from before it, pointing at the command's last event.
 *
 * `version` is the tournament's version after the whole command, as a game's webhooks carry the game's.
 */

const item = (payload: TournamentWebhookPayload, eventIndex: number): TournamentOutboxItem => ({ kind: payload.kind, payload, eventIndex });

/** The announcements of one event (not standings-changed, which compares the whole command's before and after). */
const eventItems = (
  base: { tournamentId: string; version: number },
  after: TournamentState,
  e: TournamentEvent,
  i: number,
): TournamentOutboxItem[] => {
  switch (e.type) {
    case 'round-paired':
    case 'pairing-overridden':
      return [
        item(
          {
            kind: 'round-paired',
            ...base,
            division: e.division,
            round: e.round,
            overridden: e.type === 'pairing-overridden',
            games: e.games.map((g) => [g.first, g.second]),
            byes: e.byes.map((b) => b.player),
          },
          i,
        ),
      ];
    case 'result-recorded': {
      const result = {
        ...base,
        division: e.division,
        round: e.round,
        entrants: [...e.players],
        players: [...e.players],
        scores: [...e.scores],
        resultKind: e.kind,
        forfeiter: e.forfeiter,
        gameId: e.gameId,
      };
      return [item({ kind: 'result-recorded', ...result }, i), ...(e.final ? [item({ kind: 'slip-submitted', ...result }, i)] : [])];
    }
    case 'slip-submitted': {
      const round = divisionOf(after, e.division)?.rounds[e.round - 1];
      const game = round ? gameBetween(round, e.players[0], e.players[1]) : undefined;
      const slip = game ? round?.slips[game.first] : undefined;
      const players = slip ? [...slip.players] : [...e.players];
      return [
        item(
          {
            kind: 'slip-submitted',
            ...base,
            division: e.division,
            round: e.round,
            entrants: players,
            players,
            scores: slip ? [...slip.scores] : null,
          },
          i,
        ),
      ];
    }
    default:
      return [];
  }
};

/** What of a division's standings a reader sees change. */
const digest = (state: TournamentState, division: string): string => {
  const d = divisionOf(state, division);
  return d
    ? standings(d)
        .map((r) => `${r.entrant.number}:${r.rank}:${r.wins}:${r.losses}:${r.spread}:${r.withdrawn ? 1 : 0}`)
        .join('|')
    : '';
};

/** The outbox rows of a command that took the tournament from `before` to `after` with `events` (version after: `version`). */
export const tournamentOutbox = (
  tournamentId: string,
  version: number,
  before: TournamentState,
  after: TournamentState,
  events: readonly TournamentEvent[],
): TournamentOutboxItem[] => {
  const base = { tournamentId, version };
  const out = events.flatMap((e, i) => eventItems(base, after, e, i));
  const touched = [...new Set(events.flatMap((e) => ('division' in e ? [e.division] : [])))];
  for (const division of touched)
    if (digest(before, division) !== digest(after, division))
      out.push(item({ kind: 'standings-changed', ...base, division }, events.length - 1));
  return out;
};
