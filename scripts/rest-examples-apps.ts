/**
 * The third-party apps part of `npm run rest-examples` (scripts/rest-examples.ts): an app registered,
 * read, changed, its secret rotated; a grant the player gave an app, listed and revoked; the app deleted.
 * The grant is written as oidc-provider's adapter writes one (store/oauth-adapter.ts): walking the consent
 * pages is the tests' business (test/oauth/), not the examples'.
 */
import type { Db } from '../store/db.js';
import type { Call } from './rest-examples-tournaments.js';

export const recordAppExamples = async (call: Call, token: string, db: Db, now: () => Date): Promise<void> => {
  const created = await call('registerApp', 'POST', '/apps', token, {
    name: 'Board Buddy',
    clientType: 'CONFIDENTIAL',
    redirectUris: ['https://buddy.example/callback', 'http://127.0.0.1:8080/callback'],
    iconUrl: 'https://buddy.example/icon.png',
  });
  // The problem a developer meets first: a redirect URI over plain http.
  await call('registerApp', 'POST', '/apps', token, {
    name: 'Board Buddy',
    clientType: 'PUBLIC',
    redirectUris: ['http://buddy.example/callback'],
  });
  const id = (created['app'] as { id: string }).id;
  await call('listApps', 'GET', '/apps', token);
  await call('getApp', 'GET', `/apps/${id}`, token);
  await call('updateApp', 'PATCH', `/apps/${id}`, token, { name: 'Board Buddy 2', iconUrl: null });
  await call('rotateAppSecret', 'POST', `/apps/${id}/secret`, token);

  const me = (await call('getMe', 'GET', '/me', token)) as { id: string };
  const grantId = 'k3WcQ0mZ8f5hX9pLr2TtYv7bNa1sDe4uGj6iKoFqPwE';
  const iat = Math.floor(now().getTime() / 1000);
  await db.prisma.oAuthRecord.create({
    data: {
      model: 'Grant',
      id: grantId,
      accountId: me.id,
      clientId: id,
      payload: {
        iat,
        exp: iat + 31_536_000,
        jti: grantId,
        kind: 'Grant',
        accountId: me.id,
        clientId: id,
        resources: { 'http://localhost/': 'games:read games:play' },
      },
      expiresAt: new Date(now().getTime() + 31_536_000_000),
      createdAt: now(),
      lastUsedAt: now(),
    },
  });
  await call('listGrants', 'GET', '/me/grants', token);
  await call('revokeGrant', 'DELETE', `/me/grants/${grantId}`, token);
  await call('deleteApp', 'DELETE', `/apps/${id}`, token);
};
