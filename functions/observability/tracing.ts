import { SpanStatusCode, trace, type Attributes } from '@opentelemetry/api';

/**
 * Trace spans through the OpenTelemetry API only: whoever registers a tracer provider decides where
 * spans go (the ADOT layer on Lambda sends them to X-Ray; `npm start` with ARBITER_TRACING=console
 * prints them, functions/observability/tracing-local.ts). Off, a span costs one boolean test: nothing
 * is created, so the turn path pays nothing locally.
 */
export const TRACING_ENV = 'ARBITER_TRACING';

let enabled: boolean | undefined;

/** On when ARBITER_TRACING is set to anything but `off`/`0` (the stack sets `on`), or after {@link setTracingEnabled}. */
export const tracingEnabled = (): boolean => (enabled ??= !['', 'off', '0', 'false'].includes((process.env[TRACING_ENV] ?? '').trim()));

/** For tests and the local set-up. */
export const setTracingEnabled = (on: boolean | undefined): void => {
  enabled = on;
};

const tracer = () => trace.getTracer('arbiter');

/** Runs `fn` inside a span named `name` (a child of the active one); a throw marks the span as an error. */
export const withSpan = <T>(name: string, attributes: Attributes, fn: () => Promise<T>): Promise<T> => {
  if (!tracingEnabled()) return fn();
  return tracer().startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await fn();
    } catch (e) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: e instanceof Error ? e.name : 'error' });
      throw e;
    } finally {
      span.end();
    }
  });
};
