/**
 * The game the live-stream suites watch (streams.test.ts, subscription.test.ts): two players take turns —
 * an exchange of two tiles at the second turn, otherwise the first valid play found (a pass when there is
 * none) — and then the game's creator resigns. Also the score sheet as the game view shows it, which both
 * compare their stream's sheet with.
 */
import type { Lexicon } from '../../engine/lexicon/lexicon.js';
import { splitTiles } from '../../engine/tiles.js';
import { LEXICONS, type TestApi } from '../api/harness.js';
import { act, findPlay, readGame, type GameView, type Move, type Player } from '../e2e/client.js';

export const LEX = (LEXICONS.get('SOWPODS') as { ok: true; value: Lexicon }).value;

/** Plays `turns` turns of `game` (created by `creator` against `opponent`), then `creator` resigns; the game as `creator` sees it then. */
export const playThenResign = async (api: TestApi, game: GameView, creator: Player, opponent: Player, turns: number): Promise<GameView> => {
  const seats = new Map([[game.mySeat!, creator] as const, [1 - game.mySeat!, opponent] as const]);
  for (let turn = 0; turn < turns; turn++) {
    const mover = seats.get((await readGame(api, creator, game.id)).whoseTurn!)!;
    const view = await readGame(api, mover, game.id);
    if (turn === 1) {
      await act(api, mover, game.id, { exchange: { tiles: splitTiles(view.myRack!)!.slice(0, 2).join('') } });
      continue;
    }
    const found = findPlay(view, LEX, true);
    await act(api, mover, game.id, found ? { play: { move: found.move } } : { pass: true });
  }
  await act(api, creator, game.id, { resign: true });
  return readGame(api, creator, game.id);
};

/** A game view's score sheet in the fields a stream's sheet has. */
export const sheetOfView = (history: readonly Move[]) =>
  history.map((m) => ({ seat: m.seat, notation: m.notation, score: m.score, cumulative: m.cumulative, tiles: m.tiles, count: m.count }));
