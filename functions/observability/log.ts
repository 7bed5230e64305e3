import { pino, type DestinationStream, type Logger } from 'pino';
import { currentScope } from './scope.js';

/**
 * The structured log of both runtimes: pino, one JSON object per line on stdout, which CloudWatch Logs
 * keeps as it is on Lambda and any collector reads off `npm start`. Why pino: the same logger on Lambda
 * and on the self-hosted server (Powertools' Logger is shaped around the Lambda context), the fastest
 * of the kept Node loggers, and built-in path redaction.
 *
 * Nothing secret is ever put in a log line on purpose (the fields are chosen in request-log.ts); two
 * layers catch it if it happens anyway: pino's redaction of fields by name, and a scrub of every written
 * line for the shapes of our credentials (JWTs, API keys, webhook secrets, bearer headers).
 */

/** Field names whose values never reach a log, at the top level and one level down. */
export const REDACTED_FIELDS = [
  'password',
  'newPassword',
  'token',
  'authorization',
  'cookie',
  'secret',
  'apiKey',
  'key',
  // OAuth (functions/oauth-provider.ts): what oidc-provider's objects and the token endpoint's bodies call them.
  'access_token',
  'refresh_token',
  'id_token',
  'code_verifier',
  'client_secret',
  'csrf',
  'rack',
  'myRack',
  'racks',
  'bag',
  'bagSeed',
  'seed',
] as const;

const REDACT_PATHS = REDACTED_FIELDS.flatMap((f) => [f, `*.${f}`]);

/** The shapes of what we hand out as credentials, masked wherever they appear in a line. */
const CREDENTIAL_SHAPES: readonly RegExp[] = [
  /eyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]+/g, // a JWT (header.payload.signature)
  /arb_[0-9a-f]{12}_[\w-]+/g, // an API key (service/accounts.ts)
  /whsec_[\w-]+/g, // a webhook signing secret (service/webhook-subscriptions.ts)
  /(bearer\s+)[^\s"\\]+/gi,
];

export const scrubCredentials = (line: string): string =>
  CREDENTIAL_SHAPES.reduce(
    (s, shape) => s.replace(shape, (m, bearer?: unknown) => (typeof bearer === 'string' ? `${bearer}[redacted]` : '[redacted]')),
    line,
  );

export const createLogger = (destination?: DestinationStream, level = process.env['ARBITER_LOG_LEVEL'] ?? 'info'): Logger =>
  pino(
    {
      level,
      base: null,
      messageKey: 'msg',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      hooks: { streamWrite: scrubCredentials },
    },
    destination ?? pino.destination({ sync: true }),
  );

let shared: Logger | undefined;

/** The process's logger (stdout). Tests swap it with {@link setLogger} to read what was written. */
export const logger = (): Logger => (shared ??= createLogger());

export const setLogger = (next: Logger | undefined): void => {
  shared = next;
};

/** A logger writing into `lines` (tests: every line parsed back). */
export const memoryLogger = (lines: string[], level = 'debug'): Logger => createLogger({ write: (s: string) => void lines.push(s) }, level);

/** Where Yoga reports what it masked (graph/yoga.ts `logError`): an error line with the request id and the stack. */
export const logUnexpectedError = (error: unknown): void => {
  logger().error({
    msg: 'unexpected error',
    requestId: currentScope()?.requestId ?? null,
    err: error instanceof Error ? error : { value: String(error) },
  });
};
