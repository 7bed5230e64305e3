import { describe, expect, it } from 'vitest';
import { rowsOf, type TurnPathFigures } from '../../bench/turnpath.js';

/**
 * The turn path's judged HTTP row (issue 34 item 6, the owner's decision on issue #17): HTTP submitTurn ÷
 * (authenticated `{ __typename }` + the service's own submitTurn) ≤ 1.5× on both databases; the old ratio,
 * HTTP submitTurn ÷ `{ __typename }`, is reported beside it and not judged. Figures made up, worked by hand.
 */
const latencies = (p50: number) => ({ p50, p99: 2 * p50, perSecond: 1000 / p50, count: 100, errors: 0 });
const figures = (backend: TurnPathFigures['backend'], turnP50: number): TurnPathFigures => ({
  backend,
  // Floor 0.7 ms, the service's turn 0.5 ms: the bound is 1.2 ms.
  http: { turnP50, floorP50: 0.7 },
  service: { turn: latencies(0.5), bare: latencies(0.45) },
  games: { stack: latencies(40), bare: latencies(10) },
  cpuMsPerTurn: 0.7,
  systemMsPerTurn: 0.2,
  dbCpuMsPerTurn: backend === 'postgres' ? 0.3 : null,
  pglite:
    backend === 'pglite' ? { dbMsPerTurn: 0.3, dbWallMsPerTurn: 0.32, callsPerTurn: 2, threadMsPerTurn: 0.6, waitMsPerTurn: 0.01 } : null,
  rssMiB: 300,
  load: [1, 1],
  firstRun: { http: { turnP50, floorP50: 0.7 }, stack: latencies(45), cpuMsPerTurn: 0.8 },
});

const httpRows = (f: TurnPathFigures) => rowsOf(f).filter((r) => r.metric.includes('1 game, HTTP submitTurn') && r.unit === '×');

describe.each(['postgres', 'pglite'] as const)('the turn path rows on %s', (backend) => {
  it('judge HTTP submitTurn ÷ (floor + service submitTurn) against 1.5×, and report the old ratio beside it unjudged', () => {
    // 1.62 ms: 1.35× the bound (met), 2.31× the floor (the old ratio: missed on both under the old targets).
    const rows = httpRows(figures(backend, 1.62));
    const judged = rows.filter((r) => r.target !== undefined);
    expect(judged).toHaveLength(1);
    expect(judged[0]).toMatchObject({ value: 1.35, target: '≤ 1.5×', met: true });
    expect(judged[0]!.metric).toContain('÷ (`{ __typename }` p50 + service submitTurn p50)');
    const old = rows.find((r) => r.metric.includes('HTTP submitTurn ÷ `{ __typename }`'))!;
    expect(old).toMatchObject({ value: 2.31 });
    expect(old.target).toBeUndefined();
    expect(old.met).toBeUndefined();
    expect(rows.indexOf(old)).toBe(rows.indexOf(judged[0]!) + 1);
  });

  it('a turn above 1.5× its bound misses the target, whatever the database', () => {
    // 1.92 ms: 1.6× the bound of 1.2 ms.
    const judged = httpRows(figures(backend, 1.92)).filter((r) => r.target !== undefined);
    expect(judged).toEqual([expect.objectContaining({ value: 1.6, target: '≤ 1.5×', met: false })]);
  });
});
