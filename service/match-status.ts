import { replay } from '../engine/game/apply.js';
import { isGameEventType, type GameEvent } from '../engine/game/events.js';
import { matchStanding, type MatchStatus } from '../engine/game/match.js';
import type { GameState } from '../engine/game/state.js';
import type { Tx } from '../store/db.js';
import { lockMatch, matchGameLogs, setMatchStatus } from '../store/matches.js';

/**
 * The `matches.status` projection, written by the turn that ends one of the match's games, in that
 * turn's transaction (runGameCommand's `alsoWrite`): so `ended` / `aborted` is stored the moment the
 * last game ends or a game is aborted, not when the match is next read. Kept apart from
 * service/matches.ts, which imports the game service.
 */

/**
 * Locks the match, folds its games as this transaction sees them and stores their status
 * (engine `matchStanding`). Returns the status, or null when there is no such match. Use only `tx`.
 */
export const refreshMatchStatusInTx = async (tx: Tx, matchId: string): Promise<MatchStatus | null> => {
  if (!(await lockMatch(tx, matchId))) return null;
  const states: (GameState | null)[] = (await matchGameLogs(tx, matchId)).map(({ gameId, events }) => {
    const engine = events.filter((e) => isGameEventType(e.type)).map((e) => e.payload as unknown as GameEvent);
    if (engine.length === 0) return null;
    const r = replay(engine);
    if (!r.ok) throw new Error(`stored game log ${gameId} does not replay at event ${r.error.index}: ${r.error.code}`);
    return r.value;
  });
  const rules = states.find((s): s is GameState => s !== null)?.rules;
  if (!rules) return null;
  const standing = matchStanding(rules, states);
  // A match whose games are not between its players (MATCH_PLAYERS_DIFFER) keeps its stored status.
  if (!standing.ok) return null;
  await setMatchStatus(tx, matchId, standing.value.status);
  return standing.value.status;
};
