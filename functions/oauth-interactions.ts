import { AsyncLocalStorage } from 'node:async_hooks';
import { createHmac, timingSafeEqual } from 'node:crypto';
import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { AppServices } from '../graph/context.js';
import type { ApiScope } from '../service/accounts.js';
import { OAUTH_SCOPES } from '../service/oauth-access.js';
import { login } from '../service/login.js';
import { findOAuthAppForConsent } from '../store/oauth-adapter.js';
import { derivedKey, INTERACTION_PATH } from './oauth-provider.js';

/**
 * The authorization server's own pages (docs/apps.md#the-authorization-server): sign in with the handle and
 * password (the login of service/login.ts, with its limits and back-off), then the consent page naming the
 * app, who registered it and the scopes in words, with Approve and Deny. Plain HTML forms: no script, so
 * they work without JavaScript. Every POST carries a CSRF token bound to the interaction (an HMAC of its
 * uid) and is checked against the interaction cookie oidc-provider set for that uid: without both, nothing
 * is signed in or granted.
 *
 *   GET  /oauth/interaction/:uid          the sign-in or the consent page
 *   POST /oauth/interaction/:uid/login    handle, password, csrf
 *   POST /oauth/interaction/:uid/confirm  csrf: approve exactly the scopes asked
 *   POST /oauth/interaction/:uid/abort    csrf: deny (access_denied to the app)
 */

/** The request's client address key, set by the bridge (functions/oauth-server.ts) for the login limits. */
export const requestAddress = new AsyncLocalStorage<string | null>();

/** What each scope lets an app do, as the consent page says it. */
export const SCOPE_WORDS: Partial<Record<ApiScope, string>> = {
  'games:read': 'See your games, as you see them (your rack only).',
  'games:play': 'Play in your games: moves, exchanges, passes, challenges, resigning.',
  'webhooks:manage': 'Manage your webhook subscriptions and read their delivery log.',
  'lexicons:manage': 'Upload word lists in your name.',
  'disputes:rule': 'Rule on disputes as a director (only if you are one).',
};

const ROUTE = new RegExp(`^${INTERACTION_PATH}/([\\w-]{1,64})(?:/(login|confirm|abort))?/?$`);
const MAX_FORM_BYTES = 8 * 1024;

const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

// No form-action: Chromium applies it to the whole redirect chain of a submitted form, which ends on the app's redirect URI.
const PAGE_CSP = "default-src 'none'; img-src https:; base-uri 'none'; frame-ancestors 'none'";

const page = (ctx: KoaContextWithOIDC, status: number, title: string, inner: string): void => {
  ctx.status = status;
  ctx.type = 'html';
  ctx.set('content-security-policy', PAGE_CSP);
  ctx.set('x-content-type-options', 'nosniff');
  ctx.set('referrer-policy', 'no-referrer');
  ctx.set('cache-control', 'no-store');
  ctx.body =
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(title)} · Arbiter</title></head><body><main><h1>${escapeHtml(title)}</h1>${inner}</main></body></html>\n`;
};

const csrfFor = (secret: Uint8Array, uid: string): string =>
  createHmac('sha256', derivedKey(secret, 'csrf')).update(uid).digest('base64url');

const csrfOk = (secrets: readonly Uint8Array[], uid: string, sent: string | undefined): boolean =>
  typeof sent === 'string' &&
  secrets.some((s) => {
    const want = Buffer.from(csrfFor(s, uid));
    const got = Buffer.from(sent);
    return want.length === got.length && timingSafeEqual(want, got);
  });

const readForm = async (ctx: KoaContextWithOIDC): Promise<URLSearchParams | null> => {
  if (!/^application\/x-www-form-urlencoded/i.test(ctx.get('content-type'))) return null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES) return null;
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
};

const hidden = (csrf: string): string => `<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">`;

const loginPage = (ctx: KoaContextWithOIDC, uid: string, csrf: string, appName: string, problem: string | null, handle = ''): void =>
  page(
    ctx,
    problem ? 400 : 200,
    'Sign in to Arbiter',
    `<p>${escapeHtml(appName)} asks to use your Arbiter account. Sign in first.</p>` +
      (problem ? `<p role="alert" id="problem">${escapeHtml(problem)}</p>` : '') +
      `<form method="post" action="${INTERACTION_PATH}/${escapeHtml(uid)}/login">${hidden(csrf)}` +
      `<p><label for="handle">Handle</label><br><input id="handle" name="handle" autocomplete="username" required autofocus value="${escapeHtml(handle)}"></p>` +
      `<p><label for="password">Password</label><br><input id="password" name="password" type="password" autocomplete="current-password" required></p>` +
      `<p><button type="submit">Sign in</button></p></form>`,
  );

