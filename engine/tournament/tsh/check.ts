import type { RuleError } from '../../errors.js';
import { TSH_UNDEFINED, tshField, tshPlayerLineNumbers, tshPlayers, type TshDivisionFile, type TshPlayerLine } from './document.js';

/**
 * What `checkTsh` finds: a file that parses but whose lines disagree with each other, or a line
 * built in code that tsh could not read back. tsh itself reads such files (it warns on some);
 * the importer decides what to refuse.
 */
export const TSH_PROBLEM_CODES = [
  /** A plays B in round r, but B's round r is another opponent, a bye or nothing. */
  'ASYMMETRIC_PAIRING',
  /** A player paired with themself. */
  'SELF_PAIRING',
  /** An opponent number that is not an entrant of the file (a document built in code). */
  'OPPONENT_OUT_OF_RANGE',
  /** A game with one player's score recorded and the other's not. */
  'HALF_SCORED',
  /** More scores than paired rounds: a score with no opponent. */
  'MORE_SCORES_THAN_OPPONENTS',
  /** Both players went first (or both second), or one must draw and the other need not. */
  'P12_CONFLICT',
  /** The two players of a game at different boards. */
  'BOARD_MISMATCH',
  /** A field given twice on one line (tsh keeps the last and warns). */
  'DUPLICATE_FIELD',
  /** A name, number or field that tsh would not read back as written (a line built in code). */
  'NOT_WRITABLE',
] as const;
export type TshProblemCode = (typeof TSH_PROBLEM_CODES)[number];

export interface TshProblem extends RuleError {
  readonly code: TshProblemCode;
  readonly line: number;
  readonly field: string;
  readonly details: Readonly<{ line: number; field: string } & Record<string, unknown>>;
}

const problem = (code: TshProblemCode, line: number, field: string, what: string, extra: Record<string, unknown> = {}): TshProblem => ({
  code,
  line,
  field,
  message: `line ${line}: ${field}: ${what}`,
  details: { line, field, ...extra },
});

interface Ctx {
  readonly players: readonly TshPlayerLine[];
  readonly lineOf: readonly number[];
  readonly out: TshProblem[];
}

/**
 * The consistency of a parsed (or built) division: pairings symmetric round by round, both
 * scores of a game present or both absent, firsts/seconds and boards agreeing between the two
 * players, no score without a pairing, no repeated field, everything writable. Each game is
 * checked once, on the line of its lower-numbered player; problems come in line order.
 */
export function checkTsh(file: TshDivisionFile): TshProblem[] {
  const ctx: Ctx = { players: tshPlayers(file), lineOf: tshPlayerLineNumbers(file), out: [] };
  ctx.players.forEach((p, i) => {
    const line = ctx.lineOf[i]!;
    lineProblems(p, line, ctx.out);
    p.opponents.forEach((_, r) => pairProblems(ctx, i, r));
  });
  return ctx.out.sort((a, b) => a.line - b.line);
}

const label = (ctx: Ctx, entrant: number): string => `entrant ${entrant} (${ctx.players[entrant - 1]?.name ?? '?'})`;

const pairProblems = (ctx: Ctx, index: number, r: number): void => {
  const p = ctx.players[index]!;
  const me = index + 1;
  const line = ctx.lineOf[index]!;
  const o = p.opponents[r];
  if (o === null || o === undefined || o === 0) return;
  const round = r + 1;
  if (o === me) {
    ctx.out.push(problem('SELF_PAIRING', line, 'opponents', `round ${round} pairs the player with themself`, { round }));
    return;
  }
  const q = ctx.players[o - 1];
  if (!Number.isInteger(o) || o < 0 || !q) {
    const what = `round ${round} names entrant ${o}, but the file has ${ctx.players.length} players`;
    ctx.out.push(problem('OPPONENT_OUT_OF_RANGE', line, 'opponents', what, { round, opponent: o }));
    return;
  }
  const back = q.opponents[r];
  if (back !== me) {
    const theirs = back === undefined || back === null ? 'has no pairing' : back === 0 ? 'is a bye' : `pairs them with ${label(ctx, back)}`;
    const what = `round ${round} pairs ${label(ctx, me)} with ${label(ctx, o)}, whose line ${ctx.lineOf[o - 1]} ${theirs}`;
    ctx.out.push(
      problem('ASYMMETRIC_PAIRING', line, 'opponents', what, { round, opponent: o, opponentLine: ctx.lineOf[o - 1], theirs: back ?? null }),
    );
    return;
  }
  if (o < me) return; // the game was checked from the opponent's line
  gameProblems(ctx, index, o - 1, r);
};

