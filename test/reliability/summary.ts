/**
 * Counts of the reliability suites (issue 6): requests sent, faults injected, inputs tried, events
 * lost. Each test file keeps its own tally (vitest runs files in separate workers) and, when
 * ARBITER_RELIABILITY_SUMMARY names a file, appends it there as one JSON line after its tests;
 * bench/reliability.ts runs the suites with that set and sums the lines into bench/RESULTS.md.
 * Without the variable (plain `npm test`) nothing is written.
 */
import { appendFileSync } from 'node:fs';

export const COUNTERS = ['requestsSent', 'faultsInjected', 'inputsTried', 'eventsLost', 'invariantViolations'] as const;
export type Counter = (typeof COUNTERS)[number];
export type Tally = Record<Counter, number>;

export const SUMMARY_ENV = 'ARBITER_RELIABILITY_SUMMARY';
export const SCALE_ENV = 'ARBITER_RELIABILITY_SCALE';

/** One line of the summary file: a suite's name and its tally. */
export interface SummaryLine {
  readonly suite: string;
  readonly tally: Tally;
}

export const emptyTally = (): Tally => ({ requestsSent: 0, faultsInjected: 0, inputsTried: 0, eventsLost: 0, invariantViolations: 0 });

/**
 * How many times more fuzz runs than the default (`npm test` runs 1×; `npm run test:reliability`
 * sets 10 unless ARBITER_RELIABILITY_SCALE says otherwise).
 */
export const scale = (): number => {
  const n = Number(process.env[SCALE_ENV] ?? 1);
  return Number.isFinite(n) && n > 0 ? n : 1;
};

/** `base` fuzz runs at the current scale (at least 1). */
export const runs = (base: number): number => Math.max(1, Math.round(base * scale()));

export interface Recorder {
  readonly tally: Tally;
  add(counter: Counter, n?: number): void;
  /** Appends the tally to the summary file, if one is configured. */
  flush(): void;
}

export const recorder = (suite: string): Recorder => {
  const tally = emptyTally();
  return {
    tally,
    add: (counter, n = 1) => {
      tally[counter] += n;
    },
    flush: () => {
      const file = process.env[SUMMARY_ENV];
      if (!file) return;
      const line: SummaryLine = { suite, tally };
      appendFileSync(file, `${JSON.stringify(line)}\n`, 'utf8');
    },
  };
};

/** Sums summary lines per counter, and per suite. */
export const sumTallies = (lines: readonly SummaryLine[]): { total: Tally; bySuite: Map<string, Tally> } => {
  const total = emptyTally();
  const bySuite = new Map<string, Tally>();
  for (const { suite, tally } of lines) {
    const mine = bySuite.get(suite) ?? emptyTally();
    for (const c of COUNTERS) {
      total[c] += tally[c] ?? 0;
      mine[c] += tally[c] ?? 0;
    }
    bySuite.set(suite, mine);
  }
  return { total, bySuite };
};
