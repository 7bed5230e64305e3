import { LEAVES, type Shape } from '../shape.js';
import { body, path, type Route } from '../route.js';

/**
 * Third-party apps you registered and the apps you authorized (docs/apps.md). Apps: a player token or an
 * API key with apps:manage; grants: a player token only (an API key or an app's token is 403).
 */

const MANAGE = 'scope:apps:manage' as const;
const APP: Shape = LEAVES;
const CREDENTIALS: Shape = { expand: { app: APP } };
const GRANT: Shape = { expand: { app: LEAVES } };

export const APP_ROUTES: readonly Route[] = [
  {
    operationId: 'listApps',
    method: 'GET',
    path: '/apps',
    tag: 'Apps',
    summary: 'Your third-party apps',
    description: 'Oldest first; never their secrets.',
    field: 'myApps',
    args: {},
    reply: { kind: 'list', field: 'apps' },
    shape: APP,
    auth: MANAGE,
  },
  {
    operationId: 'registerApp',
    method: 'POST',
    path: '/apps',
    tag: 'Apps',
    summary: 'Register a third-party app',
    description:
      'Its id is the OAuth client_id. A CONFIDENTIAL app’s clientSecret is answered this once (null for a PUBLIC app). A refused redirect URI is APP_REDIRECT_URI_INVALID naming which one (`field`) and why (`details.reason`).',
    field: 'registerApp',
    args: { input: body() },
    reply: { kind: 'object' },
    shape: CREDENTIALS,
    status: 201,
    location: (v) => `/v1/apps/${encodeURIComponent(String((v['app'] as { id: string }).id))}`,
    auth: MANAGE,
  },
  {
    operationId: 'getApp',
    method: 'GET',
    path: '/apps/{id}',
    tag: 'Apps',
    summary: 'One of your apps',
    field: 'myApps',
    args: {},
    reply: { kind: 'item', field: 'apps', param: 'id', notFound: 'APP_NOT_FOUND' },
    shape: APP,
    auth: MANAGE,
  },
  {
    operationId: 'updateApp',
    method: 'PATCH',
    path: '/apps/{id}',
    tag: 'Apps',
    summary: 'Change an app’s name, redirect URIs or icon',
    description: 'A field left out stays as it is; `"iconUrl": null` removes the icon. Its grants and tokens stay valid.',
    field: 'updateApp',
    args: { id: path('id'), input: body() },
    reply: { kind: 'object' },
    shape: APP,
    notFound: ['APP_NOT_FOUND'],
    auth: MANAGE,
  },
  {
    operationId: 'deleteApp',
    method: 'DELETE',
    path: '/apps/{id}',
    tag: 'Apps',
    summary: 'Delete an app',
    description: 'With every grant players gave it and every token it holds.',
    field: 'deleteApp',
    args: { id: path('id') },
    reply: { kind: 'empty' },
    shape: {},
    notFound: ['APP_NOT_FOUND'],
    auth: MANAGE,
  },
  {
    operationId: 'rotateAppSecret',
    method: 'POST',
    path: '/apps/{id}/secret',
    tag: 'Apps',
    summary: 'A new client secret for a confidential app',
    description:
      'Answered this once; the old secret stops working at once, tokens already issued stay valid. APP_NOT_CONFIDENTIAL for a public app.',
    field: 'rotateAppSecret',
    args: { id: path('id') },
    reply: { kind: 'object' },
    shape: CREDENTIALS,
    notFound: ['APP_NOT_FOUND'],
    auth: MANAGE,
  },
  {
    operationId: 'listGrants',
    method: 'GET',
    path: '/me/grants',
    tag: 'Apps',
    summary: 'The apps you authorized',
    description: 'Newest first, with their scopes and last use. A player token only.',
    field: 'myGrants',
    args: {},
    reply: { kind: 'list', field: 'grants' },
    shape: GRANT,
    auth: 'player',
  },
  {
    operationId: 'revokeGrant',
    method: 'DELETE',
    path: '/me/grants/{id}',
    tag: 'Apps',
    summary: 'Revoke an app’s access',
    description: 'The grant and every token issued under it. A player token only.',
    field: 'revokeGrant',
    args: { id: path('id') },
    reply: { kind: 'empty' },
    shape: {},
    notFound: ['GRANT_NOT_FOUND'],
    auth: 'player',
  },
];
