import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTsh, tshPlayers, type TshPlayerLine } from './index.js';

/**
 * Wins, losses and spread of a real division, counted by hand from the raw numbers of the file
 * and compared with what the syntax tree says. The standings engine lives elsewhere; this only
 * shows that the tree carries exactly the numbers of the file.
 *
 * File: test/fixtures/tsh/cop-2023-a.t (26 players, 23 rounds; SOURCES.tsv). A game's spread is
 * the player's score less the opponent's score in the same round, read on the opponent's line;
 * a bye or forfeit (opponent 0) counts the player's own score against 0.
 */
const TEXT = readFileSync(join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'tsh', 'cop-2023-a.t'), 'utf8');

/**
 * Worked by hand from the file (opponent's line in brackets, own score - opponent's score):
 *
 * Keras, Lydia (line 16; off -50): r1 367-449 [10] -82, r2 336-416 [6] -80, r3 267-398 [25] -131,
 * r4 407-280 [24] +127, r5 315-381 [12] -66, r6 393-406 [4] -13, r7 388-286 [23] +102,
 * r8 286-381 [14] -95, r9 383-387 [17] -4, r10 322-365 [20] -43, r11 350-496 [11] -146,
 * r12 435-376 [21] +59, r13 378-314 [26] +64, r14 382-326 [19] +56, r15 358-481 [22] -123,
 * r16 343-416 [14] -73, r17 347-459 [24] -112, r18 335-353 [26] -18, r19 356-446 [21] -90,
 * r20-r23 opponent 0 scoring -50 each (forfeits after withdrawing) -200.
 * Wins r4 r7 r12 r13 r14 = 5; losses 14 games + 4 forfeits = 18; spread +408 - 1276 = -868.
 *
 * Buma, Joan (line 21): r1 324-572 -248, r2 316-530 -214, r3 347-477 -130, r4 403-471 -68,
 * r5 457-344 +113, r6 381-418 -37, r7 404-409 -5, r8 344-593 -249, r9 401-404 -3, r10 312-430 -118,
 * r11 359-448 -89, r12 376-435 -59, r13 331-442 -111, r14 414-444 -30, r15 408-325 +83,
 * r16 344-350 -6, r17 403-342 +61, r18 396-358 +38, r19 446-356 +90, r20 405-392 +13,
 * r21 bye 50 +50, r22 421-404 +17, r23 490-458 +32.
 * Wins r5 r15 r17 r18 r19 r20 r21 r22 r23 = 9; losses 14; spread +497 - 1367 = -870.
 *
 * Sykes, Christopher (line 9): 14 wins, 8 losses and the tie of r21 (392-392 against Li, Jason,
 * line 8, who also scored 392 that round); spread +1174 (+1388 from the wins, -292 from the losses).
 */
const BY_HAND = [
  { line: 16, name: 'Keras, Lydia', wins: 5, losses: 18, ties: 0, spread: -868 },
  { line: 21, name: 'Buma, Joan', wins: 9, losses: 14, ties: 0, spread: -870 },
  { line: 9, name: 'Sykes, Christopher', wins: 14, losses: 8, ties: 1, spread: 1174 },
] as const;

/**
 * A tiny independent reading of this one file (every name here is "Last, First", one word each
 * side of the comma): the two name words, the rating, the opponents; then the scores after `;`.
 */
const rawRows = TEXT.trimEnd()
  .split('\n')
  .map((line) => {
    const [head = '', scores = ''] = line.split(';');
    const words = head.trim().split(/\s+/);
    return { name: `${words[0]} ${words[1]}`, opponents: words.slice(3).map(Number), scores: scores.trim().split(/\s+/).map(Number) };
  });

const record = (
  opponents: readonly (number | null)[],
  scores: readonly (number | null)[],
  theirs: (opp: number, r: number) => number,
  rounds: number,
) => {
  let [wins, losses, ties, spread] = [0, 0, 0, 0];
  for (let r = 0; r < rounds; r++) {
    const opp = opponents[r]!;
    const diff = scores[r]! - (opp === 0 ? 0 : theirs(opp, r));
    spread += diff;
    if (diff > 0) wins++;
    else if (diff < 0) losses++;
    else ties++;
  }
  return { wins, losses, ties, spread };
};

const tree = (() => {
  const r = parseTsh(TEXT);
  if (!r.ok) throw new Error(r.error.message);
  return tshPlayers(r.value);
})();
const fromTree = (p: TshPlayerLine, rounds = p.scores.length) => record(p.opponents, p.scores, (o, r) => tree[o - 1]!.scores[r]!, rounds);

describe('cop-2023-a.t counted by hand', () => {
  it.each(BY_HAND)('$name: the independent reading gives the hand count', ({ line, name, ...counts }) => {
    const row = rawRows[line - 1]!;
    expect(row.name).toBe(name);
    expect(record(row.opponents, row.scores, (o, r) => rawRows[o - 1]!.scores[r]!, row.scores.length)).toEqual(counts);
  });

  it.each(BY_HAND)('$name: the parsed tree gives the same numbers', ({ line, name, ...counts }) => {
    const p = tree[line - 1]!;
    expect(p.name).toBe(name);
    expect(fromTree(p)).toEqual(counts);
  });

  it('the independent reading and the tree agree on every player and every round', () => {
    expect(tree.map((p) => ({ name: p.name, opponents: p.opponents, scores: p.scores }))).toEqual(rawRows);
  });

  // The same repository's dallas_open_results.txt (commit fd6598e, SOURCES.tsv), written by its
  // COP pairing program from this division after round 12: wins and spread of every player.
  const PUBLISHED_AFTER_ROUND_12: readonly [string, number, number][] = [
    ['Sykes, Christopher', 10, 952],
    ['Goldstein, Eric', 9, 611],
    ['Fatsis, Chloe', 9, 529],
    ['Sokol, Joshua', 9, 338],
    ['Sinke, Arie', 8, 750],
    ['Smylie, Jackson', 8, 462],
    ['Fagen, Michael', 8, 17],
    ['Cornelis, Lou', 7, 454],
    ['Kalus, Noah', 7, -85],
    ['Li, Jason', 6, 359],
    ['Panitch, Max', 6, 252],
    ['Miransky, Anna', 6, 164],
    ['Palazzo, Mad', 6, 71],
    ['Popadynec, Andre', 6, -44],
    ['Kirsch, Richard', 6, -66],
    ['Fatsis, Stefan', 6, -117],
    ['Kadanka, Marcela', 6, -308],
    ['Bigourdin, Gregg', 5, -43],
    ['Kramer, Agnes', 5, -118],
    ['Hergott, Deen', 5, -191],
    ['Sealy, Trevor', 5, -282],
    ['Ozorio, Steve', 5, -551],
    ['Keras, Lydia', 3, -372],
    ['Farini, Sharmaine', 3, -871],
    ['Sinanan, Lilla', 1, -804],
    ['Buma, Joan', 1, -1107],
  ];

  it('after round 12 the tree gives the standings another program printed from the same file', () => {
    const ours = tree
      .map((p) => {
        const c = fromTree(p, 12);
        return [p.name, c.wins + c.ties / 2, c.spread] as const;
      })
      .sort((a, b) => b[1] - a[1] || b[2] - a[2]);
    expect(ours).toEqual(PUBLISHED_AFTER_ROUND_12);
  });
});
