/**
 * The sessions part of `npm run rest-examples` (scripts/rest-examples.ts): a player registered for the purpose
 * (so that the other examples keep their sessions) signs in on a second device, lists and ends sessions,
 * renews a token and changes the password.
 */
import type { Call } from './rest-examples-tournaments.js';

export const recordSessionExamples = async (call: Call): Promise<void> => {
  const frank = await call('registerPlayer', 'POST', '/players', undefined, {
    handle: 'frank',
    displayName: 'Frank',
    password: 'frank-plays-at-night-4',
  });
  await call(
    'createSession',
    'POST',
    '/sessions',
    undefined,
    { handle: 'frank', password: 'frank-plays-at-night-4' },
    {
      'user-agent': 'ArbiterPhone/2.1 (Android 15)',
    },
  );
  const renewed = await call('renewToken', 'POST', '/sessions/renew', undefined, { token: frank['token'] });
  const token = renewed['token'] as string;
  const listed = await call('listSessions', 'GET', '/me/sessions', token);
  const other = (listed['items'] as { id: string; current: boolean }[]).find((s) => !s.current)!;
  await call('endSession', 'DELETE', `/me/sessions/${other.id}`, token);
  await call('changePassword', 'POST', '/me/password', token, {
    currentPassword: 'frank-plays-at-night-4',
    newPassword: 'frank-sleeps-by-day-5',
  });
  await call('signOutEverywhere', 'POST', '/me/sessions/sign-out', token, { keepCurrent: true });
};