const consentPage = async (services: AppServices, ctx: KoaContextWithOIDC, uid: string, csrf: string, clientId: string, scope: string) => {
  const app = await findOAuthAppForConsent(services.db, clientId);
  if (!app) return page(ctx, 400, 'This app is no longer registered', '<p>Ask its maker, then try again.</p>');
  const asked = new Set(scope.split(' '));
  const scopes = OAUTH_SCOPES.filter((s) => asked.has(s));
  const icon = app.iconUrl?.startsWith('https://') ? `<img src="${escapeHtml(app.iconUrl)}" alt="" width="64" height="64">` : '';
  const list = scopes.length
    ? `<ul>${scopes.map((s) => `<li><strong>${escapeHtml(s)}</strong>: ${escapeHtml(SCOPE_WORDS[s] ?? s)}</li>`).join('')}</ul>`
    : '<p>Nothing beyond knowing that you use Arbiter.</p>';
  page(
    ctx,
    200,
    `Allow ${app.name}?`,
    `${icon}<p><strong>${escapeHtml(app.name)}</strong>, registered by <strong>${escapeHtml(app.ownerHandle)}</strong>, asks to act for you:</p>` +
      `<h2>It will be able to</h2>${list}<p>It can never do more than you can. You can revoke it at any time in your list of authorized apps.</p>` +
      `<form method="post" action="${INTERACTION_PATH}/${escapeHtml(uid)}/confirm">${hidden(csrf)}<button type="submit">Approve</button></form>` +
      `<form method="post" action="${INTERACTION_PATH}/${escapeHtml(uid)}/abort">${hidden(csrf)}<button type="submit">Deny</button></form>`,
  );
};

/** Grants exactly what the consent prompt says is missing: the resource's scopes oidc-provider already cut to OAUTH_SCOPES. */
const approve = async (provider: Provider, details: Awaited<ReturnType<Provider['interactionDetails']>>): Promise<string> => {
  const accountId = details.session!.accountId;
  const clientId = String(details.params['client_id']);
  const grant = (details.grantId ? await provider.Grant.find(details.grantId) : undefined) ?? new provider.Grant({ accountId, clientId });
  const missing = details.prompt.details as { missingOIDCScope?: string[]; missingResourceScopes?: Record<string, string[]> };
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
    grant.addResourceScope(indicator, scopes.filter((s) => (OAUTH_SCOPES as readonly string[]).includes(s)).join(' '));
  return grant.save();
};

type Step = 'login' | 'confirm' | 'abort';

const finish = async (provider: Provider, ctx: KoaContextWithOIDC, result: Parameters<Provider['interactionResult']>[2]) => {
  const to = await provider.interactionResult(ctx.req, ctx.res, result, { mergeWithLastSubmission: false });
  ctx.status = 303;
  ctx.redirect(to);
};

const post = async (
  services: AppServices,
  provider: Provider,
  ctx: KoaContextWithOIDC,
  step: Step,
  details: Awaited<ReturnType<Provider['interactionDetails']>>,
  secrets: readonly Uint8Array[],
) => {
  const form = await readForm(ctx);
  if (!form || !csrfOk(secrets, details.uid, form.get('csrf') ?? undefined))
    return page(ctx, 403, 'This form has expired', '<p>Nothing was changed. Go back to the app and start again.</p>');
  if (step === 'abort') return finish(provider, ctx, { error: 'access_denied', error_description: 'The player denied the request.' });
  if (step === 'confirm') {
    if (details.prompt.name !== 'consent' || !details.session) return page(ctx, 400, 'Sign in first', '<p>Nothing was changed.</p>');
    return finish(provider, ctx, { consent: { grantId: await approve(provider, details) } });
  }
  const handle = form.get('handle') ?? '';
  const done = await login(
    services.db.prisma,
    services.rateLimits,
    { handle, password: form.get('password') ?? '', address: requestAddress.getStore() ?? null },
    services.now(),
  );
  if (!done.ok || done.value.deletedAt) {
    const name = (await findOAuthAppForConsent(services.db, String(details.params['client_id'])))?.name ?? 'An app';
    const problem = done.ok ? 'The handle or the password is wrong.' : done.error.message;
    return loginPage(ctx, details.uid, csrfFor(secrets[0]!, details.uid), name, problem, handle);
  }
  return finish(provider, ctx, { login: { accountId: done.value.id } });
};

/**
 * The Koa middleware of these pages, run by the provider before its own routes. `secrets` are the JWT
 * secrets of this request (functions/oauth-provider.ts jwtSecretsOf): the first makes CSRF tokens, each checks them.
 */
export const interactionPages =
  (services: AppServices, provider: Provider, secretsOf: () => readonly Uint8Array[]) =>
  async (ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> => {
    const m = ROUTE.exec(ctx.path);
    if (!m) return next();
    const [, uid, step] = m as unknown as [string, string, Step | undefined];
    if ((step ? 'POST' : 'GET') !== ctx.method && !(ctx.method === 'HEAD' && !step)) {
      ctx.set('allow', step ? 'POST' : 'GET, HEAD');
      return page(ctx, 405, 'Method not allowed', '<p>Use the form.</p>');
    }
    let details;
    try {
      details = await provider.interactionDetails(ctx.req, ctx.res);
    } catch {
      return page(ctx, 400, 'This sign-in has expired', '<p>Go back to the app and start again.</p>');
    }
    if (details.uid !== uid) return page(ctx, 400, 'This sign-in has expired', '<p>Go back to the app and start again.</p>');
    const secrets = secretsOf();
    if (step) return post(services, provider, ctx, step, details, secrets);
    const csrf = csrfFor(secrets[0]!, uid);
    const clientId = String(details.params['client_id']);
    if (details.prompt.name === 'login') {
      const name = (await findOAuthAppForConsent(services.db, clientId))?.name ?? 'An app';
      return loginPage(ctx, uid, csrf, name, null);
    }
    return consentPage(services, ctx, uid, csrf, clientId, String(details.params['scope'] ?? ''));
  };
