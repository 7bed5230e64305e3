/**
 * The CDK app (`cdk synth`, `cdk deploy`; cdk.json runs it with tsx; `npm run synth` runs it directly,
 * which needs no CDK CLI). Deploys the bundles of `npm run build` from dist/. The stack is
 * environment-agnostic and looks nothing up, so synth works offline without AWS credentials;
 * `cdk deploy` takes account and region from the CLI profile.
 *
 * Context (`cdk deploy -c key=value`): stackName, minAcu, maxAcu, natGateways, secretsManagerEndpoint,
 * corsOrigins (comma-separated), reservedConcurrency, provisionedConcurrency, deletionProtection,
 * alarmEmail, publicUrl, mailDomain, mailFrom, vapidSubject, maxStreams, streamPollMs, tracing (default true: X-Ray through the ADOT layer), runtimeVersionArn (pins the Lambda
 * runtime version: infra/constructs/function.ts), dev. `dev=true` is for a throw-away stack: the database is not deletion-protected and is
 * destroyed with the stack (no final snapshot), unless deletionProtection says otherwise.
 */
import { App, RemovalPolicy } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleCode } from './constructs/function.js';
import { ArbiterStack } from './stack.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');

const bundle = (name: string): lambda.Code | undefined => bundleCode(join(DIST, name));

const required = (name: string): lambda.Code => {
  const code = bundle(name);
  if (!code) throw new Error(`dist/${name}/lambda.mjs or index.mjs is missing: run \`npm run build\` first (npm run synth does).`);
  return code;
};

// Run by the CDK CLI, CDK_OUTDIR says where to write; run directly (`npm run synth`), the assembly goes to cdk.out/.
const app = new App({ outdir: process.env['CDK_OUTDIR'] ?? join(ROOT, 'cdk.out') });
const ctx = (key: string): string | undefined => {
  const v: unknown = app.node.tryGetContext(key);
  return v === undefined || v === null || v === '' ? undefined : String(v);
};
const num = (key: string): number | undefined => {
  const v = ctx(key);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new Error(`context ${key} must be a number, not "${v}"`);
  return n;
};
const bool = (key: string): boolean | undefined => (ctx(key) === undefined ? undefined : ctx(key) === 'true');
const defined = <T extends object>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

const dev = bool('dev') ?? false;
// Production keeps the database: deletion protection on and a snapshot left, unless this is a dev stack.
const deletionProtection = bool('deletionProtection') ?? !dev;
new ArbiterStack(app, ctx('stackName') ?? 'Arbiter', {
  description: 'Arbiter: crossword game referee API (Lambda, HTTP API, Aurora Serverless v2, RDS Proxy)',
  code: {
    graphql: required('graphql'),
    webhooks: required('webhooks'),
    migrate: required('migrate'),
    deadlines: required('deadlines'),
    robots: required('robots'),
    rotateJwtSecret: required('rotate-jwt-secret'),
    stream: required('stream'),
    // Optional until its entry exists (scripts/build.ts skips a missing entry); the stack warns without it.
    ...defined({ notifications: bundle('notifications'), mailFeedback: bundle('mail-feedback') }),
  },
  network: defined({ natGateways: num('natGateways'), secretsManagerEndpoint: bool('secretsManagerEndpoint') }),
  database: defined({
    minCapacity: num('minAcu'),
    maxCapacity: num('maxAcu'),
    deletionProtection,
    removalPolicy: deletionProtection ? RemovalPolicy.RETAIN : dev ? RemovalPolicy.DESTROY : undefined,
  }),
  alarms: defined({ email: ctx('alarmEmail') }),
  api: defined({
    corsOrigins: ctx('corsOrigins')
      ?.split(',')
      .map((s) => s.trim()),
    reservedConcurrency: num('reservedConcurrency'),
    provisionedConcurrency: num('provisionedConcurrency'),
  }),
  streams: defined({ maxStreams: num('maxStreams'), pollMs: num('streamPollMs') }),
  notifications: defined({ mailDomain: ctx('mailDomain'), mailFrom: ctx('mailFrom'), vapidSubject: ctx('vapidSubject') }),
  ...defined({ publicUrl: ctx('publicUrl'), tracing: bool('tracing') }),
});
const assembly = app.synth();
if (!process.env['CDK_OUTDIR']) {
  // Without the CLI nobody else prints the annotations, so do it here (and fail on errors).
  let errors = 0;
  for (const stack of assembly.stacks) {
    for (const m of stack.messages) {
      if (m.level === 'error') errors++;
      if (m.level !== 'info') console.error(`${m.level}: ${m.id}: ${String(m.entry.data)}`);
    }
    const resources = Object.keys((stack.template as { Resources?: object }).Resources ?? {}).length;
    console.log(`synthesized ${stack.stackName}: ${resources} resources -> ${join(assembly.directory, stack.templateFile)}`);
  }
  if (errors) process.exitCode = 1;
}
