import { err, ok, type Result } from '../engine/result.js';
import { appError, type AppError } from './oauth-app-errors.js';

/**
 * What an app's name, redirect URIs and icon may be (docs/apps.md#redirect-uris). The authorization
 * server compares a redirect_uri with the registered ones as exact strings, so a URI is stored exactly
 * as given; these checks only refuse what must never be registered.
 */

export const MAX_APP_NAME_LENGTH = 80;
export const MAX_REDIRECT_URIS = 10;
const MAX_URI_LENGTH = 2048;

/**
 * The loopback hosts a native app may listen on with plain http (RFC 8252 §7.3), spelled as WHATWG URL
 * parsing spells them: oidc-provider's own list (consts/client_attributes.js), which ignores the port of
 * these when it matches a native app's redirect_uri, as §7.3 requires.
 */
export const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Schemes that run or read something in the browser or the device instead of handing a code to an app. */
const FORBIDDEN_SCHEMES = new Set(['javascript:', 'vbscript:', 'data:', 'blob:', 'file:', 'about:', 'ws:', 'wss:', 'ftp:']);

/** `new URL` without the throw (URL.parse is newer than the oldest Node 20 we run on). */
const parseUrl = (text: string): URL | null => {
  try {
    return new URL(text);
  } catch {
    return null;
  }
};

/**
 * A private-use scheme (RFC 8252 §7.1) is a reverse domain name the app's developer controls
 * (`com.example.app`): at least one dot, so that `myapp:` or `mailto:` are not taken by whoever asks first.
 */
const PRIVATE_USE_SCHEME = /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/;

export const checkAppName = (name: string): Result<string, AppError> => {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_APP_NAME_LENGTH) {
    return err(
      appError(
        'APP_NAME_INVALID',
        'name',
        trimmed.length === 0 ? 'The app name is empty.' : `The app name is longer than ${MAX_APP_NAME_LENGTH} characters.`,
        { length: trimmed.length },
      ),
    );
  }
  return ok(trimmed);
};

const uriRefused = (index: number, uri: string, reason: string, why: string): AppError =>
  appError('APP_REDIRECT_URI_INVALID', `redirectUris.${index}`, `The redirect URI "${uri}" ${why}`, { uri, reason });

/** Why one redirect URI may not be registered, or null when it may. */
const redirectUriProblem = (uri: string): { reason: string; why: string } | null => {
  if (uri.length > MAX_URI_LENGTH) return { reason: 'TOO_LONG', why: `is longer than ${MAX_URI_LENGTH} characters.` };
  if (/\s/.test(uri) || [...uri].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f))
    return { reason: 'WHITESPACE', why: 'contains a space or a control character.' };
  if (uri.includes('*')) return { reason: 'WILDCARD', why: 'contains "*": redirect URIs are matched exactly, never by pattern.' };
  if (uri.includes('#')) return { reason: 'FRAGMENT', why: 'has a fragment (#…): a redirect URI must not (RFC 6749 §3.1.2).' };
  const url = parseUrl(uri);
  if (!url) return { reason: 'NOT_ABSOLUTE', why: 'is not an absolute URI.' };
  if (url.username !== '' || url.password !== '') return { reason: 'CREDENTIALS', why: 'must not contain a user name or password.' };
  if (url.protocol === 'https:') {
    if (LOOPBACK_HOSTS.has(url.hostname))
      return { reason: 'HTTPS_LOOPBACK', why: 'uses https on a loopback host: a native app listens on http://127.0.0.1 (RFC 8252 §7.3).' };
    return null;
  }
  if (url.protocol === 'http:') {
    if (LOOPBACK_HOSTS.has(url.hostname)) return null;
    return { reason: 'NOT_HTTPS', why: 'uses http: only https is allowed, or http on a loopback host (localhost, 127.0.0.1, [::1]).' };
  }
  if (FORBIDDEN_SCHEMES.has(url.protocol))
    return { reason: 'SCHEME_FORBIDDEN', why: `uses the ${url.protocol} scheme, which cannot receive a code.` };
  if (!PRIVATE_USE_SCHEME.test(url.protocol)) {
    return {
      reason: 'SCHEME_NOT_PRIVATE_USE',
      why: 'uses a scheme that is not a reverse domain name: a native app’s own scheme looks like com.example.app (RFC 8252 §7.1).',
    };
  }
  if (!/^[^:]+:\/[^/]/.test(uri)) {
    return {
      reason: 'PRIVATE_USE_FORM',
      why: 'must have a single slash after the scheme, as in com.example.app:/callback (RFC 8252 §7.1).',
    };
  }
  return null;
};

/** 1 to {@link MAX_REDIRECT_URIS} URIs, each allowed, none twice; answered as given. */
export const checkRedirectUris = (uris: readonly string[]): Result<string[], AppError> => {
  if (uris.length === 0 || uris.length > MAX_REDIRECT_URIS) {
    return err(
      appError('APP_REDIRECT_URI_INVALID', 'redirectUris', `Give 1 to ${MAX_REDIRECT_URIS} redirect URIs, not ${uris.length}.`, {
        reason: 'COUNT',
        count: uris.length,
      }),
    );
  }
  for (const [i, uri] of uris.entries()) {
    const problem = redirectUriProblem(uri);
    if (problem) return err(uriRefused(i, uri, problem.reason, problem.why));
    if (uris.indexOf(uri) !== i) return err(uriRefused(i, uri, 'DUPLICATE', `is listed twice (also as number ${uris.indexOf(uri) + 1}).`));
  }
  return ok([...uris]);
};

/** An icon is fetched by the consent page's browser: https only, so that it cannot be mixed content or a tracking pixel over http. */
export const checkIconUrl = (iconUrl: string): Result<string, AppError> => {
  const refuse = (reason: string, why: string) =>
    err(appError('APP_ICON_URL_INVALID', 'iconUrl', `The icon URL ${why}`, { reason, iconUrl: iconUrl.slice(0, 200) }));
  if (iconUrl.length > MAX_URI_LENGTH) return refuse('TOO_LONG', `is longer than ${MAX_URI_LENGTH} characters.`);
  const url = parseUrl(iconUrl);
  if (!url) return refuse('NOT_ABSOLUTE', `"${iconUrl}" is not an absolute URL.`);
  if (url.protocol !== 'https:') return refuse('NOT_HTTPS', `"${iconUrl}" must use https.`);
  if (url.username !== '' || url.password !== '') return refuse('CREDENTIALS', 'must not contain a user name or password.');
  return ok(iconUrl);
};

/**
 * The OIDC `application_type` of an app with these redirect URIs (for the authorization server's client
 * metadata): `native` when one is a loopback or private-use URI — oidc-provider then accepts any port on
 * the loopback (RFC 8252 §7.3) and the private-use scheme — else `web`.
 */
export const applicationTypeOf = (redirectUris: readonly string[]): 'web' | 'native' =>
  redirectUris.every((u) => u.startsWith('https://')) ? 'web' : 'native';
