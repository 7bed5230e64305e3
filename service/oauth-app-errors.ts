import { ruleError, type RuleError } from '../engine/errors.js';

/** The error codes of third-party apps and grants (service/oauth-apps.ts, docs/apps.md#errors). */
export const APP_ERROR_CODES = [
  /** `name` is empty or longer than 80 characters once trimmed. */
  'APP_NAME_INVALID',
  /** A redirect URI breaks the rules of docs/apps.md#redirect-uris; `field` names which one, `details.reason` why. */
  'APP_REDIRECT_URI_INVALID',
  /** `iconUrl` is not an absolute https URL (or is too long, or carries credentials); `details.reason` says why. */
  'APP_ICON_URL_INVALID',
  /** `clientType` is neither public nor confidential. */
  'APP_CLIENT_TYPE_INVALID',
  /** The player already has MAX_APPS_PER_PLAYER live apps. */
  'APP_LIMIT_REACHED',
  /** No live app of this player has that id (another player's app is not found either). */
  'APP_NOT_FOUND',
  /** The app is a public client: it has no secret to rotate. */
  'APP_NOT_CONFIDENTIAL',
  /** The player gave no grant with that id. */
  'GRANT_NOT_FOUND',
] as const;
export type AppErrorCode = (typeof APP_ERROR_CODES)[number];

/** A `RuleError` whose `details.field` names the offending input field (`redirectUris.1`). */
export interface AppError extends RuleError {
  readonly code: AppErrorCode;
}

export const appError = (code: AppErrorCode, field: string, message: string, details: Record<string, unknown> = {}): AppError =>
  ruleError(code, message, { field, ...details }) as AppError;
