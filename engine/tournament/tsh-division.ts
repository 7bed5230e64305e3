import { ruleError, type RuleError } from '../errors.js';
import { err, ok, type Result } from '../result.js';
import type { Actor, ByeEntry, DivisionSpec, Entrant, TournamentEvent, TshFrame } from './events.js';
import type { PairedGame } from './pairing/types.js';
import { divisionRatings } from './ratings.js';
import { playerOutcomes } from './results.js';
import type { DivisionState } from './state.js';
import { tshField, tshPlayerLineNumbers, type TshDivisionFile, type TshLine, type TshPlayerLine } from './tsh/document.js';

/**
 * A TSH division file as a division of Arbiter's, and back (issue 30, item 7). The `.t` syntax is
 * `tsh/`'s (parse and format, no rules); this module gives it meaning: each player line an entrant, each
 * round's opponents a pairing (0 = a bye or forfeit scored with the player's own number, e.g. 50 or −50),
 * `p12` who went first, `off` a withdrawal, and every other field kept as written. The export writes an
 * imported line back exactly while the division still says what it said; a changed or new line is
 * written in tsh's layout. Imported results are final: a tally slip that TSH had is submitted already.
 */

export const TSH_IMPORT_ERROR_CODES = ['TSH_PAIRING_MISMATCH', 'TSH_SCORE_MISSING', 'TSH_EMPTY'] as const;

const mismatch = (line: number, field: string, message: string, details: Record<string, unknown> = {}): Result<never, RuleError> =>
  err(ruleError('TSH_PAIRING_MISMATCH', `line ${line}: ${field}: ${message}`, { line, field, ...details }));

interface Imported {
  readonly spec: DivisionSpec;
  readonly events: readonly TournamentEvent[];
}

const frameOf = (file: TshDivisionFile): TshFrame => {
  let entrant = 0;
  const lines = file.lines.map((l) =>
    l.kind === 'player' ? { entrant: ++entrant } : { kind: l.kind, text: l.text, ...(l.eol ? { eol: l.eol } : {}) },
  );
  return {
    lines,
    ...(file.lineEnding ? { lineEnding: file.lineEnding } : {}),
    ...(file.finalNewline === false ? { finalNewline: false } : {}),
    ...(file.bom ? { bom: true } : {}),
  };
};

const entrantOf = (line: TshPlayerLine, number: number): Entrant => ({
  number,
  name: line.name.trim(),
  playerId: null,
  rating: line.rating,
  class: tshField(line, 'class')?.join(' ') ?? null,
  tsh: { raw: line.raw ?? '', name: line.name, fields: line.fields, ...(line.eol ? { eol: line.eol } : {}) },
});

/** Who went first in the game of `a` (line `la`) and `b` in round index `r`, from their p12. */
const pairOf = (a: number, b: number, la: TshPlayerLine, r: number): PairedGame => {
  const p12 = tshField(la, 'p12')?.[r];
  if (p12 === '1') return { first: a, second: b, firstReason: 'director', repeats: 0 };
  if (p12 === '2') return { first: b, second: a, firstReason: 'director', repeats: 0 };
  return { first: Math.min(a, b), second: Math.max(a, b), firstReason: 'unknown', repeats: 0 };
};

interface RoundRead {
  readonly games: PairedGame[];
  readonly byes: ByeEntry[];
  readonly results: { game: PairedGame; scores: [number, number] }[];
}

