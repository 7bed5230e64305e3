import { blankFace, DISTRIBUTIONS, totalTiles, type Distribution, type TileKind } from '../engine/tiles.js';
import { builder } from './builder.js';
import { enumName } from './enums.js';

/**
 * Tile sets (issue 21): the `tileSets` query lists every set with its tiles, counts, values and
 * source; `TileSetId` names one (createGame's `tileSet`, the rule parameter `board.distribution`).
 * Open to every caller: it is published data.
 */

const languageNames = new Intl.DisplayNames(['en'], { type: 'language' });
const describeSet = (d: Distribution): string =>
  `${languageNames.of(d.language) ?? d.language}: ${totalTiles(d)} tiles, ${d.blanks} blanks (rule parameter board.distribution = ${d.name}).`;

export const TileSetIdEnum = builder.enumType('TileSetId', {
  description: 'A tile set by id; the value of the rule parameter board.distribution in upper case (french → FRENCH).',
  values: Object.fromEntries(Object.values(DISTRIBUTIONS).map((d) => [enumName(d.name), { value: d.name, description: describeSet(d) }])),
});

const TileSetTileType = builder.objectRef<TileKind>('TileSetTile').implement({
  description: 'One kind of tile of a set: its face, how many the bag holds and what it scores.',
  fields: (t) => ({
    letter: t.exposeString('letter', {
      description: 'The face in capitals, Unicode NFC (`A`, `Ñ`, `Ł`); a digraph tile is one tile (`CH`, `L·L`), written [CH] in notation.',
    }),
    blankLetter: t.string({
      description:
        'How a blank standing for this tile is written: the face in lower case (`ł`, `ch`, `l·l`; notation brackets digraphs: [ch]).',
      resolve: (k) => blankFace(k.letter),
    }),
    count: t.exposeInt('count', { description: 'How many of this tile the bag holds.' }),
    value: t.int({ description: 'Points the tile scores.', resolve: (k) => k.score }),
    vowel: t.exposeBoolean('vowel', {
      description: 'Counts as a vowel (for the rack conditions of the free-trade rule and leave values).',
    }),
  }),
});

const TileSetType = builder.objectRef<Distribution>('TileSet').implement({
  description: 'A tile set (letter distribution) as its national association publishes it, with the source the numbers come from.',
  fields: (t) => ({
    id: t.field({ type: TileSetIdEnum, description: 'The set’s id (createGame tileSet).', resolve: (d) => d.name }),
    language: t.exposeString('language', { description: 'BCP 47 language code of the set: en, fr, de, es, ca, pl, nb, nl, sl, it.' }),
    tiles: t.field({
      type: [TileSetTileType],
      description: 'Every letter tile, in the set’s order; blanks are counted in blanks.',
      resolve: (d) => [...d.letters],
    }),
    blanks: t.exposeInt('blanks', { description: 'How many blank tiles the bag holds.' }),
    total: t.int({ description: 'Every tile of the bag, blanks included (100 for English, 102 for French …).', resolve: totalTiles }),
    source: t.exposeString('source', {
      description: 'The association’s published set and the public copies the numbers were checked against.',
    }),
  }),
});

builder.queryFields((t) => ({
  tileSets: t.field({
    type: [TileSetType],
    description: 'Every tile set Arbiter has: tiles, counts, values, blanks, total and source (docs/languages.md).',
    resolve: () => Object.values(DISTRIBUTIONS),
  }),
}));
