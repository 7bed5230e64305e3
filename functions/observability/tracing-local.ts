import { trace, context } from '@opentelemetry/api';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import { setTracingEnabled } from './tracing.js';

/**
 * A tracer provider for the self-hosted server and the tests: spans to `exporter` (default: one JSON
 * line per span on stdout, `ARBITER_TRACING=console`). Loaded on demand, so neither the Lambda bundles
 * (where the ADOT layer registers its own provider) nor a server with tracing off load the SDK.
 * Returns a function that unregisters it.
 */
export const startLocalTracing = async (exporter?: SpanExporter): Promise<() => Promise<void>> => {
  const [{ BasicTracerProvider, SimpleSpanProcessor, ConsoleSpanExporter }, { AsyncLocalStorageContextManager }] = await Promise.all([
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/context-async-hooks'),
  ]);
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter ?? new ConsoleSpanExporter())] });
  const manager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(manager);
  trace.setGlobalTracerProvider(provider);
  setTracingEnabled(true);
  return async () => {
    setTracingEnabled(undefined);
    await provider.shutdown();
    trace.disable();
    context.disable();
  };
};
