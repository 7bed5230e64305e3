/**
 * The KWG field layout (`lexicon/kwg.ts`) and the codec's constants (`tile-codec.ts`) as one object,
 * checked equal to them by generate.test.ts. The generator and the lanes copy them into module-local
 * constants at load: an imported binding is read through a getter call on every access once tsx or
 * vitest has transformed the modules, which tripled the hot loop's time.
 */
export const HOT_CONSTANTS = {
  KWG_ACCEPTS: 0x80_0000,
  KWG_ARC_INDEX_MASK: 0x3f_ffff,
  KWG_IS_END: 0x40_0000,
  KWG_TILE_SHIFT: 24,
  BLANK_BIT: 0x80,
  TILE_SLOTS: 64,
  MOVE_PLAY: 0,
} as const;