/** Scores, firsts/seconds and boards of one game, both players' lines agreeing. */
const gameProblems = (ctx: Ctx, a: number, b: number, r: number): void => {
  const [p, q] = [ctx.players[a]!, ctx.players[b]!];
  const line = ctx.lineOf[a]!;
  const round = r + 1;
  const extra = { round, opponent: b + 1, opponentLine: ctx.lineOf[b] };
  const has = (s: number | null | undefined): boolean => s !== null && s !== undefined;
  if (has(p.scores[r]) !== has(q.scores[r])) {
    const who = has(p.scores[r]) ? label(ctx, b + 1) : label(ctx, a + 1);
    ctx.out.push(problem('HALF_SCORED', line, 'scores', `round ${round} has a score for one player only: ${who} has none`, extra));
  }
  const [x, y] = [valueAt(p, 'p12', r), valueAt(q, 'p12', r)];
  const firstSecond = (v: string | undefined): boolean => v === '1' || v === '2';
  if ((firstSecond(x) && x === y) || (x === '3' && firstSecond(y)) || (y === '3' && firstSecond(x))) {
    ctx.out.push(
      problem('P12_CONFLICT', line, 'p12', `round ${round}: p12 ${x} here, ${y} for ${label(ctx, b + 1)}`, { ...extra, values: [x, y] }),
    );
  }
  const [s, t] = [valueAt(p, 'board', r), valueAt(q, 'board', r)];
  if (s !== undefined && t !== undefined && s !== '0' && t !== '0' && Number(s) !== Number(t)) {
    ctx.out.push(
      problem('BOARD_MISMATCH', line, 'board', `round ${round}: board ${s} here, ${t} for ${label(ctx, b + 1)}`, {
        ...extra,
        values: [s, t],
      }),
    );
  }
};

/** A per-round field's value, or undefined when absent or `00`. */
const valueAt = (p: TshPlayerLine, field: string, r: number): string | undefined => {
  const v = tshField(p, field)?.[r];
  return v === TSH_UNDEFINED ? undefined : v;
};

const lineProblems = (p: TshPlayerLine, line: number, out: TshProblem[]): void => {
  if (p.scores.length > p.opponents.length) {
    const what = `${p.scores.length} scores but only ${p.opponents.length} paired rounds`;
    out.push(problem('MORE_SCORES_THAN_OPPONENTS', line, 'scores', what, { scores: p.scores.length, opponents: p.opponents.length }));
  }
  const seen = new Set<string>();
  for (const f of p.fields) {
    if (seen.has(f.name)) out.push(problem('DUPLICATE_FIELD', line, f.name, 'given twice on the line (tsh keeps the last)'));
    seen.add(f.name);
  }
  const unwritable = notWritable(p);
  if (unwritable) out.push(problem('NOT_WRITABLE', line, unwritable.field, unwritable.what));
};

const NUMBER_LIKE = /^[-+.\d]/;

/** Why tsh (and parseTsh) would not read this line back as written, if so. */
const notWritable = (p: TshPlayerLine): { field: string; what: string } | undefined => {
  const words = p.name.split(/\s+/);
  if (p.name === '' || p.name !== p.name.trim() || /[;\r\n]/.test(p.name) || p.name.startsWith('#')) {
    return { field: 'name', what: `"${p.name}" is empty, padded, starts with # or holds a ; or a line end` };
  }
  if (words.slice(1).some((w) => NUMBER_LIKE.test(w)) || /^\d+$/.test(p.name)) {
    return { field: 'name', what: `"${p.name}" has a word after the first that starts like a number, or is a number` };
  }
  if (!Number.isFinite(p.rating) || p.rating < 0 || !/^\d+(?:\.\d+)?$/.test(String(p.rating))) {
    return { field: 'rating', what: `${p.rating} is not a rating tsh reads (digits, with an optional decimal part)` };
  }
  if (p.opponents.some((o) => o !== null && (!Number.isSafeInteger(o) || o < 0)))
    return { field: 'opponents', what: 'an opponent is not a whole number ≥ 0' };
  if (p.scores.some((s) => s !== null && !Number.isSafeInteger(s))) return { field: 'scores', what: 'a score is not a whole number' };
  for (const f of p.fields) {
    if (!/^[^\s;\\]+$/.test(f.name)) return { field: f.name, what: 'a field name must be one word without ; or \\' };
    if (f.values.some((v) => !/^\S+$/.test(v))) return { field: f.name, what: 'a value is empty or holds a blank' };
  }
  return undefined;
};
