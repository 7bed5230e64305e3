/**
 * Reliability counts for bench/RESULTS.md (issue 6): runs the whole reliability suite
 * (`vitest run -c vitest.reliability.config.ts`, i.e. `npm run test:reliability`) with
 * ARBITER_RELIABILITY_SUMMARY pointing at a temporary file, then sums what each suite wrote there
 * (test/reliability/summary.ts): requests sent, faults injected, inputs tried, events lost.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SCALE_ENV, SUMMARY_ENV, sumTallies, type SummaryLine } from '../test/reliability/summary.js';
import type { BenchSection } from './types.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

export async function run(): Promise<BenchSection> {
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-reliability-'));
  const file = join(dir, 'summary.jsonl');
  const scale = process.env[SCALE_ENV] ?? '10';
  const started = performance.now();
  try {
    const vitest = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
    const r = spawnSync(process.execPath, [vitest, 'run', '-c', 'vitest.reliability.config.ts'], {
      cwd: ROOT,
      env: { ...process.env, [SUMMARY_ENV]: file, [SCALE_ENV]: scale },
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    const seconds = (performance.now() - started) / 1000;
    const tests = /Tests\s+(?:(\d+) failed \| )?(\d+) passed/.exec(r.stdout ?? '');
    const failed = Number(tests?.[1] ?? 0);
    const passed = Number(tests?.[2] ?? 0);
    if (r.status !== 0 && !tests)
      throw new Error(`the reliability suite did not run (exit ${r.status}): ${(r.stderr || r.stdout || '').slice(-2000)}`);
    const lines: SummaryLine[] = existsSync(file)
      ? readFileSync(file, 'utf8')
          .split('\n')
          .filter((l) => l.trim())
          .map((l) => JSON.parse(l) as SummaryLine)
      : [];
    const { total, bySuite } = sumTallies(lines);
    const ok = r.status === 0;
    return {
      title: 'Reliability (concurrency, faults, fuzzing, hidden information)',
      rows: [
        { metric: 'tests passed', value: passed, unit: 'tests', target: `all (${passed + failed})`, met: ok && failed === 0 },
        { metric: 'requests sent (HTTP, to the app)', value: total.requestsSent, unit: 'requests' },
        {
          metric: 'faults injected (connection lost before commit, backend killed, process killed after commit)',
          value: total.faultsInjected,
          unit: 'faults',
        },
        { metric: 'fuzzed inputs tried (engine and API)', value: total.inputsTried, unit: 'inputs' },
        { metric: 'events lost', value: total.eventsLost, unit: 'events', target: '0', met: total.eventsLost === 0 },
        {
          metric: 'store invariant violations (events ≠ version, gaps)',
          value: total.invariantViolations,
          unit: 'games',
          target: '0',
          met: total.invariantViolations === 0,
        },
        { metric: 'suite wall time', value: Math.round(seconds), unit: 's' },
      ],
      notes: [
        `\`npm run test:reliability\` at ARBITER_RELIABILITY_SCALE=${scale} (fuzz runs ×${scale} over \`npm test\`), PGlite and Postgres.`,
        ...[...bySuite].map(
          ([suite, t]) =>
            `${suite}: ${t.requestsSent} requests, ${t.faultsInjected} faults, ${t.inputsTried} inputs, ${t.eventsLost} events lost.`,
        ),
        'Every fuzzed response is checked: HTTP status < 500, a code on every error, no stack or server internals, no unexpected (masked) error, no other player’s rack or bag seed.',
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
