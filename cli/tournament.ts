/**
 * `arbiter tournament standings FILE.t [--json] [--round N] [--rules PRESET]` and
 * `arbiter tournament pair FILE.t --method METHOD --round N [--seed S] [--repeats K] [--json]`
 * (issue 30, item 9): a TSH division file, offline, through the same engine as the API — the file is
 * imported as a division (engine/tournament/tsh-division.ts), then ranked or paired.
 * Exit codes: 0 done, 1 the engine refused (a pairing that cannot be made), 2 bad usage or a file that
 * does not parse (the line and field are named).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { PAIRING_METHODS, type PairingMethod } from '../engine/tournament/pairing/types.js';
import { applyAll, decideTournament } from '../engine/tournament/decide.js';
import { standings, type StandingRow } from '../engine/tournament/standings.js';
import { TSH_ACTOR, loadTshDivision } from '../engine/tournament/tsh-load.js';
import { PRESETS } from '../engine/rules/presets.js';
import { RULE_SET_IDS, type RuleSetId } from '../engine/rules/ruleset.js';
import type { CliIo } from './io.js';

export const USAGE = `usage: arbiter tournament standings FILE.t [--json] [--round N] [--rules PRESET]
       arbiter tournament pair FILE.t --method METHOD --round N [--seed S] [--repeats K] [--json]
  standings: one row per player (rank, name, wins, losses, spread, firsts, seconds), after round N
  (default: every round in the file), ranked by the rule set's tiebreaks (default NSA_2008: spread).
  pair: pairs round N (the round after the file's last by default is N = rounds + 1) by METHOD
  (${PAIRING_METHODS.filter((m) => m !== 'manual').join(', ')}); --repeats is how often two players may have met (default 1).
  Exit codes: 0 done, 1 the pairing cannot be made, 2 bad usage or a file that does not parse.`;

const half = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(1));
const signed = (x: number) => (x > 0 ? `+${x}` : String(x));

const rowJson = (r: StandingRow) => ({
  rank: r.rank,
  number: r.entrant.number,
  name: r.entrant.name,
  wins: r.wins,
  losses: r.losses,
  spread: r.spread,
  firsts: r.firsts,
  seconds: r.seconds,
});

const table = (rows: readonly StandingRow[]): string => {
  const width = Math.max(4, ...rows.map((r) => r.entrant.name.length));
  const head = `${'rank'.padStart(4)}  ${'name'.padEnd(width)}  ${'wins'.padStart(5)}  ${'losses'.padStart(6)}  ${'spread'.padStart(7)}  firsts  seconds`;
  const body = rows.map(
    (r) =>
      `${String(r.rank).padStart(4)}  ${r.entrant.name.padEnd(width)}  ${half(r.wins).padStart(5)}  ${half(r.losses).padStart(6)}  ${signed(r.spread).padStart(7)}  ${String(r.firsts).padStart(6)}  ${String(r.seconds).padStart(7)}`,
  );
  return [head, ...body].join('\n');
};

const intOption = (value: string | undefined, name: string): number | null | string => {
  if (value === undefined) return null;
  const n = Number(value);
  return Number.isInteger(n) && n >= 0 ? n : `--${name} must be a whole number, not "${value}".`;
};

const OPTIONS = {
  json: { type: 'boolean' },
  round: { type: 'string' },
  rules: { type: 'string' },
  method: { type: 'string' },
  seed: { type: 'string' },
  repeats: { type: 'string' },
} as const;

export async function run(args: string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, options: OPTIONS, allowPositionals: true });
  } catch (e) {
    io.err(`arbiter tournament: ${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  const [verb, file] = parsed.positionals;
  const v = parsed.values;
  if ((verb !== 'standings' && verb !== 'pair') || !file) {
    io.err(USAGE);
    return 2;
  }
  const preset = (v.rules ?? 'NSA_2008') as RuleSetId;
  if (!RULE_SET_IDS.includes(preset)) return usageError(io, `--rules must be one of ${RULE_SET_IDS.join(', ')}, not "${v.rules}".`);
  const round = intOption(v.round, 'round');
  const repeats = intOption(v.repeats, 'repeats');
  if (typeof round === 'string') return usageError(io, round);
  if (typeof repeats === 'string') return usageError(io, repeats);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    return usageError(io, `cannot read ${file}: ${(e as Error).message}`);
  }
  return verb === 'standings'
    ? standingsOf(io, file, text, { preset, round, json: v.json === true })
    : pairOf(io, file, text, { preset, round, repeats, json: v.json === true, method: v.method, seed: v.seed ?? 'arbiter' });
}

const usageError = (io: CliIo, message: string): number => {
  io.err(`arbiter tournament: ${message}`);
  return 2;
};

const standingsOf = (io: CliIo, file: string, text: string, o: { preset: RuleSetId; round: number | null; json: boolean }): number => {
  const loaded = loadTshDivision(text, { rules: PRESETS[o.preset] });
  if (!loaded.ok) return usageError(io, `${file}: ${loaded.error.message}`);
  const rows = standings(loaded.value.division, o.round ?? undefined);
  io.out(o.json ? JSON.stringify(rows.map(rowJson), null, 2) : table(rows));
  return 0;
};

const pairOf = (
  io: CliIo,
  file: string,
  text: string,
  o: { preset: RuleSetId; round: number | null; repeats: number | null; json: boolean; method: string | undefined; seed: string },
): number => {
  if (!o.method || !(PAIRING_METHODS as readonly string[]).includes(o.method) || o.method === 'manual')
    return usageError(io, `--method must be one of ${PAIRING_METHODS.filter((m) => m !== 'manual').join(', ')}.`);
  const method = o.method as PairingMethod;
  const probe = loadTshDivision(text, { rules: PRESETS[o.preset] });
  if (!probe.ok) return usageError(io, `${file}: ${probe.error.message}`);
  const round = o.round ?? probe.value.division.rounds.filter((r) => r.status !== 'unpaired').length + 1;
  const loaded = loadTshDivision(text, { rules: PRESETS[o.preset], rounds: Math.max(round, 1), method, maxRepeats: o.repeats ?? 1 });
  if (!loaded.ok) return usageError(io, `${file}: ${loaded.error.message}`);
  const { state } = loaded.value;
  const command = { type: 'pair-round' as const, division: 'A', round, method, seed: o.seed };
  const events = decideTournament(state, command, { actor: TSH_ACTOR, now: new Date(0).toISOString() });
  if (!events.ok) {
    io.err(`arbiter tournament: ${events.error.code}: ${events.error.message}`);
    return 1;
  }
  const after = applyAll(state, events.value);
  if (!after.ok) throw new Error(after.error.message);
  const division = after.value.divisions[0]!;
  const r = division.rounds[round - 1]!;
  const name = (n: number) => division.entrants[n - 1]!.name;
  if (o.json)
    io.out(
      JSON.stringify(
        {
          round,
          method,
          games: r.games.map((g) => ({ first: g.first, second: g.second, firstReason: g.firstReason, repeats: g.repeats })),
          byes: r.byes,
          gibsonized: r.gibsonized,
        },
        null,
        2,
      ),
    );
  else
    io.out(
      [
        `Round ${round} (${method}):`,
        ...r.games.map(
          (g, i) =>
            `${String(i + 1).padStart(3)}. ${name(g.first)} (${g.first}) first v ${name(g.second)} (${g.second})${g.repeats ? `  [met ${g.repeats}x]` : ''}`,
        ),
        ...r.byes.map((b) => `     bye: ${name(b.player)} (${b.player}) ${signed(b.spread)}`),
      ].join('\n'),
    );
  return 0;
};
