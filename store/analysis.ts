import type { Tx } from './db.js';

/** The game option of analysis (issue 19): whether the live game allows hints. Plain reads and writes. */

export const setAllowHints = async (client: Tx, gameId: string): Promise<void> => {
  await client.game.update({ where: { id: gameId }, data: { allowHints: true } });
};
