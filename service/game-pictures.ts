import { ruleError, type RuleError } from '../engine/errors.js';
import type { Seat } from '../engine/game/events.js';
import { turnViews, type TurnView } from '../engine/game/turn-views.js';
import { err, ok, type Result } from '../engine/result.js';
import { DISTRIBUTIONS, type Distribution } from '../engine/tiles.js';
import { loadGame } from '../store/games.js';
import { seatsOf } from '../store/seats.js';
import type { ServiceDeps } from './context.js';
import { fail } from './game-errors.js';
import { engineEvents, engineOffset } from './game-log.js';
import { seatOf } from './game-reads.js';

/**
 * What a picture of a game may show its caller (issue 20), decided here once for the image routes:
 *
 * - a finished game: anyone, signed in or not, sees it as a spectator does (the board, names, scores,
 *   the score sheet; no rack). The picture is then the same for everybody and never changes, so it
 *   can be cached publicly.
 * - a game in play: only a signed-in player. A seated player sees their own rack as well (their seat's
 *   view); anyone else signed in sees the spectator's view, as the `game` query answers them.
 * - an open game (its second seat still free) has no board yet: GAME_NOT_STARTED.
 *
 * The views come from the engine (`turnViews`), so the other rack and the bag's order never reach a picture.
 */

export interface GamePictures {
  readonly gameId: string;
  /** The game's version now. */
  readonly currentVersion: number;
  readonly ended: boolean;
  /** The seat whose rack the pictures show; null: a spectator's pictures (no rack). */
  readonly seat: Seat | null;
  readonly distribution: Distribution;
  /** The opening position and the position after each score-sheet line, up to the version asked for. */
  readonly turns: readonly TurnView[];
}

/** The game's positions as `viewerId` (null: nobody signed in) may see them, up to `version` (default: now). */
export async function gamePictures(
  deps: ServiceDeps,
  viewerId: string | null,
  gameId: string,
  options: { readonly version?: number } = {},
): Promise<Result<GamePictures, RuleError>> {
  const loaded = await loadGame(deps.db.prisma, gameId);
  if (!loaded.ok) return loaded;
  const { game, events: stored } = loaded.value;
  const ended = game.status === 'ended';
  if (!ended && viewerId === null)
    return err(
      ruleError('UNAUTHENTICATED', 'This game is still being played: sign in (Authorization: Bearer …) to see its board.', { gameId }),
    );
  const events = engineEvents(stored);
  const first = events[0];
  if (first?.type !== 'game-created') return fail('GAME_NOT_STARTED', 'The game waits for its second player: it has no board yet.');
  const seat = ended ? null : seatOf(await seatsOf(deps.db.prisma, game.id), viewerId);
  const version = Math.min(options.version ?? game.version, game.version);
  // Service events before the engine log (game-proposed) count in the version; later ones (rating-changed) come after its lines.
  const skipped = engineOffset(stored, 0);
  const turns = turnViews(events.slice(0, Math.max(0, version - skipped)), seat);
  if (!turns.ok) throw new Error(`stored game ${game.id} does not replay: ${turns.error.message}`);
  if (turns.value.length === 0) return fail('GAME_NOT_STARTED', `The game had no board yet at version ${version}.`, { field: 'version' });
  const distribution = DISTRIBUTIONS[first.rules.board.distribution];
  if (!distribution) throw new Error(`game ${game.id}: unknown distribution ${first.rules.board.distribution}`);
  return ok({
    gameId: game.id,
    currentVersion: game.version,
    ended,
    seat,
    distribution,
    turns: turns.value.map((t) => ({ ...t, version: t.version + skipped })),
  });
}
