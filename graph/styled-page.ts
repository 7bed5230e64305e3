import { createHash } from 'node:crypto';

/**
 * The headers of a server-rendered page with no script (the standings page, a player's page): a
 * Content-Security-Policy under which nothing runs and nothing loads but this origin's icon, the page's
 * one inline style sheet allowed by its hash, and no referrer sent on.
 */
export const styledPageHeaders = (css: string): Readonly<Record<string, string>> => {
  const styleHash = `'sha256-${createHash('sha256').update(css).digest('base64')}'`;
  const csp = [
    "default-src 'none'",
    `style-src ${styleHash}`,
    "img-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  };
};
