/** The probe and metrics paths (/health is Yoga's own health check, its default `healthCheckEndpoint`) (functions/observability/health.ts), shared with the HTTP API's routes (infra/constructs/api.ts). */
export const HEALTH_PATH = '/health';
export const READY_PATH = '/ready';
export const METRICS_PATH = '/metrics';