/** Round index `r` of the file, checked for symmetry: A's opponent is B exactly when B's is A. */
const readRound = (players: readonly TshPlayerLine[], lineNo: readonly number[], r: number): Result<RoundRead, RuleError> => {
  const out: RoundRead = { games: [], byes: [], results: [] };
  for (const [i, line] of players.entries()) {
    const a = i + 1;
    const opp = line.opponents[r];
    if (opp === undefined || opp === null) continue;
    const score = line.scores[r] ?? null;
    if (opp === 0) {
      if (score !== null) out.byes.push({ player: a, spread: score });
      continue;
    }
    const other = players[opp - 1]!;
    if (other.opponents[r] !== a)
      return mismatch(
        lineNo[i]!,
        'opponents',
        `round ${r + 1}: player ${a} plays ${opp}, but player ${opp} (line ${lineNo[opp - 1]}) plays ${other.opponents[r] ?? 'nobody'}.`,
        { round: r + 1 },
      );
    if (opp < a) continue;
    const game = pairOf(a, opp, line, r);
    out.games.push(game);
    const mine = score;
    const theirs = other.scores[r] ?? null;
    if (mine !== null && theirs !== null) out.results.push({ game, scores: game.first === a ? [mine, theirs] : [theirs, mine] });
  }
  return ok(out);
};

/**
 * The events that make `file` a division with `spec` (its name, rule set …; the number of rounds is at
 * least the file's): the players, each round's pairing as a director's override, every scored game as a
 * submitted slip, and withdrawals for `off`.
 */
export const importTshDivision = (file: TshDivisionFile, spec: DivisionSpec, by: Actor, at: string): Result<Imported, RuleError> => {
  const players = file.lines.filter((l): l is TshPlayerLine => l.kind === 'player');
  if (players.length === 0) return err(ruleError('TSH_EMPTY', 'The file has no player lines.', { field: 'file' }));
  const lineNo = tshPlayerLineNumbers(file);
  const rounds = Math.max(...players.map((p) => p.opponents.length));
  const plans = Array.from(
    { length: Math.max(rounds, spec.rounds.length) },
    (_x, i) => spec.rounds[i] ?? { method: 'manual' as const, startsAt: null, deadline: null },
  );
  const full: DivisionSpec = { ...spec, rounds: plans, tshFrame: frameOf(file) };
  const d = full.name;
  const events: TournamentEvent[] = [{ type: 'division-added', at, by, spec: full }];
  players.forEach((line, i) => events.push({ type: 'player-added', at, by, division: d, entrant: entrantOf(line, i + 1) }));
  for (let r = 0; r < rounds; r++) {
    const read = readRound(players, lineNo, r);
    if (!read.ok) return read;
    const round = r + 1;
    events.push({
      type: 'pairing-overridden',
      at,
      by,
      division: d,
      round,
      games: read.value.games,
      byes: read.value.byes,
      reason: 'imported from a TSH .t file',
    });
    for (const { game, scores } of read.value.results)
      events.push({
        type: 'result-recorded',
        at,
        by,
        division: d,
        round,
        players: [game.first, game.second],
        scores,
        kind: 'played',
        forfeiter: null,
        forfeitReason: null,
        gameId: null,
        final: true,
      });
    if (read.value.results.length === read.value.games.length)
      events.push({ type: 'round-started', at, by, division: d, round }, { type: 'round-ended', at, by, division: d, round });
  }
  players.forEach((line, i) => {
    if (tshField(line, 'off') !== undefined)
      events.push({
        type: 'player-withdrawn',
        at,
        by,
        division: d,
        player: i + 1,
        fromRound: rounds + 1,
        reason: 'off in the imported .t file',
      });
  });
  return ok({ spec: full, events });
};

/** The p12 list of a player: the imported values for the rounds they cover, then what the division says. */
const p12Of = (entrant: Entrant, positions: readonly string[]): string[] => {
  const kept = entrant.tsh?.fields.findLast((f) => f.name === 'p12')?.values ?? [];
  return positions.map((p, i) => kept[i] ?? p);
};

/**
 * A name tsh reads back as a name: a later word that starts like a number (`Player 1`, `Smith -Jr`) would
 * be read as the rating, so it is joined to the word before it with `_` (`Player_1`). Semicolons end the
 * name field in tsh, so they become commas; a leading `#` would make the line a comment, so it is dropped.
 */
