import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { standings } from './standings.js';
import { exportTshDivision } from './tsh-division.js';
import { loadTshDivision } from './tsh-load.js';
import { formatTsh } from './tsh/format.js';

const DIR = join(import.meta.dirname, '..', '..', 'test', 'fixtures', 'tsh');
const REAL = readdirSync(DIR).filter((f) => f.endsWith('.t'));
const read = (f: string) => readFileSync(join(DIR, f), 'utf8');

describe('a real .t file imported as a division and exported again', () => {
  test.each(REAL)('%s: byte for byte', (file) => {
    const loaded = loadTshDivision(read(file));
    if (!loaded.ok) throw new Error(loaded.error.message);
    expect(formatTsh(exportTshDivision(loaded.value.division))).toBe(read(file));
  });
});

describe('standings of an imported real event equal the ones published for it', () => {
  // cop-2023-a.standings-r12.txt is the standings block printed by the event's own tools after round 12 (SOURCES.tsv).
  const published = read('cop-2023-a.standings-r12.txt')
    .trim()
    .split('\n')
    .map((l) => /^(\d+)\s+(.+?)\s+(\d+\.\d)\s+(-?\d+)$/.exec(l)!)
    .map((m) => ({ rank: Number(m[1]), name: m[2]!, wins: Number(m[3]), spread: Number(m[4]) }));

  test('cop-2023-a.t after round 12: every rank, name, wins and spread', () => {
    const loaded = loadTshDivision(read('cop-2023-a.t'));
    if (!loaded.ok) throw new Error(loaded.error.message);
    const ours = standings(loaded.value.division, 12).map((r) => {
      const [last, first] = r.entrant.name.split(', ');
      return { rank: r.rank, name: `${first} ${last}`, wins: r.wins, spread: r.spread };
    });
    expect(ours).toEqual(published);
  });
});
