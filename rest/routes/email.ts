import { bodyField, type Route } from '../route.js';
import { LEAVES } from '../shape.js';

/**
 * Your e-mail address for notifications (a player token; docs/notifications.md#e-mail). The links of the
 * mails (/v1/email/verify, /v1/email/unsubscribe) are plain pages of rest/email-pages.ts, not routes here.
 */

export const EMAIL_ROUTES: readonly Route[] = [
  {
    operationId: 'getMyEmail',
    method: 'GET',
    path: '/me/email',
    tag: 'E-mail',
    summary: 'Your e-mail address and where it stands',
    description: 'Unverified, verified or bounced; every field but `available` is null when you have none.',
    field: 'myEmail',
    args: {},
    reply: { kind: 'object' },
    shape: LEAVES,
    auth: 'player',
  },
  {
    operationId: 'setMyEmail',
    method: 'PUT',
    path: '/me/email',
    tag: 'E-mail',
    summary: 'Set your e-mail address',
    description:
      'Sends the address a mail with a confirmation link; nothing else goes to it until the button of the link’s page is pressed. The same verified address again changes nothing. A player token only, not an API key.',
    field: 'setEmail',
    args: { address: bodyField('address') },
    reply: { kind: 'object' },
    shape: LEAVES,
    auth: 'player',
  },
  {
    operationId: 'resendMyEmailVerification',
    method: 'POST',
    path: '/me/email/verification',
    tag: 'E-mail',
    summary: 'Send a new confirmation mail',
    description: 'To your unverified (or bounced) address; the links of earlier mails stop working. At most one a minute (429).',
    field: 'resendEmailVerification',
    args: {},
    reply: { kind: 'object' },
    shape: LEAVES,
    notFound: ['EMAIL_NOT_SET'],
    auth: 'player',
  },
  {
    operationId: 'removeMyEmail',
    method: 'DELETE',
    path: '/me/email',
    tag: 'E-mail',
    summary: 'Remove your e-mail address',
    description: 'No mail goes to it any more.',
    field: 'removeEmail',
    args: {},
    reply: { kind: 'empty' },
    shape: {},
    notFound: ['EMAIL_NOT_SET'],
    auth: 'player',
  },
];
