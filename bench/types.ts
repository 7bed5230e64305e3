/** One bench module's figures; `bench/run.ts` runs every module and writes bench/RESULTS.md. */
export interface BenchRow {
  readonly metric: string;
  readonly value: number;
  readonly unit: string;
  /** Human-readable target, e.g. `≥ 100000 plays/s`. */
  readonly target?: string;
  readonly met?: boolean;
}

export interface BenchSection {
  /** The module of bench/run.ts that measured it (set by run.ts): marks its section in RESULTS.md. */
  readonly module?: string;
  readonly title: string;
  readonly rows: readonly BenchRow[];
  readonly notes?: readonly string[];
}

export type BenchModule = { run(): Promise<BenchSection> };
