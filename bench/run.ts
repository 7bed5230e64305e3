/**
 * `npm run bench`: runs every bench module and rewrites bench/RESULTS.md with the machine, the
 * date and each figure with its target. Modules run one after another so they do not compete
 * for the two cores. `npm run bench -- --print <module…>` prints the sections instead of rewriting
 * the file, to re-measure one section and paste it in.
 */
import { writeFileSync } from 'node:fs';
import { cpus, totalmem, platform, arch } from 'node:os';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import type { BenchModule, BenchSection } from './types.js';

const MODULES: Record<string, () => Promise<BenchModule>> = {
  lexicon: () => import('./lexicon.js'),
  engine: () => import('./engine.js'),
  movegen: () => import('./movegen.js'),
  'robot-seats': () => import('./robot-seats.js'),
  coldstart: () => import('./coldstart.js'),
  reliability: () => import('./reliability.js'),
  security: () => import('./security.js'),
  persistence: () => import('./persistence.js'),
  growth: () => import('./growth.js'),
  turnpath: () => import('./turnpath.js'),
  'tournament-pairing': () => import('./tournament-pairing.js'),
  'tournament-standings': () => import('./tournament-standings.js'),
  'tournament-tsh': () => import('./tournament-tsh.js'),
};

const formatValue = (v: number): string =>
  Number.isInteger(v)
    ? v.toLocaleString('en-US')
    : Math.abs(v) < 1
      ? v.toLocaleString('en-US', { maximumSignificantDigits: 3 }) // small ratios keep their digits
      : v.toLocaleString('en-US', { maximumFractionDigits: 2 });

export const renderResults = (sections: readonly BenchSection[], failures: readonly string[], now = new Date()): string => {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  const lines = [
    '# Benchmark results',
    '',
    `Written by \`npm run bench\` on ${now.toISOString()}.`,
    '',
    `Machine: ${cpu}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, ${platform()} ${arch()}; Node ${process.version}.`,
    '',
  ];
  for (const s of sections) {
    lines.push(`## ${s.title}`, '', '| metric | value | unit | target | met |', '|---|---:|---|---|---|');
    for (const r of s.rows) {
      lines.push(
        `| ${r.metric} | ${formatValue(r.value)} | ${r.unit} | ${r.target ?? ''} | ${r.met === undefined ? '' : r.met ? 'yes' : '**no**'} |`,
      );
    }
    if (s.notes?.length) lines.push('', ...s.notes.map((n) => `- ${n}`));
    lines.push('');
  }
  if (failures.length) lines.push('## Modules that failed', '', ...failures.map((f) => `- ${f}`), '');
  return lines.join('\n');
};

async function main(): Promise<void> {
  const print = process.argv.includes('--print');
  const only = process.argv.slice(2).filter((a) => a !== '--print');
  const sections: BenchSection[] = [];
  const failures: string[] = [];
  for (const [name, load] of Object.entries(MODULES)) {
    if (only.length && !only.includes(name)) continue;
    process.stderr.write(`bench: ${name}…\n`);
    try {
      const t0 = performance.now();
      sections.push(await (await load()).run());
      process.stderr.write(`bench: ${name} took ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
    } catch (e) {
      failures.push(`${name}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  if (print) process.stdout.write(renderResults(sections, failures));
  else {
    const out = join(dirname(fileURLToPath(import.meta.url)), 'RESULTS.md');
    writeFileSync(out, renderResults(sections, failures));
    process.stderr.write(`bench: wrote ${out}\n`);
  }
  if (failures.length) process.exitCode = 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
