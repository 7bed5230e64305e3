import * as z from 'zod';
import { formatSquare, LAYOUTS, startSquare, type Layout } from '../engine/board.js';
import { hashOf, MAX_BOARD_SIZE } from '../engine/layout.js';
import { builder } from './builder.js';

/**
 * Board layouts (issue 21): the named ones (`layouts`), and a board given as data when a game is created
 * (`CreateGameInput.layout`, checked by engine/layout.ts).
 */

export const LEGEND_TEXT =
  '`.` (or a space) plain, `\'` double letter, `"` triple letter, `^` quadruple letter, `-` double word, `=` triple word, `~` quadruple word, `#` bricked (no tile may be placed there)';

/** A layout's rows with plain squares as `.`, as `Board.premiums` prints them. */
export const layoutRows = (layout: Layout): string[] => layout.rows.map((r) => r.replace(/ /g, '.'));

export const LayoutInput = builder.inputType('LayoutInput', {
  description: `A board given as data: square, 5×5 to 25×25, one string per row in the legend ${LEGEND_TEXT}.`,
  fields: (t) => ({
    rows: t.stringList({
      description: 'The rows, top first, one character per square; every row as long as there are rows.',
      validate: z
        .array(z.string().max(MAX_BOARD_SIZE * 4))
        .min(1)
        .max(MAX_BOARD_SIZE * 2),
    }),
    start: t.string({
      required: false,
      description: 'The square the first play must cover, column letter then row number (`A1`, `H8`); required, and not bricked.',
      validate: z.string().max(8).nullish(),
    }),
  }),
});

export const BoardLayoutType = builder.objectRef<Layout>('BoardLayout').implement({
  description: 'A board layout: its premium and bricked squares and where the first play goes.',
  fields: (t) => ({
    name: t.exposeString('name', {
      description: 'The name a rule set’s `board.layout` uses; a board given as data is named `custom-` + the start of its hash.',
    }),
    description: t.string({
      nullable: true,
      description: 'What the layout is for (named layouts).',
      resolve: (l) => l.description ?? null,
    }),
    size: t.int({ description: 'Squares a side (5 to 25).', resolve: (l) => l.rows.length }),
    rows: t.stringList({ description: `One string per row, top first, in the legend ${LEGEND_TEXT}.`, resolve: layoutRows }),
    start: t.string({ description: 'The square the first play must cover, e.g. `H8`.', resolve: (l) => formatSquare(startSquare(l)) }),
    hash: t.string({ description: '`sha256:` + hex of the rows and the start square: the layout’s identity.', resolve: hashOf }),
  }),
});

builder.queryField('layouts', (t) =>
  t.field({
    type: [BoardLayoutType],
    description: 'The named board layouts: standard 15×15, super 21×21, a 15×15 board without premiums and the test boards.',
    resolve: () => Object.values(LAYOUTS),
  }),
);
