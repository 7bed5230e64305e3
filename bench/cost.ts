/**
 * What a turn costs on AWS (issue #17): $ per million pass turns and $ per month for a club of 1,000
 * active correspondence games, from the figures bench/turnpath.ts measures (time and CPU per turn,
 * database CPU per turn), the deployed configuration (infra/) and list prices. Every price is a named
 * input with its source and the date it was read; every workload figure that is not measured says so.
 * `npx tsx bench/cost.ts` prints the model with the inputs below; bench/cost.test.ts checks the arithmetic.
 */
import { fileURLToPath } from 'node:url';

export interface Price {
  readonly usd: number;
  readonly per: string;
  /** Where the price was read (the public AWS pricing page, us-east-1) and when. */
  readonly source: string;
  readonly asOf: string;
}

export interface Prices {
  readonly lambdaArmGbSecond: Price;
  readonly lambdaRequest: Price;
  readonly httpApiRequest: Price;
  readonly auroraServerlessV2AcuHour: Price;
  readonly auroraIoRequest: Price;
  readonly rdsProxyAcuHour: Price;
}

/** us-east-1 list prices (on-demand, first tier, no free tier). Read again before relying on them. */
export const PRICES_US_EAST_1: Prices = {
  lambdaArmGbSecond: {
    usd: 0.0000133334,
    per: 'GB-second, Arm (first 7.5 billion GB-s a month)',
    source: 'https://aws.amazon.com/lambda/pricing/',
    asOf: '2026-11-27',
  },
  lambdaRequest: { usd: 0.2 / 1e6, per: 'request', source: 'https://aws.amazon.com/lambda/pricing/', asOf: '2026-11-27' },
  httpApiRequest: {
    usd: 1.0 / 1e6,
    per: 'HTTP API request (first 300 million a month, 512 KB each)',
    source: 'https://aws.amazon.com/api-gateway/pricing/',
    asOf: '2026-11-27',
  },
  auroraServerlessV2AcuHour: {
    usd: 0.12,
    per: 'ACU-hour, Aurora PostgreSQL Serverless v2, Aurora Standard',
    source: 'https://aws.amazon.com/rds/aurora/pricing/',
    asOf: '2026-11-27',
  },
  auroraIoRequest: {
    usd: 0.2 / 1e6,
    per: 'I/O request, Aurora Standard',
    source: 'https://aws.amazon.com/rds/aurora/pricing/',
    asOf: '2026-11-27',
  },
  rdsProxyAcuHour: {
    usd: 0.015,
    per: 'ACU-hour of the database behind RDS Proxy (Serverless v2: at least 8 ACUs billed)',
    source: 'https://aws.amazon.com/rds/proxy/pricing/',
    asOf: '2026-11-27',
  },
};

/** The deployment as infra/ configures it. */
export interface Deployment {
  /** infra/constructs/function.ts and api.ts: memorySize default 1024. */
  readonly lambdaMemoryMb: number;
  /** infra/constructs/database.ts: serverlessV2MinCapacity default 0.5. */
  readonly auroraMinAcu: number;
  /** RDS Proxy bills Serverless v2 at this many ACUs at least. */
  readonly rdsProxyMinAcu: number;
}

export const DEPLOYMENT: Deployment = { lambdaMemoryMb: 1024, auroraMinAcu: 0.5, rdsProxyMinAcu: 8 };

/** Per turn, from bench/turnpath.ts (see RESULTS.md for the run). */
export interface Measured {
  /** Wall time of one submitTurn request inside the server (Lambda bills wall time): HTTP p50 at one game. */
  readonly requestMs: number;
  /** Server CPU per pass turn (process.cpuUsage ÷ turns, 64-game run). */
  readonly serverCpuMs: number;
  /** Postgres backends' CPU per pass turn over the same run. */
  readonly dbCpuMs: number;
  /** Server resident set during the run, to check that the configured memory holds it. */
  readonly rssMiB: number;
}

/** Assumptions: not measured, named so that they can be argued with. */
export interface Workload {
  readonly games: number;
  /** Correspondence pace: both players' moves together, per game per day. */
  readonly turnsPerGamePerDay: number;
  /** Other API requests per turn (game views, polls), each costed like a turn request: an upper bound. */
  readonly otherRequestsPerTurn: number;
  /** Aurora Standard I/O requests per turn (storage page writes of the commit): an estimate. */
  readonly ioRequestsPerTurn: number;
  /** vCPU per ACU: 1 ACU ≈ 2 GiB with proportional CPU; a 16 GiB, 2-vCPU db.r6g.large ≈ 8 ACUs → 0.25. */
  readonly vcpuPerAcu: number;
}

export const CLUB: Workload = { games: 1000, turnsPerGamePerDay: 4, otherRequestsPerTurn: 4, ioRequestsPerTurn: 4, vcpuPerAcu: 0.25 };

/** Lambda's CPU share at `memoryMb`: one full vCPU at 1,769 MB (Lambda documentation), proportional below. */
export const LAMBDA_MB_PER_VCPU = 1769;
export const HOURS_PER_MONTH = 730;
const SECONDS_PER_DAY = 86_400;

