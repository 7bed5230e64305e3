import * as z from 'zod';
import type { RuleError } from '../engine/errors.js';
import type { Result } from '../engine/result.js';
import { EMAIL_STATES, myEmail, removeEmail, resendEmailVerification, setEmail, type EmailView } from '../service/mail-addresses.js';
import { builder } from './builder.js';
import { requirePlayer, type Context } from './context.js';
import { enumName } from './enums.js';
import {
  AUTH_ERRORS,
  ArbiterError,
  ConflictError,
  ErrorInterface,
  ForbiddenError,
  INPUT_ERRORS,
  NotFoundError,
  RateLimitedError,
  resultUnion,
  toGraphError,
} from './errors.js';

/**
 * The caller's e-mail address for notifications (issue 31, docs/notifications.md#e-mail), over
 * service/mail-addresses.ts. Only the player's own token may change it: an API key acts for a program,
 * and a leaked one must not be able to send the player's notifications elsewhere. The address is
 * confirmed through the link of the mail setAddress sends, not here.
 */

/** An address the service refused, or a server without mail: `field` names the argument. */
export class EmailError extends ArbiterError {
  readonly field: string | null;
  constructor(e: RuleError) {
    const field = typeof e.details?.['field'] === 'string' ? e.details['field'] : null;
    super(e.code, e.message, e.details ?? null);
    this.field = field;
    (this.extensions as Record<string, unknown>)['field'] = field;
  }
}

builder.objectType(EmailError, {
  name: 'EmailError',
  description:
    'EMAIL_INVALID (`field`: address; not one plain address like name@example.org, or longer than 254 characters) or EMAIL_UNAVAILABLE (this server sends no e-mail).',
  interfaces: [ErrorInterface],
  fields: (t) => ({
    field: t.string({ nullable: true, description: 'The offending argument (address), when there is one.', resolve: (e) => e.field }),
  }),
});

const EMAIL_STATE_ABOUT: Readonly<Record<(typeof EMAIL_STATES)[number], string>> = {
  unverified: 'A mail with a confirmation link went to it; nothing else is sent until the link’s button is pressed.',
  verified: 'Confirmed: notification mails go to it.',
  bounced: 'The receiving server refused it for good: nothing is sent until you set it again.',
};

export const EmailStateEnum = builder.enumType('EmailState', {
  description: 'Where an e-mail address stands.',
  values: Object.fromEntries(EMAIL_STATES.map((s) => [enumName(s), { value: s, description: EMAIL_STATE_ABOUT[s] }])),
});

interface MyEmail {
  readonly email: EmailView | null;
  readonly available: boolean;
}

const MyEmailType = builder.objectRef<MyEmail>('MyEmail').implement({
  description: 'Your e-mail address for notifications, and where it stands. Every field but `available` is null when you have none.',
  fields: (t) => ({
    address: t.string({ nullable: true, description: 'The address, its domain in lower case.', resolve: (m) => m.email?.address ?? null }),
    state: t.field({ type: EmailStateEnum, nullable: true, description: 'Where it stands.', resolve: (m) => m.email?.state ?? null }),
    verificationSentAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the last confirmation mail went out.',
      resolve: (m) => m.email?.verificationSentAt ?? null,
    }),
    verifiedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When it was confirmed.',
      resolve: (m) => m.email?.verifiedAt ?? null,
    }),
    bouncedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When a receiving server refused it for good.',
      resolve: (m) => m.email?.bouncedAt ?? null,
    }),
    bounceReason: t.string({
      nullable: true,
      description: 'What that server answered.',
      resolve: (m) => m.email?.bounceReason ?? null,
    }),
    available: t.boolean({
      description: 'Whether this server sends e-mail at all (its operator configured SMTP or SES, or the local mailbox folder).',
      resolve: (m) => m.available,
    }),
  }),
});

/** The caller when it is a player's own token. */
const tokenPlayer = (ctx: Context) => {
  const me = requirePlayer(ctx);
  if (me.via === 'api-key')
    throw new ForbiddenError('Your e-mail address is changed with your player token (sign in), not an API key.', {
      needs: 'a player token',
    });
  return me;
};

const mine = (ctx: Context, email: EmailView | null): MyEmail => ({ email, available: Boolean(ctx.mail) });

const value = <T>(r: Result<T, RuleError>): T => {
  if (r.ok) return r.value;
  const e = r.error;
  if (e.code === 'EMAIL_NOT_SET') throw new NotFoundError(e.message, { ...e.details }, e.code);
  if (e.code === 'EMAIL_ALREADY_VERIFIED') throw new ConflictError(e.code, e.message, e.details);
  if (e.code === 'EMAIL_INVALID' || e.code === 'EMAIL_UNAVAILABLE') throw new EmailError(e);
  throw toGraphError(e);
};

const ERRORS = [...AUTH_ERRORS, EmailError, RateLimitedError];

builder.queryFields((t) => ({
  myEmail: t.field({
    type: MyEmailType,
    description: 'Your e-mail address for notifications and where it stands (unverified, verified, bounced).',
    authScopes: { loggedIn: true },
    errors: { types: [...AUTH_ERRORS], directResult: true, union: resultUnion('MyEmailResult', 'MyEmail') },
    resolve: async (_root, _args, ctx) => mine(ctx, await myEmail(ctx.db, requirePlayer(ctx).player.id)),
  }),
}));

builder.mutationFields((t) => ({
  setEmail: t.field({
    type: MyEmailType,
    description:
      'Sets your address for notification mails and sends it a mail with a confirmation link; until its button is pressed the address is unverified and gets nothing else. The same verified address again changes nothing.',
    authScopes: { loggedIn: true },
    errors: { types: [...ERRORS, ...INPUT_ERRORS], directResult: true, union: resultUnion('SetEmailResult', 'MyEmail') },
    args: {
      address: t.arg.string({
        required: true,
        description: 'One plain address, name@example.org (at most 254 characters).',
        validate: z.string().max(320),
      }),
    },
    resolve: async (_root, args, ctx) =>
      mine(ctx, value(await setEmail(ctx.db, ctx.mail ?? null, tokenPlayer(ctx).player.id, args.address))),
  }),
  resendEmailVerification: t.field({
    type: MyEmailType,
    description:
      'Sends a new confirmation mail to your unverified (or bounced) address; the links of earlier ones stop working. At most one a minute.',
    authScopes: { loggedIn: true },
    errors: {
      types: [...ERRORS, NotFoundError, ConflictError],
      directResult: true,
      union: resultUnion('ResendEmailVerificationResult', 'MyEmail'),
    },
    resolve: async (_root, _args, ctx) =>
      mine(ctx, value(await resendEmailVerification(ctx.db, ctx.mail ?? null, tokenPlayer(ctx).player.id))),
  }),
  removeEmail: t.field({
    type: MyEmailType,
    description: 'Forgets your address: no mail goes to it any more. Answers where you stand after (no address).',
    authScopes: { loggedIn: true },
    errors: { types: [...AUTH_ERRORS, NotFoundError], directResult: true, union: resultUnion('RemoveEmailResult', 'MyEmail') },
    resolve: async (_root, _args, ctx) => {
      value(await removeEmail(ctx.db, tokenPlayer(ctx).player.id));
      return mine(ctx, null);
    },
  }),
}));
