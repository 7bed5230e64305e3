import { expect } from 'vitest';

/**
 * The CloudWatch Embedded Metric Format specification, checked on one document: `_aws` with a
 * millisecond Timestamp and CloudWatchMetrics directives, each with a Namespace, dimension sets naming
 * root string members (at most 30 per set), and metrics (at most 100) whose root members are numbers
 * or arrays of at most 100 numbers, with a unit CloudWatch knows.
 */
const UNITS = new Set(['Seconds', 'Microseconds', 'Milliseconds', 'Bytes', 'Kilobytes', 'Megabytes', 'Count', 'Percent', 'None']);

export const assertValidEmf = (doc: Record<string, any>): void => {
  expect(doc['_aws']).toBeTypeOf('object');
  expect(Number.isInteger(doc['_aws'].Timestamp)).toBe(true);
  expect(doc['_aws'].Timestamp).toBeGreaterThan(1_600_000_000_000);
  const directives = doc['_aws'].CloudWatchMetrics as any[];
  expect(Array.isArray(directives) && directives.length > 0).toBe(true);
  for (const d of directives) {
    expect(d.Namespace).toMatch(/^[\w.\-/#:]{1,255}$/);
    for (const set of d.Dimensions as string[][]) {
      expect(set.length).toBeLessThanOrEqual(30);
      for (const dim of set) expect(typeof doc[dim]).toBe('string');
    }
    expect(d.Metrics.length).toBeGreaterThan(0);
    expect(d.Metrics.length).toBeLessThanOrEqual(100);
    for (const m of d.Metrics) {
      expect(m.Name).toMatch(/^\S{1,255}$/);
      if (m.Unit !== undefined) expect(UNITS.has(m.Unit)).toBe(true);
      const v = doc[m.Name];
      if (Array.isArray(v)) {
        expect(v.length).toBeLessThanOrEqual(100);
        for (const x of v) expect(Number.isFinite(x)).toBe(true);
      } else expect(Number.isFinite(v)).toBe(true);
    }
  }
};
