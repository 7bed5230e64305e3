import { createHash } from 'node:crypto';
import type { SendMailOptions } from 'nodemailer';
import type { Notice } from './notification-channels.js';

/**
 * The mails themselves, as nodemailer messages: every one in plain text and HTML, a notification mail
 * with the board picture inline (a `cid:` image) and the one-click unsubscribe headers of RFC 8058. The
 * HTML holds no script, no remote image and no style sheet (mail clients block them); everything a person
 * reads in it is escaped text from this server.
 */

const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const page = (title: string, inner: string): string =>
  `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
  `<body style="font-family:Verdana,sans-serif;color:#1b1b1b;max-width:640px">${inner}</body></html>\n`;

const button = (href: string, label: string): string =>
  `<p><a href="${escapeHtml(href)}" style="display:inline-block;padding:8px 16px;background:#2b5d34;color:#fff;text-decoration:none;border-radius:4px">${escapeHtml(label)}</a></p>`;

export interface VerificationMailInput {
  readonly to: string;
  readonly link: string;
  readonly expires: Date;
  readonly player: { readonly handle: string; readonly displayName: string };
}

export const verificationMail = (m: VerificationMailInput): SendMailOptions => {
  const subject = 'Confirm your e-mail address for Arbiter';
  const until = m.expires.toISOString().replace('T', ' ').slice(0, 16);
  const text = [
    `Hello ${m.player.displayName},`,
    '',
    `Someone (we hope you) asked Arbiter to send the notifications of the player "${m.player.handle}" to this address.`,
    'To confirm, open this link and press the button on its page:',
    '',
    m.link,
    '',
    `The link works until ${until} UTC. If you did not ask for this, ignore this mail: nothing is sent to you unless the address is confirmed.`,
  ].join('\n');
  const html = page(
    subject,
    `<p>Hello ${escapeHtml(m.player.displayName)},</p>` +
      `<p>Someone (we hope you) asked Arbiter to send the notifications of the player “${escapeHtml(m.player.handle)}” to this address.</p>` +
      button(m.link, 'Confirm this address') +
      `<p>Or open <a href="${escapeHtml(m.link)}">${escapeHtml(m.link)}</a>. The link works until ${until} UTC.</p>` +
      '<p>If you did not ask for this, ignore this mail: nothing is sent to you unless the address is confirmed.</p>',
  );
  return { to: m.to, subject, text, html };
};

export interface NoticeMailInput {
  readonly to: string;
  readonly notices: readonly Notice[];
  /** Stops mails of the notices' kind (all of them when the notices are of several kinds). */
  readonly unsubscribeUrl: string;
  /** Stops every notification mail. */
  readonly unsubscribeAllUrl: string;
  /** A board picture per game, PNG; the games without one go without. */
  readonly pictures: ReadonlyMap<string, Uint8Array>;
  /** The domain of the Message-ID (the From address's). */
  readonly domain: string;
}

const cidOf = (gameId: string, domain: string): string => `board-${gameId}@${domain}`;

const noticeHtml = (n: Notice, pictures: ReadonlyMap<string, Uint8Array>, domain: string): string => {
  const picture =
    n.gameId && pictures.has(n.gameId)
      ? `<p><a href="${escapeHtml(n.url)}"><img src="cid:${escapeHtml(cidOf(n.gameId, domain))}" alt="The board" width="480" style="max-width:100%;height:auto;border:0"></a></p>`
      : '';
  return `<h2 style="font-size:18px">${escapeHtml(n.title)}</h2><p>${escapeHtml(n.body)}</p>${picture}${button(n.url, 'Open')}`;
};

/** The Message-ID: the notice's id (or the digest's ids, hashed), the same on every retry so a mailbox can drop a repeat. */
const messageIdOf = (notices: readonly Notice[], domain: string): string => {
  const id =
    notices.length === 1
      ? notices[0]!.id
      : `digest-${createHash('sha256')
          .update(notices.map((n) => n.id).join(','))
          .digest('hex')
          .slice(0, 32)}`;
  return `<${id}@${domain}>`;
};

export const noticeMail = (m: NoticeMailInput): SendMailOptions => {
  const digest = m.notices.length > 1;
  const subject = digest ? `${m.notices.length} updates from Arbiter` : m.notices[0]!.title;
  const stop = `Stop these mails: ${m.unsubscribeUrl}\nStop every Arbiter mail: ${m.unsubscribeAllUrl}`;
  const text = [
    ...m.notices.flatMap((n) => [n.title, n.body, n.url, '']),
    '-- ',
    'You get this because you confirmed this address for your Arbiter notifications.',
    stop,
  ].join('\n');
  const footer =
    '<hr><p style="font-size:12px;color:#555">You get this because you confirmed this address for your Arbiter notifications. ' +
    `<a href="${escapeHtml(m.unsubscribeUrl)}">Stop these mails</a> · <a href="${escapeHtml(m.unsubscribeAllUrl)}">stop every Arbiter mail</a>.</p>`;
  const html = page(subject, m.notices.map((n) => noticeHtml(n, m.pictures, m.domain)).join('') + footer);
  const games = [...new Set(m.notices.map((n) => n.gameId).filter((g): g is string => g !== null && m.pictures.has(g)))];
  return {
    to: m.to,
    subject,
    text,
    html,
    messageId: messageIdOf(m.notices, m.domain),
    headers: {
      'Auto-Submitted': 'auto-generated',
      // RFC 8058: one https URL that takes a POST of `List-Unsubscribe=One-Click`; mail clients show an "Unsubscribe" button for it.
      'List-Unsubscribe': `<${m.unsubscribeUrl}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
    attachments: games.map((g) => ({
      filename: `board-${g}.png`,
      content: Buffer.from(m.pictures.get(g)!),
      contentType: 'image/png',
      contentDisposition: 'inline' as const,
      cid: cidOf(g, m.domain),
    })),
  };
};
