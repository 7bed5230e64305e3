import { ruleError } from '../errors.js';
import { err, ok, type Result } from '../result.js';
import { apply } from './apply.js';
import { commitment, drawTiles } from './bag.js';
import type { GameEvent } from './events.js';
import { sameTiles } from './multiset.js';
import type { GameState } from './state.js';

/**
 * Re-derives every draw of a seeded game from its revealed seed (the provably fair bag, issue 3):
 * the seed must hash to the commitment in `game-created`, and each `tiles-drawn` must hold exactly
 * the tiles the seed picks from the bag as it stood. Anyone holding the public log can run this.
 * Returns the number of tiles checked.
 */
export function verifyDraws(seed: string, events: readonly GameEvent[]): Result<{ tilesChecked: number }> {
  const first = events[0];
  if (!first || first.type !== 'game-created' || first.bag.kind !== 'seeded') {
    return err(ruleError('NOT_SEEDED', 'Only a seeded game (game-created with a bag commitment) can be verified.'));
  }
  if (commitment(seed) !== first.bag.commitment) {
    return err(
      ruleError('SEED_COMMITMENT_MISMATCH', 'The seed does not hash to the commitment made when the game was created.', {
        commitment: first.bag.commitment,
      }),
    );
  }
  let state: GameState | null = null;
  let checked = 0;
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    if (e.type === 'tiles-drawn' && state) {
      const expected = drawTiles(seed, state.drawCount, state.bag, e.tiles.length).tiles;
      if (!sameTiles(expected, e.tiles) || expected.join() !== e.tiles.join()) {
        return err(
          ruleError('DRAW_MISMATCH', `Event ${i}: the seed draws ${expected.join('')}, but the log says ${e.tiles.join('')}.`, {
            index: i,
            expected,
            actual: e.tiles,
          }),
        );
      }
      checked += e.tiles.length;
    }
    const r = apply(state, e);
    if (!r.ok) return err({ ...r.error, details: { ...r.error.details, index: i } });
    state = r.value;
  }
  return ok({ tilesChecked: checked });
}
