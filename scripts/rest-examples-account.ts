/**
 * The account part of `npm run rest-examples` (scripts/rest-examples.ts): the caller's data as a download,
 * and a player registered for the purpose deleting their account (so that the other examples keep theirs).
 */
import type { Call } from './rest-examples-tournaments.js';

export const recordAccountExamples = async (call: Call, token: string): Promise<void> => {
  await call('exportAccount', 'GET', '/me/export', token);
  const leaver = await call('registerPlayer', 'POST', '/players', undefined, {
    handle: 'erin',
    displayName: 'Erin',
    password: 'erin-leaves-arbiter-7',
  });
  await call('deleteAccount', 'POST', '/me/delete', leaver['token'] as string, {
    password: 'erin-leaves-arbiter-7',
    confirm: 'DELETE erin',
  });
};