export const tshSafeName = (name: string): string =>
  name
    .replaceAll(';', ',')
    .replace(/^#+\s*/, '')
    .replace(/\s+(?=[-+.\d])/g, '_');

/**
 * TSH's `newr`: the rating after each complete round (engine/tournament/ratings.ts). An imported line's own
 * values stand for the rounds they cover (what tsh computed then), ours follow; a line imported without
 * `newr` (a file never rated) gets none, so such a file is written back as it came. Null: no field.
 */
const newrOf = (division: DivisionState, entrant: Entrant): string[] | null => {
  const imported = entrant.tsh?.fields.findLast((f) => f.name === 'newr')?.values;
  if (division.spec.tshFrame && entrant.tsh && imported === undefined) return null;
  const ours = divisionRatings(division).players.get(entrant.number)?.byRound ?? [];
  if (ours.length === 0 && imported === undefined) return null;
  return ours.map((r, i) => imported?.[i] ?? String(r)).concat((imported ?? []).slice(ours.length));
};

const POSITION_P12: Readonly<Record<string, string>> = { first: '1', second: '2', neither: '0' };

const lineOf = (division: DivisionState, entrant: Entrant, lastRound: number): TshPlayerLine => {
  const outcomes = playerOutcomes(division, entrant.number, lastRound);
  const opponents = outcomes.map((o) => o.opponent ?? 0);
  const scores: (number | null)[] = outcomes.map((o) => (o.kind === 'none' ? 0 : o.score));
  while (scores.length > 0 && scores[scores.length - 1] === null) scores.pop();
  const p12 = p12Of(
    entrant,
    outcomes.map((o) => (o.kind === 'game' && o.first === null ? '3' : POSITION_P12[o.position]!)),
  );
  const kept = entrant.tsh?.fields ?? [];
  const newr = newrOf(division, entrant);
  const fields = kept.map((f) =>
    f.name === 'p12' ? { name: 'p12', values: p12 } : f.name === 'newr' && newr ? { name: 'newr', values: newr } : f,
  );
  if (!kept.some((f) => f.name === 'p12') && p12.length > 0) fields.push({ name: 'p12', values: p12 });
  if (newr && !kept.some((f) => f.name === 'newr')) {
    // Before p12, where tsh's name order puts it.
    const at = fields.findIndex((f) => f.name === 'p12');
    fields.splice(at < 0 ? fields.length : at, 0, { name: 'newr', values: newr });
  }
  if (entrant.class !== null && !kept.some((f) => f.name === 'class')) fields.push({ name: 'class', values: [entrant.class] });
  if (division.withdrawn[entrant.number] !== undefined && !kept.some((f) => f.name === 'off')) fields.push({ name: 'off', values: ['0'] });
  return {
    kind: 'player',
    name: entrant.tsh?.name ?? tshSafeName(entrant.name),
    rating: entrant.rating,
    opponents,
    scores,
    fields,
    ...(entrant.tsh?.raw ? { raw: entrant.tsh.raw } : {}),
    ...(entrant.tsh?.eol ? { eol: entrant.tsh.eol } : {}),
  };
};

/** The division as a TSH file: one line per entrant in entrant order, with the imported file's comments and line ends. */
export const exportTshDivision = (division: DivisionState): TshDivisionFile => {
  const lastRound = division.rounds.reduce((n, r) => (r.status === 'unpaired' ? n : r.number), 0);
  const players = division.entrants.map((e) => lineOf(division, e, lastRound));
  const frame = division.spec.tshFrame;
  const lines: TshLine[] = frame
    ? frame.lines.map((l) => ('entrant' in l ? players[l.entrant - 1]! : { kind: l.kind, text: l.text, ...(l.eol ? { eol: l.eol } : {}) }))
    : players;
  // Entrants added after the import come after the imported lines.
  if (frame) lines.push(...players.slice(frame.lines.filter((l) => 'entrant' in l).length));
  return {
    lines,
    ...(frame?.lineEnding ? { lineEnding: frame.lineEnding } : {}),
    ...(frame?.finalNewline === false ? { finalNewline: false } : {}),
    ...(frame?.bom ? { bom: true } : {}),
  };
};
