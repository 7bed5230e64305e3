/**
 * The e-mail part of `npm run rest-examples` (scripts/rest-examples.ts): an address set, read, refused
 * when it is not one, a new confirmation mail asked for too soon, and the address removed. The mails go
 * nowhere (a transport that keeps nothing); the key is fixed, so the examples do not change from run to run.
 */
import type { MailDeps } from '../service/mail-send.js';
import type { Call } from './rest-examples-tournaments.js';

export const exampleMail = (now: () => Date): MailDeps => ({
  transport: { sendMail: () => Promise.resolve({}) },
  from: 'Arbiter <arbiter@arbiter.example>',
  keys: [new TextEncoder().encode('examples-only-mail-key-of-at-least-32-chars')],
  baseUrl: 'http://localhost:4000',
  now,
  where: 'nowhere (the REST examples)',
});

/** `shift` moves the app's clock (a new confirmation mail waits a minute); it is moved back at the end. */
export const recordEmailExamples = async (call: Call, token: string, shift: (ms: number) => void): Promise<void> => {
  await call('setMyEmail', 'PUT', '/me/email', token, { address: 'alice@example.org' });
  await call('setMyEmail', 'PUT', '/me/email', token, { address: 'alice at example.org' });
  await call('getMyEmail', 'GET', '/me/email', token);
  shift(61_000);
  await call('resendMyEmailVerification', 'POST', '/me/email/verification', token);
  shift(-61_000);
  await call('removeMyEmail', 'DELETE', '/me/email', token);
};
