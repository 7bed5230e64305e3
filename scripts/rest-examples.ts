/**
 * `npm run rest-examples`: plays a short game (and the rest of the API) over /v1 against the real app on
 * an in-memory database, and writes each operation's request and answer to rest/examples.json, where
 * the OpenAPI document (rest/openapi.ts) takes its examples from. Run it after changing what a route
 * answers: test/rest/openapi.test.ts lints the document, and an example that no longer matches its
 * schema fails it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApp } from '../functions/app.js';
import { setBagSeedSourceForTests } from '../service/game-create.js';
import { setRole } from '../store/roles.js';
import { recordStream } from './rest-examples-streams.js';
import { recordTournamentExamples } from './rest-examples-tournaments.js';
import { EXAMPLE_PUSH, recordPushExamples } from './rest-examples-push.js';
import { exampleMail, recordEmailExamples } from './rest-examples-email.js';
import { recordNotificationExamples } from './rest-examples-notifications.js';
import { recordAccountExamples } from './rest-examples-account.js';
import { recordSessionExamples } from './rest-examples-sessions.js';
import { recordAppExamples } from './rest-examples-apps.js';
import { recordPlayerExamples } from './rest-examples-players.js';

const OUT = join(import.meta.dirname, '..', 'rest', 'examples.json');
const GCG = readFileSync(join(import.meta.dirname, '..', 'test', 'fixtures', 'gcg', 'liwords', 'doug_vs_emely.gcg'), 'utf8');

/** Alice's first play: a word from the rack FICDSAU that the bag seed below deals her (the script prints both racks). */
const FIRST_MOVE = '8D ACIDS';

let now = new Date('2026-11-21T12:00:00.000Z');
const app = await createApp({
  dbOptions: { dataDir: 'memory://' },
  env: { ARBITER_JWT_SECRET: 'examples-only-secret-of-at-least-32-chars' },
  now: () => now,
  warn: () => undefined,
  // bot.example has no DNS here: a stub answers a public address so the subscription is made (nothing is delivered).
  webhookDestinations: { allowLocal: false, resolve: () => Promise.resolve(['93.184.215.14']) },
  push: EXAMPLE_PUSH,
  mail: exampleMail(() => now),
});
setBagSeedSourceForTests(() => 'rest-examples-bag-seed-0123456789abcdef');

// The answers are read loosely here: the document's schemas, not this script, say what they hold.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;
const examples: Record<string, { request?: unknown; status: number; response?: unknown }> = {};
const problems: Record<string, unknown> = {};

