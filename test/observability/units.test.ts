/** The logger's redaction layers and the two metrics outputs (issue 18). */
import { describe, expect, it } from 'vitest';
import { memoryLogger, scrubCredentials } from '../../functions/observability/log.js';
import { LATENCY_BUCKETS_MS, Metrics } from '../../functions/observability/metrics.js';
import { METRICS } from '../../functions/observability/metric-names.js';
import { assertValidEmf } from './emf.js';

describe('the logger', () => {
  it('redacts secret fields by name, at the top level and one level down', () => {
    const lines: string[] = [];
    const log = memoryLogger(lines);
    log.info({ msg: 'x', password: 'hunter2hunter2', input: { rack: 'AEIRSTV', bagSeed: 'f00d', handle: 'ann' } });
    const line = JSON.parse(lines[0]!);
    expect(line).toMatchObject({ msg: 'x', password: '[redacted]', input: { rack: '[redacted]', bagSeed: '[redacted]', handle: 'ann' } });
    expect(lines[0]).not.toContain('hunter2');
    expect(lines[0]).not.toContain('AEIRSTV');
  });

  it('masks the shapes of our credentials wherever they are in a line', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbm4ifQ.c2lnbmF0dXJlLXNpZ25hdHVyZQ';
    const key = `arb_0123456789ab_${'x'.repeat(43)}`;
    const text = `token ${jwt} key ${key} secret whsec_abcdefABCDEF012345 header Bearer opaque-thing`;
    const scrubbed = scrubCredentials(text);
    for (const s of [jwt, key, 'whsec_abcdefABCDEF012345', 'opaque-thing']) expect(scrubbed).not.toContain(s);
    expect(scrubbed).toBe('token [redacted] key [redacted] secret [redacted] header Bearer [redacted]');
  });
});

describe('the metrics', () => {
  it('writes the Prometheus text: HELP and TYPE for every metric, counters by label, cumulative histogram buckets', () => {
    const m = new Metrics();
    m.inc('turns_submitted_total', { outcome: 'OK' });
    m.inc('turns_submitted_total', { outcome: 'OK' });
    m.inc('turns_submitted_total', { outcome: 'STALE_VERSION' });
    m.observe('turn_latency_ms', 7);
    m.observe('turn_latency_ms', 300);
    m.set('webhook_oldest_pending_age_seconds', 42);
    const text = m.prometheusText();
    for (const [name, def] of Object.entries(METRICS)) expect(text).toContain(`# TYPE arbiter_${name} ${def.type}\n`);
    expect(text).toContain('arbiter_turns_submitted_total{outcome="OK"} 2\n');
    expect(text).toContain('arbiter_turns_submitted_total{outcome="STALE_VERSION"} 1\n');
    expect(text).toContain('arbiter_turn_latency_ms_bucket{le="5"} 0\n');
    expect(text).toContain('arbiter_turn_latency_ms_bucket{le="10"} 1\n');
    expect(text).toContain('arbiter_turn_latency_ms_bucket{le="500"} 2\n');
    expect(text).toContain('arbiter_turn_latency_ms_bucket{le="+Inf"} 2\n');
    expect(text).toContain('arbiter_turn_latency_ms_sum 307\narbiter_turn_latency_ms_count 2\n');
    expect(text).toContain('arbiter_webhook_oldest_pending_age_seconds 42\n');
    expect(LATENCY_BUCKETS_MS[0]).toBe(5);
  });

  it('keeps nothing for EMF off Lambda, and on Lambda flushes what an invocation recorded as valid EMF, once', () => {
    const off = new Metrics(false);
    off.inc('deadline_sweeps_total');
    expect(off.flushEmf()).toEqual([]);
    const m = new Metrics(true);
    m.inc('turns_submitted_total', { outcome: 'OK' });
    for (let i = 0; i < 150; i++) m.observe('turn_latency_ms', i);
    m.set('webhook_oldest_pending_age_seconds', 3);
    const lines = m.flushEmf(1_800_000_000_000).map((l) => JSON.parse(l) as Record<string, any>);
    for (const doc of lines) assertValidEmf(doc);
    expect(lines[0]).toMatchObject({
      _aws: {
        Timestamp: 1_800_000_000_000,
        CloudWatchMetrics: [
          { Namespace: 'Arbiter', Dimensions: [['outcome']], Metrics: [{ Name: 'turns_submitted_total', Unit: 'Count' }] },
        ],
      },
      outcome: 'OK',
      turns_submitted_total: 1,
    });
    // 150 observations: two documents of at most 100 values.
    const latency = lines.filter((d) => 'turn_latency_ms' in d).map((d) => d['turn_latency_ms'] as number[]);
    expect(latency.map((v) => v.length)).toEqual([100, 50]);
    expect(lines.find((d) => 'webhook_oldest_pending_age_seconds' in d)).toMatchObject({ webhook_oldest_pending_age_seconds: 3 });
    expect(m.flushEmf()).toEqual([]);
  });
});
