import { METRIC_NAMESPACE, METRICS, type MetricName } from './metric-names.js';

/**
 * The process's metrics, kept two ways from the same calls: totals for the Prometheus text of the
 * self-hosted server's /metrics, and (on Lambda) a buffer of what this invocation recorded, written out
 * as CloudWatch Embedded Metric Format lines by {@link Metrics.flushEmf} — CloudWatch turns those log
 * lines into metrics, with no API call and no agent.
 */
export type Labels = Readonly<Record<string, string>>;

/** Bucket bounds of the latency histograms, in milliseconds. */
export const LATENCY_BUCKETS_MS = [5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000] as const;

interface Series {
  readonly name: MetricName;
  readonly labels: Labels;
  value: number;
  /** Histograms: counts per bucket (cumulative at render), and the observations for EMF. */
  buckets?: number[];
  count?: number;
  values?: number[];
}

const keyOf = (name: string, labels: Labels) => `${name}${JSON.stringify(labels)}`;
const PREFIX = 'arbiter_';
/** EMF accepts at most 100 values per metric in one document. */
const EMF_MAX_VALUES = 100;

const escapeLabel = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
const labelText = (labels: Labels, extra: Labels = {}) => {
  const all = { ...labels, ...extra };
  const parts = Object.entries(all).map(([k, v]) => `${k}="${escapeLabel(v)}"`);
  return parts.length ? `{${parts.join(',')}}` : '';
};

export class Metrics {
  private readonly totals = new Map<string, Series>();
  private pending = new Map<string, Series>();

  /** `emf`: keep what each invocation records for {@link flushEmf} (on Lambda). */
  constructor(private readonly emf = false) {}

  inc(name: MetricName, labels: Labels = {}, n = 1): void {
    this.series(this.totals, name, labels).value += n;
    if (this.emf) this.series(this.pending, name, labels).value += n;
  }

  set(name: MetricName, value: number, labels: Labels = {}): void {
    this.series(this.totals, name, labels).value = value;
    if (this.emf) this.series(this.pending, name, labels).value = value;
  }

  observe(name: MetricName, value: number, labels: Labels = {}): void {
    const s = this.series(this.totals, name, labels);
    s.value += value;
    s.count = (s.count ?? 0) + 1;
    s.buckets ??= LATENCY_BUCKETS_MS.map(() => 0);
    const i = LATENCY_BUCKETS_MS.findIndex((b) => value <= b);
    if (i >= 0) s.buckets[i]!++;
    if (this.emf) (this.series(this.pending, name, labels).values ??= []).push(value);
  }

  /** The Prometheus text exposition (version 0.0.4) of everything recorded since the process started. */
  prometheusText(): string {
    const out: string[] = [];
    for (const [name, def] of Object.entries(METRICS)) {
      const series = [...this.totals.values()].filter((s) => s.name === name);
      out.push(`# HELP ${PREFIX}${name} ${def.help}`, `# TYPE ${PREFIX}${name} ${def.type}`);
      for (const s of series) {
        if (def.type !== 'histogram') {
          out.push(`${PREFIX}${name}${labelText(s.labels)} ${s.value}`);
          continue;
        }
        let cumulative = 0;
        LATENCY_BUCKETS_MS.forEach((bound, i) => {
          cumulative += s.buckets?.[i] ?? 0;
          out.push(`${PREFIX}${name}_bucket${labelText(s.labels, { le: String(bound) })} ${cumulative}`);
        });
        out.push(`${PREFIX}${name}_bucket${labelText(s.labels, { le: '+Inf' })} ${s.count ?? 0}`);
        out.push(`${PREFIX}${name}_sum${labelText(s.labels)} ${s.value}`, `${PREFIX}${name}_count${labelText(s.labels)} ${s.count ?? 0}`);
      }
    }
    return `${out.join('\n')}\n`;
  }

  /** One EMF document per series recorded since the last flush (then forgotten); write each as a log line. */
  flushEmf(timestamp = Date.now()): string[] {
    const lines: string[] = [];
    for (const s of this.pending.values()) {
      const def = METRICS[s.name];
      const values = s.values ?? [s.value];
      for (let i = 0; i < values.length; i += EMF_MAX_VALUES) {
        const chunk = values.slice(i, i + EMF_MAX_VALUES);
        lines.push(
          JSON.stringify({
            _aws: {
              Timestamp: timestamp,
              CloudWatchMetrics: [
                { Namespace: METRIC_NAMESPACE, Dimensions: [Object.keys(s.labels)], Metrics: [{ Name: s.name, Unit: def.unit }] },
              ],
            },
            ...s.labels,
            [s.name]: chunk.length === 1 ? chunk[0] : chunk,
          }),
        );
      }
    }
    this.pending = new Map();
    return lines;
  }

  private series(map: Map<string, Series>, name: MetricName, labels: Labels): Series {
    const key = keyOf(name, labels);
    let s = map.get(key);
    if (!s) map.set(key, (s = { name, labels, value: 0 }));
    return s;
  }
}

let shared: Metrics | undefined;

/** The process's metrics: EMF-buffering on Lambda (AWS_LAMBDA_FUNCTION_NAME set), totals only elsewhere. */
export const metrics = (): Metrics => (shared ??= new Metrics(Boolean(process.env['AWS_LAMBDA_FUNCTION_NAME'])));

/** Tests: a fresh registry (EMF on or off). */
export const setMetrics = (next: Metrics | undefined): void => {
  shared = next;
};

/** Writes the buffered EMF documents to stdout, each on its own line (CloudWatch Logs reads them). */
export const flushEmf = (write: (line: string) => void = (line) => process.stdout.write(`${line}\n`)): void => {
  for (const line of metrics().flushEmf()) write(line);
};
