import { ruleError, type RuleError } from '../engine/errors.js';

/** The error codes of the webhook use cases (subscriptions and the delivery log). */

export const WEBHOOK_ERROR_CODES = [
  /** `url` is not an absolute URL, has credentials in it, or is too long. */
  'WEBHOOK_URL_INVALID',
  /** `url` is not https (plain http only with the development setting ARBITER_WEBHOOK_ALLOW_LOCAL). */
  'WEBHOOK_URL_NOT_HTTPS',
  /** `url`'s host is, or resolves to, an address webhooks may not reach; `details.reason` says which kind (service/webhook-destination.ts). */
  'WEBHOOK_URL_FORBIDDEN',
  /** `kinds` is empty or names an unknown event kind. */
  'WEBHOOK_KINDS_INVALID',
  /** `apiKeyId` names no unrevoked API key of this owner. */
  'API_KEY_NOT_FOUND',
  /** No subscription of this owner has that id. */
  'WEBHOOK_SUBSCRIPTION_NOT_FOUND',
  /** `first` is not an integer from 1 to `MAX_PAGE_SIZE` (service/webhook-log.ts). */
  'PAGE_SIZE_INVALID',
  /** `after` is not a cursor this service handed out. */
  'CURSOR_INVALID',
] as const;
export type WebhookErrorCode = (typeof WEBHOOK_ERROR_CODES)[number];

/** A `RuleError` whose `details.field` names the offending input field. */
export interface WebhookError extends RuleError {
  readonly code: WebhookErrorCode;
}

export const webhookError = (code: WebhookErrorCode, field: string, message: string, details: Record<string, unknown> = {}): WebhookError =>
  ruleError(code, message, { field, ...details }) as WebhookError;

export const isWebhookError = (e: unknown): e is WebhookError =>
  typeof e === 'object' && e !== null && (WEBHOOK_ERROR_CODES as readonly unknown[]).includes((e as { code?: unknown }).code);