export interface Cost {
  /** Billed Lambda milliseconds per request: the larger of its wall time and its CPU at Lambda's share, rounded up to 1 ms. */
  readonly billedMs: number;
  readonly perMillionTurns: { readonly lambda: number; readonly apiGateway: number; readonly aurora: number; readonly total: number };
  readonly club: {
    readonly turnsPerMonth: number;
    readonly turnsPerSecond: number;
    /** ACUs the turns keep busy (before the floor). */
    readonly acuNeeded: number;
    readonly lambda: number;
    readonly apiGateway: number;
    readonly aurora: number;
    readonly rdsProxy: number;
    readonly total: number;
  };
}

export const costModel = (
  measured: Measured,
  deployment: Deployment = DEPLOYMENT,
  workload: Workload = CLUB,
  prices: Prices = PRICES_US_EAST_1,
): Cost => {
  const cpuAtLambdaShare = measured.serverCpuMs * (LAMBDA_MB_PER_VCPU / deployment.lambdaMemoryMb);
  const billedMs = Math.ceil(Math.max(measured.requestMs, cpuAtLambdaShare));
  const gb = deployment.lambdaMemoryMb / 1024;
  const lambdaPerRequest = (billedMs / 1000) * gb * prices.lambdaArmGbSecond.usd + prices.lambdaRequest.usd;
  const apiPerRequest = prices.httpApiRequest.usd;
  const acuSecondsPerTurn = measured.dbCpuMs / 1000 / workload.vcpuPerAcu;
  const auroraPerTurn =
    (acuSecondsPerTurn / 3600) * prices.auroraServerlessV2AcuHour.usd + workload.ioRequestsPerTurn * prices.auroraIoRequest.usd;
  const million = { lambda: 1e6 * lambdaPerRequest, apiGateway: 1e6 * apiPerRequest, aurora: 1e6 * auroraPerTurn };

  const turnsPerMonth = workload.games * workload.turnsPerGamePerDay * (HOURS_PER_MONTH / 24);
  const turnsPerSecond = (workload.games * workload.turnsPerGamePerDay) / SECONDS_PER_DAY;
  const requests = turnsPerMonth * (1 + workload.otherRequestsPerTurn);
  const acuNeeded = turnsPerSecond * acuSecondsPerTurn;
  const acu = Math.max(deployment.auroraMinAcu, acuNeeded);
  const club = {
    turnsPerMonth,
    turnsPerSecond,
    acuNeeded,
    lambda: requests * lambdaPerRequest,
    apiGateway: requests * apiPerRequest,
    aurora:
      acu * HOURS_PER_MONTH * prices.auroraServerlessV2AcuHour.usd +
      turnsPerMonth * workload.ioRequestsPerTurn * prices.auroraIoRequest.usd,
    rdsProxy: Math.max(deployment.rdsProxyMinAcu, acu) * HOURS_PER_MONTH * prices.rdsProxyAcuHour.usd,
  };
  return {
    billedMs,
    perMillionTurns: { ...million, total: million.lambda + million.apiGateway + million.aurora },
    club: { ...club, total: club.lambda + club.apiGateway + club.aurora + club.rdsProxy },
  };
};

/**
 * The last measured figures (bench/HISTORY.md, "Turn path", 2026-11-27 12:53Z, Postgres, quiet: load average
 * 1.8–2.0 on 2 cores): HTTP submitTurn p50 at one game, server and database CPU per pass turn at 64 games
 * on a warm server (its second 64-game run). Lambda runs arm64 with its own vCPU share, this was an x64
 * machine: a stand-in, not a Lambda measurement.
 */
export const MEASURED: Measured = { requestMs: 2.53, serverCpuMs: 0.661, dbCpuMs: 0.27, rssMiB: 338 };

const usd = (x: number): string => `$${x < 1 ? x.toFixed(4) : x.toFixed(2)}`;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const c = costModel(MEASURED);
  const lines = [
    `measured per turn: ${MEASURED.requestMs} ms request, ${MEASURED.serverCpuMs} ms server CPU, ${MEASURED.dbCpuMs} ms database CPU, ${MEASURED.rssMiB} MiB server RSS`,
    `billed Lambda time per request at ${DEPLOYMENT.lambdaMemoryMb} MB: ${c.billedMs} ms`,
    `per million turns: Lambda ${usd(c.perMillionTurns.lambda)} + API Gateway ${usd(c.perMillionTurns.apiGateway)} + Aurora ${usd(c.perMillionTurns.aurora)} = ${usd(c.perMillionTurns.total)}`,
    `club of ${CLUB.games} games at ${CLUB.turnsPerGamePerDay} turns/game/day (${Math.round(c.club.turnsPerMonth)} turns/month, ${c.club.turnsPerSecond.toPrecision(2)} turns/s, ${c.club.acuNeeded.toPrecision(2)} ACU busy):`,
    `  Lambda ${usd(c.club.lambda)} + API Gateway ${usd(c.club.apiGateway)} + Aurora ${usd(c.club.aurora)} (floor ${DEPLOYMENT.auroraMinAcu} ACU) + RDS Proxy ${usd(c.club.rdsProxy)} = ${usd(c.club.total)} a month`,
    ...Object.entries(PRICES_US_EAST_1).map(
      ([name, p]: [string, Price]) => `  price ${name}: $${Number(p.usd.toPrecision(6))} per ${p.per} (${p.source}, ${p.asOf})`,
    ),
  ];
  console.log(lines.join('\n'));
}
