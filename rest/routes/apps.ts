import { LEAVES, type Shape } from '../shape.js';
import { resource, type Route } from '../route.js';

/**
 * Third-party apps you registered and the apps you authorized (docs/apps.md). Apps: a player token or an
 * API key with apps:manage; grants: a player token only (an API key or an app's token is 403).
 */

const MANAGE = 'scope:apps:manage' as const;
const APP: Shape = LEAVES;
const CREDENTIALS: Shape = { expand: { app: APP } };
const GRANT: Shape = { expand: { app: LEAVES } };
const APP_NOT_FOUND = ['APP_NOT_FOUND'];

const apps = resource('Apps', '/apps');
const grants = resource('Apps', '/me/grants');

export const APP_ROUTES: readonly Route[] = [
  apps.list({
    operationId: 'listApps',
    summary: 'Your third-party apps',
    description: 'Oldest first; never their secrets.',
    field: 'myApps',
    reply: { kind: 'list', field: 'apps' },
    shape: APP,
    auth: MANAGE,
  }),
  apps.create({
    operationId: 'registerApp',
    summary: 'Register a third-party app',
    description:
      'Its id is the OAuth client_id. A CONFIDENTIAL app’s clientSecret is answered this once (null for a PUBLIC app). A refused redirect URI is APP_REDIRECT_URI_INVALID naming which one (`field`) and why (`details.reason`).',
    shape: CREDENTIALS,
    location: (v) => apps.url(v['app'] as Record<string, unknown>),
    auth: MANAGE,
  }),
  // One app is an item of the caller's list: there is no field that reads one app by id.
  apps.get({
    operationId: 'getApp',
    summary: 'One of your apps',
    field: 'myApps',
    args: {},
    reply: { kind: 'item', field: 'apps', param: 'id', notFound: 'APP_NOT_FOUND' },
    shape: APP,
    auth: MANAGE,
  }),
  apps.update({
    operationId: 'updateApp',
    summary: 'Change an app’s name, redirect URIs or icon',
    description: 'A field left out stays as it is; `"iconUrl": null` removes the icon. Its grants and tokens stay valid.',
    shape: APP,
    notFound: APP_NOT_FOUND,
    auth: MANAGE,
  }),
  apps.remove({
    operationId: 'deleteApp',
    summary: 'Delete an app',
    description: 'With every grant players gave it and every token it holds.',
    reply: { kind: 'empty' },
    shape: {},
    notFound: APP_NOT_FOUND,
    auth: MANAGE,
  }),
  apps.action('secret', {
    operationId: 'rotateAppSecret',
    summary: 'A new client secret for a confidential app',
    description:
      'Answered this once; the old secret stops working at once, tokens already issued stay valid. APP_NOT_CONFIDENTIAL for a public app.',
    shape: CREDENTIALS,
    notFound: APP_NOT_FOUND,
    auth: MANAGE,
  }),
  grants.list({
    operationId: 'listGrants',
    summary: 'The apps you authorized',
    description: 'Newest first, with their scopes and last use. A player token only.',
    field: 'myGrants',
    reply: { kind: 'list', field: 'grants' },
    shape: GRANT,
    auth: 'player',
  }),
  grants.remove({
    operationId: 'revokeGrant',
    summary: 'Revoke an app’s access',
    description: 'The grant and every token issued under it. A player token only.',
    reply: { kind: 'empty' },
    shape: {},
    notFound: ['GRANT_NOT_FOUND'],
    auth: 'player',
  }),
];
