import type { RuleError } from '../engine/errors.js';
import { err, ok, type Result } from '../engine/result.js';
import type { TournamentCommand } from '../engine/tournament/commands.js';
import type { Actor } from '../engine/tournament/events.js';
import type { TournamentState } from '../engine/tournament/state.js';
import type { Tx } from '../store/db.js';
import { isUuid } from '../store/ids.js';
import { directsOrganization } from '../store/organizations.js';
import { findPlayerById } from '../store/players.js';
import { isDirectorRole, roleOf } from '../store/roles.js';
import { ruleError } from '../engine/errors.js';
import { tournamentNotFound } from './tournament-errors.js';
import type { TournamentViewerRole } from './tournament-types.js';

/**
 * Who may see and do what in a tournament (issue 30, item 10). A tournament's directors are its event's
 * directors (organization_directors) and every global director or admin (store/roles.ts); its players are
 * the division entrants with an account. A public tournament is seen by everyone; a private one only by
 * its directors and players (anyone else gets TOURNAMENT_NOT_FOUND, as for an unknown id). Writing: a
 * director acts as `director`; a player as `player` with their entrant number in the command's division
 * (the engine then lets them record, correct and sign only their own games' slips); nobody else writes.
 */

/** Whether the player directs the organization's tournaments: a director of it, or a global director or admin. */
export const directs = async (client: Tx, playerId: string | null, organizationId: string): Promise<boolean> =>
  playerId !== null && (isDirectorRole(await roleOf(client, playerId)) || (await directsOrganization(client, organizationId, playerId)));

/** The caller's entrant number in each division they play in. */
export const entrantsOf = (state: TournamentState, playerId: string | null): { division: string; number: number }[] =>
  playerId === null
    ? []
    : state.divisions.flatMap((d) =>
        d.entrants.filter((e) => e.playerId === playerId).map((e) => ({ division: d.spec.name, number: e.number })),
      );

/** How the caller stands to the tournament. */
export const viewerRoleOf = async (
  client: Tx,
  playerId: string | null,
  organizationId: string,
  state: TournamentState,
): Promise<TournamentViewerRole> => {
  if (await directs(client, playerId, organizationId)) return 'director';
  return entrantsOf(state, playerId).length > 0 ? 'player' : 'public';
};

/** The caller's role, or TOURNAMENT_NOT_FOUND when the tournament is private and the caller neither directs nor plays in it. */
export const visibleRole = async (
  client: Tx,
  playerId: string | null,
  row: { readonly id: string; readonly organizationId: string; readonly public: boolean },
  state: TournamentState,
): Promise<Result<TournamentViewerRole, RuleError>> => {
  const role = await viewerRoleOf(client, playerId, row.organizationId, state);
  return role === 'public' && !row.public ? tournamentNotFound(row.id) : ok(role);
};

/** The engine's actor for Arbiter itself (a game's end, a league's next round). */
export const SYSTEM_ACTOR: Actor = { role: 'system', playerId: null, name: 'arbiter' };

/** Slip commands a game's scorekeeper may give (the engine's COMMAND_ROLES says which of them). */
const SLIP_COMMANDS: readonly TournamentCommand['type'][] = ['record-result', 'correct-slip', 'sign-slip', 'submit-slip'];

/**
 * Whether the caller keeps the score of the game a slip command is about: the recorded over-the-board game
 * (docs/recorded.md) the result names, or the one its slip already holds, has the caller as its scorekeeper.
 */
const keepsScoreOf = async (client: Tx, playerId: string, state: TournamentState, command: TournamentCommand): Promise<boolean> => {
  if (!SLIP_COMMANDS.includes(command.type) || !('players' in command) || !('round' in command)) return false;
  const round = state.divisions.find((d) => d.spec.name === command.division)?.rounds[command.round - 1];
  const game = round?.games.find((g) => g.first === command.players[0] || g.second === command.players[0]);
  const gameId = command.type === 'record-result' ? command.gameId : game ? (round?.slips[game.first]?.gameId ?? null) : null;
  if (gameId === null || !isUuid(gameId)) return false;
  const kept = await client.game.findUnique({ where: { id: gameId }, select: { scorekeeperId: true } });
  return kept?.scorekeeperId === playerId;
};

const divisionOfCommand = (command: TournamentCommand): string | null => ('division' in command ? command.division : null);

/**
 * The actor a caller acts as for `command`: `director`, or `player` with their entrant number in the
 * command's division. NOT_ALLOWED for a caller who is neither (TOURNAMENT_NOT_FOUND when the tournament is
 * private), or who plays in the tournament but not in the command's division.
 */
export const actorFor = async (
  client: Tx,
  playerId: string,
  row: { readonly id: string; readonly organizationId: string; readonly public: boolean },
  state: TournamentState,
  command: TournamentCommand,
): Promise<Result<Actor, RuleError>> => {
  const handle = (await findPlayerById(client, playerId))?.handle ?? playerId;
  if (await directs(client, playerId, row.organizationId)) return ok({ role: 'director', playerId, name: handle });
  if (await keepsScoreOf(client, playerId, state, command)) return ok({ role: 'scorekeeper', playerId, name: handle });
  const mine = entrantsOf(state, playerId);
  if (mine.length === 0 && !row.public) return tournamentNotFound(row.id);
  const division = divisionOfCommand(command);
  const entrant = mine.find((e) => e.division === division);
  if (!entrant)
    return err(
      ruleError(
        'NOT_ALLOWED',
        mine.length === 0
          ? 'Only the event’s directors and the division’s players act in a tournament.'
          : `You play in ${mine.map((e) => `division ${e.division}`).join(', ')}, not in ${division === null ? 'this' : `division ${division}`}.`,
        { command: command.type, role: 'public', ...(division === null ? {} : { field: 'division' }) },
      ),
    );
  return ok({ role: 'player', playerId, name: handle, entrant: entrant.number });
};
