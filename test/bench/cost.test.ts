import { describe, expect, it } from 'vitest';
import { costModel, type Prices } from '../../bench/cost.js';

/** Round prices, so that every figure below can be worked out by hand. */
const price = (usd: number) => ({ usd, per: 'unit', source: 'test', asOf: '2026-11-27' });
const PRICES: Prices = {
  lambdaArmGbSecond: price(0.00001),
  lambdaRequest: price(0.2e-6),
  httpApiRequest: price(1e-6),
  auroraServerlessV2AcuHour: price(0.12),
  auroraIoRequest: price(0.2e-6),
  rdsProxyAcuHour: price(0.015),
};
const DEPLOY = { lambdaMemoryMb: 1024, auroraMinAcu: 0.5, rdsProxyMinAcu: 8 };

describe('the cost model', () => {
  it('prices a turn and a quiet club, the database at its floor', () => {
    const c = costModel(
      { requestMs: 10, serverCpuMs: 2, dbCpuMs: 1, rssMiB: 100 },
      DEPLOY,
      { games: 1000, turnsPerGamePerDay: 24, otherRequestsPerTurn: 1, ioRequestsPerTurn: 2, vcpuPerAcu: 0.25 },
      PRICES,
    );
    // CPU 2 ms at 1024/1769 of a vCPU = 3.46 ms < 10 ms of wall time: 10 ms billed.
    expect(c.billedMs).toBe(10);
    // 0.010 s × 1 GB × $0.00001 + $0.0000002 = $0.0000003 a request.
    expect(c.perMillionTurns.lambda).toBeCloseTo(0.3, 10);
    expect(c.perMillionTurns.apiGateway).toBeCloseTo(1, 10);
    // 1 ms of database CPU ÷ 0.25 vCPU per ACU = 0.004 ACU-s = $0.12 × 0.004 / 3600; plus 2 I/Os × $0.0000002.
    expect(c.perMillionTurns.aurora).toBeCloseTo(0.133333 + 0.4, 5);
    expect(c.perMillionTurns.total).toBeCloseTo(1.833333, 5);
    // 1000 games × 24 turns a day × 730/24 days = 730,000 turns; 2 requests each.
    expect(c.club.turnsPerMonth).toBeCloseTo(730_000, 6);
    expect(c.club.turnsPerSecond).toBeCloseTo(24_000 / 86_400, 10);
    expect(c.club.acuNeeded).toBeCloseTo(0.0011111, 6);
    expect(c.club.lambda).toBeCloseTo(1_460_000 * 3e-7, 6); // 0.438
    expect(c.club.apiGateway).toBeCloseTo(1.46, 6);
    // The 0.5-ACU floor all month (0.5 × 730 × 0.12 = 43.80) + 1,460,000 I/Os × $0.0000002 = 0.292.
    expect(c.club.aurora).toBeCloseTo(44.092, 6);
    // RDS Proxy bills 8 ACUs at least: 8 × 730 × 0.015.
    expect(c.club.rdsProxy).toBeCloseTo(87.6, 6);
    expect(c.club.total).toBeCloseTo(0.438 + 1.46 + 44.092 + 87.6, 6);
  });

  it('bills CPU-bound requests at Lambda’s CPU share, and a busy database above its floor', () => {
    const c = costModel(
      { requestMs: 10, serverCpuMs: 20, dbCpuMs: 1000, rssMiB: 100 },
      DEPLOY,
      { games: 1000, turnsPerGamePerDay: 86.4, otherRequestsPerTurn: 1, ioRequestsPerTurn: 2, vcpuPerAcu: 0.25 },
      PRICES,
    );
    // 20 ms × 1769 / 1024 = 34.55 ms, rounded up to 35.
    expect(c.billedMs).toBe(35);
    // 1 turn a second × 1 s of CPU ÷ 0.25 vCPU per ACU = 4 ACUs.
    expect(c.club.turnsPerSecond).toBeCloseTo(1, 10);
    expect(c.club.acuNeeded).toBeCloseTo(4, 10);
    // 4 × 730 × 0.12 = 350.40, plus 2,628,000 turns × 2 I/Os × $0.0000002 = 1.0512.
    expect(c.club.aurora).toBeCloseTo(351.4512, 6);
    expect(c.club.rdsProxy).toBeCloseTo(87.6, 6);
  });
});
