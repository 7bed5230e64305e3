import type { Plugin } from 'graphql-yoga';
import type { RuleError } from '../engine/errors.js';
import type { AppServices } from '../graph/context.js';
import { verifyEmail } from '../service/mail-addresses.js';
import { UNSUBSCRIBE_PATH, VERIFY_PATH } from '../service/mail-send.js';
import { unsubscribeByToken } from '../service/mail-unsubscribe.js';
import { problemResponse } from './problem.js';

/**
 * The two pages the links of the mails open (docs/notifications.md#e-mail), plain HTTP, no sign-in (the
 * signed token is the credential):
 *
 *   GET  /v1/email/verify?token=…        a page with a button; POST (the button) confirms the address
 *   GET  /v1/email/unsubscribe?token=…   a page with a button; POST stops those mails
 *
 * A GET never changes anything: mail scanners and link previews open every link of a mail. The POST of
 * the unsubscribe link is also RFC 8058's one-click unsubscribe, sent by the mail program with the body
 * `List-Unsubscribe=One-Click`. A token altered or cut short answers 400 (a problem, or a page to a
 * browser) and changes nothing; a link used twice answers 200 and changes nothing the second time.
 */

export const EMAIL_PAGE_CSP = "default-src 'none'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const htmlResponse = (status: number, title: string, inner: string): Response =>
  new Response(
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
      `<meta name="referrer" content="no-referrer"><title>${escapeHtml(title)}</title></head><body><main><h1>${escapeHtml(title)}</h1>${inner}</main></body></html>\n`,
    {
      status,
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': EMAIL_PAGE_CSP,
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'cache-control': 'no-store',
      },
    },
  );

const wantsHtml = (request: Request): boolean => (request.headers.get('accept') ?? '').includes('text/html');

const failure = (request: Request, e: RuleError, instance: string): Response =>
  wantsHtml(request)
    ? htmlResponse(400, 'This link does not work', `<p>${escapeHtml(e.message)}</p><p><small>${escapeHtml(e.code)}</small></p>`)
    : problemResponse(400, { code: e.code, message: e.message, details: e.details ?? null, field: 'token' }, instance);

const success = (request: Request, title: string, sentence: string, json: Record<string, unknown>): Response =>
  wantsHtml(request)
    ? htmlResponse(200, title, `<p>${escapeHtml(sentence)}</p>`)
    : new Response(JSON.stringify(json), { status: 200, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });

/** The page of a GET: what the button will do, and the button (a form POSTing to the same address). */
const confirmPage = (url: URL, title: string, sentence: string, label: string, oneClick: boolean): Response =>
  htmlResponse(
    200,
    title,
    `<p>${escapeHtml(sentence)}</p><form method="post" action="${escapeHtml(url.pathname + url.search)}">` +
      (oneClick ? '<input type="hidden" name="List-Unsubscribe" value="One-Click">' : '') +
      `<button type="submit">${escapeHtml(label)}</button></form>`,
  );

/** The form fields of a POST (urlencoded or multipart, as RFC 8058 allows); null when the body is neither. */
const formOf = async (request: Request): Promise<FormData | null> => {
  const type = request.headers.get('content-type') ?? '';
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(type)) return null;
  try {
    return await request.formData();
  } catch {
    return null;
  }
};

const methodNotAllowed = (instance: string): Response =>
  problemResponse(405, { code: 'METHOD_NOT_ALLOWED', message: 'Use GET for the page, POST to confirm.' }, instance, {
    allow: 'GET, HEAD, POST',
  });

const verifyPage = async (services: AppServices, request: Request, url: URL): Promise<Response> => {
  if (request.method === 'GET' || request.method === 'HEAD')
    return confirmPage(
      url,
      'Confirm your e-mail address',
      'Press the button to receive your Arbiter notifications at this address.',
      'Confirm',
      false,
    );
  if (request.method !== 'POST') return methodNotAllowed(url.pathname);
  const mail = services.mail;
  if (!mail) return problemResponse(404, { code: 'NOT_FOUND', message: 'This server sends no e-mail.' }, url.pathname);
  const done = await verifyEmail(services.db, { keys: mail.keys, now: services.now }, url.searchParams.get('token'));
  if (!done.ok) return failure(request, done.error, url.pathname);
  const { address, already } = done.value;
  return success(
    request,
    'Address confirmed',
    `${address} ${already ? 'was confirmed already' : 'is confirmed'}: your notifications can go there.`,
    {
      address,
      verified: true,
      changed: !already,
    },
  );
};

const unsubscribePage = async (services: AppServices, request: Request, url: URL): Promise<Response> => {
  if (request.method === 'GET' || request.method === 'HEAD')
    return confirmPage(url, 'Unsubscribe', 'Press the button to stop these Arbiter e-mails.', 'Unsubscribe', true);
  if (request.method !== 'POST') return methodNotAllowed(url.pathname);
  const mail = services.mail;
  if (!mail) return problemResponse(404, { code: 'NOT_FOUND', message: 'This server sends no e-mail.' }, url.pathname);
  const form = await formOf(request);
  if (form?.get('List-Unsubscribe') !== 'One-Click')
    return problemResponse(
      400,
      {
        code: 'VALIDATION',
        message: 'The body must be the form field List-Unsubscribe=One-Click (RFC 8058).',
        issues: [{ field: 'List-Unsubscribe', message: 'Send List-Unsubscribe=One-Click as application/x-www-form-urlencoded.' }],
      },
      url.pathname,
    );
  const done = await unsubscribeByToken(services.db, mail.keys, url.searchParams.get('token'), services.now());
  if (!done.ok) return failure(request, done.error, url.pathname);
  const { kind, changed } = done.value;
  const what = kind === null ? 'Arbiter e-mails' : `“${kind}” e-mails`;
  return success(request, 'Unsubscribed', `You will get no more ${what}${changed ? '' : ' (they were off already)'}.`, { kind, changed });
};

/** Serves the two pages before the REST edge looks at the request. */
export const useEmailPages = (services: AppServices): Plugin => ({
  onRequest: async ({ url, request, endResponse }) => {
    const path = url.pathname.replace(/\/$/, '');
    if (path === VERIFY_PATH) endResponse(await verifyPage(services, request, url));
    else if (path === UNSUBSCRIBE_PATH) endResponse(await unsubscribePage(services, request, url));
  },
});