/** One request; the first answer of each operation (or of each problem status) is kept as its example. */
const call = async (
  operationId: string,
  method: string,
  path: string,
  token?: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Json> => {
  const res = await app.yoga.fetch(`http://localhost/v1${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    // A string is a file sent as it is (its Content-Type in `headers`), anything else JSON.
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const type = res.headers.get('content-type') ?? '';
  const text = await res.text();
  const value = type.includes('json') ? JSON.parse(text) : text || undefined;
  if (res.status >= 400) {
    problems[String(res.status)] ??= value;
    return value;
  }
  examples[operationId] ??= {
    ...(body === undefined ? {} : { request: body }),
    status: res.status,
    ...(value === undefined ? {} : { response: value }),
  };
  return value;
};

const alice = await call('registerPlayer', 'POST', '/players', undefined, {
  handle: 'alice',
  displayName: 'Alice',
  password: 'alice-demo-1',
});
const bob = await call('registerPlayer', 'POST', '/players', undefined, { handle: 'bob', displayName: 'Bob', password: 'bob-demo-1' });
const signIn = async (handle: string) =>
  (await call('createSession', 'POST', '/sessions', undefined, { handle, password: `${handle}-demo-1` })).token as string;
let A = await signIn('alice');
let B = bob.token as string;
void alice;
await call('getMe', 'GET', '/me', A);

// A game, two turns, its score sheet and record; the problems a client meets on the way.
const game = await call('createGame', 'POST', '/games', A, { ruleSet: 'NSA_2008', opponent: 'bob' });
const id = game.id as string;
const bobsView = await call('getGame', 'GET', `/games/${id}`, B);
console.log(`alice holds ${game.myRack}, bob ${bobsView.myRack}`);
await call('submitTurn', 'POST', `/games/${id}/turns`, A, { play: { move: '8G QQ' } }, { 'if-match': `"${game.version}"` });
const played = await call(
  'submitTurn',
  'POST',
  `/games/${id}/turns`,
  A,
  { play: { move: FIRST_MOVE } },
  {
    'if-match': `"${game.version}"`,
    'idempotency-key': 'alice-turn-1',
  },
);
await call('submitTurn', 'POST', `/games/${id}/turns`, B, { pass: true }, { 'if-match': `"${game.version}"` });
const exchanged = await call(
  'submitTurn',
  'POST',
  `/games/${id}/turns`,
  B,
  { exchange: { tiles: String(bobsView.myRack).slice(0, 2) } },
  {
    'if-match': `"${played.version}"`,
  },
);
// Alice disputes Bob's exchange, named by its line's event number on the score sheet: the count comes from the log.
const sheet = await call('listTurns', 'GET', `/games/${id}/turns`, B);
const exchangeLine = (sheet.items as Json[]).find((t) => t.type === 'EXCHANGE')!;
await call(
  'fileDispute',
  'POST',
  `/games/${id}/disputes`,
  A,
  { kind: 'exchange-count-mismatch', concerns: Number(exchangeLine.event), facts: { announced: 3 } },
  { 'if-match': `"${exchanged.version}"`, 'idempotency-key': 'alice-dispute-1' },
);
// Bob appeals the automatic ruling; carol, an admin (made from the command line: `arbiter director grant carol
// --admin`), makes dave a director, and dave rules on the appeal.
const disputed = await call('getGame', 'GET', `/games/${id}`, B);
const appealed = await call(
  'appealDispute',
  'POST',
  `/games/${id}/disputes/1/appeal`,
  B,
  { note: 'I announced three and drew three.' },
  { 'if-match': `"${disputed.version}"`, 'idempotency-key': 'bob-appeal-1' },
);
await call('registerPlayer', 'POST', '/players', undefined, { handle: 'carol', displayName: 'Carol', password: 'carol-demo-1' });
await call('registerPlayer', 'POST', '/players', undefined, { handle: 'dave', displayName: 'Dave', password: 'dave-demo-1' });
await setRole(app.services.db.prisma, 'carol', 'admin');
const C = await signIn('carol');
await call('revokeDirector', 'DELETE', '/directors/dave', C);
await call('grantDirector', 'POST', '/directors/dave', C);
await call(
  'ruleOnDispute',
  'POST',
  `/games/${id}/disputes/1/ruling`,
  await signIn('dave'),
  { remedy: 'NO_PENALTY', note: 'The tally slip shows three tiles drawn.', citation: { source: 'seed-000', rule: 'Disputes' } },
  { 'if-match': `"${appealed.game.version}"`, 'idempotency-key': 'dave-ruling-1' },
);
// Carol makes a club and grants dave its director role: he may then rule on the games played under it.
const club = await call('createOrganization', 'POST', '/organizations', C, { kind: 'CLUB', name: 'Riverside Scrabble Club' });
await call('grantOrganizationDirector', 'POST', `/organizations/${String(club['id'])}/directors/dave`, C);
await call('revokeOrganizationDirector', 'DELETE', `/organizations/${String(club['id'])}/directors/dave`, C);
await call('grantOrganizationDirector', 'POST', `/organizations/${String(club['id'])}/directors/dave`, C);
await call('listOrganizations', 'GET', '/organizations', undefined);
await call('listDisputes', 'GET', `/games/${id}/disputes`, B);
await call('getGameRecord', 'GET', `/games/${id}/record`, A);
await call('getGame', 'GET', '/games/00000000-0000-0000-0000-000000000000', A);
await call('listMyGames', 'GET', '/me/games?first=1', A);
// The streams (rest/events.ts): Bob follows the game from before Alice's first play; Alice her own events.
const gameStream = await recordStream(app, `/games/${id}/events?after=${game.version}`, B, 2);
if (gameStream) examples['streamGameEvents'] = gameStream;
const myStream = await recordStream(app, '/me/events?after=0', A, 2, 1500);
if (myStream) examples['streamMyEvents'] = myStream;

// An open seat taken, a game aborted; a correspondence game with a pause and a timeout claimed.
const open = await call('createGame', 'POST', '/games', A, {});
await call('joinGame', 'POST', `/games/${open.id}/join`, B);
await call('abortGame', 'POST', `/games/${open.id}/abort`, A);
const corr = await call('createGame', 'POST', '/games', A, {
  opponent: 'bob',
  timeControl: { kind: 'correspondence', turnSeconds: 86400 },
});
const asked = await call('requestPause', 'POST', `/games/${corr.id}/pause`, A, { seconds: 7200 });
await call('declinePause', 'POST', `/games/${corr.id}/pause/decline`, B, undefined, { 'if-match': `"${asked.version}"` });
await call('requestPause', 'POST', `/games/${corr.id}/pause`, A, { seconds: 7200 });
await call('acceptPause', 'POST', `/games/${corr.id}/pause/accept`, B);
await call('resumeGame', 'POST', `/games/${corr.id}/resume`, A);
await call(
  'submitTurn',
  'POST',
  `/games/${corr.id}/turns`,
  A,
  { pass: true },
  { 'if-match': `"${(await call('getGame', 'GET', `/games/${corr.id}`, A)).version}"` },
);
now = new Date(now.getTime() + 3 * 86400_000);
[A, B] = [await signIn('alice'), await signIn('bob')]; // the tokens of three days ago have expired
await call('claimTimeout', 'POST', `/games/${corr.id}/claim-timeout`, A);

const imported = await call('importGame', 'POST', '/imports', A, { gcg: GCG, seat: 0 });
// A finished game may be analysed by anyone: a position with the rank of the move made, then every turn.
const analysis = await call('getGameAnalysis', 'GET', `/games/${imported.id}/analysis`, B);
await call('analyzePosition', 'POST', '/analyses', B, { gameId: imported.id, version: analysis.turns[2].version, top: 3 });
await call('listRobots', 'GET', '/robots');

// An over-the-board game recorded live, Alice keeping the score against a visitor without an account.
const otb = await call('createRecordedGame', 'POST', '/recorded-games', A, { players: [{ handle: 'alice' }, { name: 'Visitor' }] });
await call(
  'recordMove',
  'POST',
  `/games/${otb.id}/recorded-moves`,
  A,
  { move: { play: { move: '8F CAT', score: 10 } } },
  { 'if-match': `"${otb.version}"`, 'idempotency-key': 'alice-otb-1' },
);

// A match.
const match = await call('createMatch', 'POST', '/matches', A, {});
await call('joinMatch', 'POST', `/matches/${match.id}/join`, B);
await call('getMatch', 'GET', `/matches/${match.id}`, B);
await call('listMyMatches', 'GET', '/me/matches?first=1', B);

// Keys and webhooks.
const key = await call('createApiKey', 'POST', '/api-keys', A, {
  name: 'tournament bot',
  scopes: ['games:read', 'games:play', 'webhooks:manage'],
});
await call('listApiKeys', 'GET', '/api-keys', A);
await call('getApiKey', 'GET', `/api-keys/${key.apiKey.id}`, A);
const hook = await call('createWebhook', 'POST', '/webhooks', key.key, {
  url: 'https://bot.example/arbiter',
  eventTypes: ['YOUR_TURN', 'GAME_ENDED'],
});
await call('listWebhooks', 'GET', '/webhooks', key.key);
await call('getWebhook', 'GET', `/webhooks/${hook.subscription.id}`, key.key);
await call('updateWebhook', 'PATCH', `/webhooks/${hook.subscription.id}`, key.key, { active: false });
await call('listWebhookDeliveries', 'GET', `/webhooks/${hook.subscription.id}/deliveries?first=5`, key.key);
await call('deleteWebhook', 'DELETE', `/webhooks/${hook.subscription.id}`, key.key);
await recordPushExamples(call, A);
await recordEmailExamples(call, A, (ms) => {
  now = new Date(now.getTime() + ms);
});
await recordNotificationExamples(call, A, app.services.db, () => now);
await call('revokeApiKey', 'DELETE', `/api-keys/${key.apiKey.id}`, A);

// A tournament run by dave (a global director directs every event), bob playing in it.
await recordTournamentExamples({
  call,
  admin: await signIn('carol'),
  director: await signIn('dave'),
  player: B,
  playerHandle: 'bob',
  now: () => now,
  advance: (ms) => {
    now = new Date(now.getTime() + ms);
  },
});

// Alice's data as a download; a player who came for this deletes their account.
await recordAppExamples(call, A, app.services.db, () => now);
await recordSessionExamples(call);
await recordAccountExamples(call, A);
// A player's page, with the timed-out correspondence game rated.
await recordPlayerExamples(call, A, app.services.db, corr.id as string, now);

// Rules.
await call('listRuleSets', 'GET', '/rule-sets');
await call('getRuleSet', 'GET', '/rule-sets/WESPA');
await call('checkRuleSet', 'POST', '/checks/rule-set', undefined, { id: 'WESPA', overrides: { challenge: { points: 10 } } });
await call('listLexicons', 'GET', '/lexicons');
await call('listTileSets', 'GET', '/tile-sets');
// Sets of 21–32 tiles: the example shows the first tiles of each (the list itself is cut to two by trim).
const tileSets = examples['listTileSets']!.response as { items: { tiles: unknown[] }[] };
for (const set of tileSets.items) set.tiles = set.tiles.slice(0, 3);
await call('listLayouts', 'GET', '/layouts');
await call('uploadLexicon', 'POST', '/lexicons', A, { name: 'club', tileSet: 'english', words: 'cat\ndog\nmaña\n' });
await call('checkPlay', 'POST', '/checks/play', undefined, { move: '8D JUKEBOX', rack: 'JUKEBOX' });
await call('checkWords', 'POST', '/checks/words', undefined, { words: ['QI', 'ZZZQ'] });
await call('adjudicate', 'POST', '/adjudications', undefined, { dispute: { kind: 'overtime', secondsOver: 125 }, preset: 'NSA_2008' });
await call('listDisputeKinds', 'GET', '/dispute-kinds');

// The lobby (docs/lobby.md): a seek listed and accepted, one withdrawn; a challenge accepted, one declined, one
// withdrawn; a rematch of the game just ended; pairing requests, one withdrawn, one offered a robot after its wait.
[A, B] = [await signIn('alice'), await signIn('bob')];
const seek = await call('createSeek', 'POST', '/seeks', A, { daysPerMove: 3, ratingMax: 1800 });
await call('listSeeks', 'GET', '/seeks?first=10', undefined);
await call('getSeek', 'GET', `/seeks/${seek.id}`, undefined);
await call('acceptSeek', 'POST', `/seeks/${seek.id}/accept`, B);
const spare = await call('createSeek', 'POST', '/seeks', A, { rated: true });
await call('withdrawSeek', 'DELETE', `/seeks/${spare.id}`, A);
// The seek list's stream (open to anyone; read here signed in): the first seek made, then accepted.
const seekStream = await recordStream(app, '/seeks/events?after=0', A, 2, 1500);
if (seekStream) examples['streamSeekEvents'] = seekStream;
const challenge = await call('createChallenge', 'POST', '/challenges', A, { opponent: 'bob', seat: 1 });
await call('listMyChallenges', 'GET', '/challenges', B);
await call('getChallenge', 'GET', `/challenges/${challenge.id}`, B);
await call('acceptChallenge', 'POST', `/challenges/${challenge.id}/accept`, B);
const declined = await call('createChallenge', 'POST', '/challenges', B, { opponent: 'alice' });
await call('declineChallenge', 'POST', `/challenges/${declined.id}/decline`, A);
const rematch = await call('requestRematch', 'POST', `/games/${corr.id}/rematch`, B);
await call('withdrawChallenge', 'DELETE', `/challenges/${rematch.id}`, B);
const waiting = await call('createPairingRequest', 'POST', '/pairing-requests', B, { ratingRange: 200, waitHours: 24 });
await call('withdrawPairingRequest', 'DELETE', `/pairing-requests/${waiting.id}`, B);
const lonely = await call('createPairingRequest', 'POST', '/pairing-requests', A, { ratingRange: 100, waitHours: 1 });
now = new Date(now.getTime() + 2 * 3600_000);
A = await signIn('alice'); // the token of two hours ago has expired
await call('listMyPairingRequests', 'GET', '/pairing-requests', A);
await call('acceptRobotOffer', 'POST', `/pairing-requests/${lonely.id}/robot`, A);

/** Long lists cut to their first items (still valid against the schemas): rule parameters, presets, list pages, score sheets. */
const trim = (v: unknown, key = ''): unknown => {
  if (Array.isArray(v))
    return (key === 'parameters' || key === 'items' || key === 'facts' ? v.slice(0, 2) : key === 'history' ? v.slice(0, 4) : v).map((x) =>
      trim(x),
    );
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, trim(x, k)]));
  return v;
};

writeFileSync(OUT, `${JSON.stringify(trim({ ...examples, problems }), null, 2)}\n`);
console.log(`rest/examples.json: ${Object.keys(examples).length} operations, problems ${Object.keys(problems).join(', ')}`);
setBagSeedSourceForTests(null);
await app.close();
