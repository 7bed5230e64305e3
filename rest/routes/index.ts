import type { Route } from '../route.js';
import { ACCOUNT_ROUTES } from './accounts.js';
import { SESSION_ROUTES } from './sessions.js';
import { ACCOUNT_DATA_ROUTES } from './account.js';
import { ANALYSIS_ROUTES } from './analysis.js';
import { GAME_ROUTES } from './games.js';
import { MATCH_ROUTES } from './matches.js';
import { LOBBY_ROUTES } from './lobby.js';
import { RULE_ROUTES } from './rules.js';
import { TOURNAMENT_ROUTES } from './tournaments.js';
import { WEBHOOK_ROUTES } from './webhooks.js';
import { PUSH_ROUTES } from './push.js';
import { NOTIFICATION_ROUTES } from './notifications.js';
import { EMAIL_ROUTES } from './email.js';
import { APP_ROUTES } from './apps.js';
import { PLAYER_ROUTES } from './players.js';

/** Every /v1 route, in the order of the document: the route table of the REST edge. */
export const ROUTES: readonly Route[] = [
  ...GAME_ROUTES,
  ...MATCH_ROUTES,
  ...LOBBY_ROUTES,
  ...TOURNAMENT_ROUTES,
  ...ACCOUNT_ROUTES,
  ...SESSION_ROUTES,
  ...PLAYER_ROUTES,
  ...ACCOUNT_DATA_ROUTES,
  ...APP_ROUTES,
  ...WEBHOOK_ROUTES,
  ...PUSH_ROUTES,
  ...NOTIFICATION_ROUTES,
  ...EMAIL_ROUTES,
  ...RULE_ROUTES,
  ...ANALYSIS_ROUTES,
];

/** The document's tags, in order, with what each holds. */
export const TAGS: readonly { readonly name: string; readonly description: string }[] = [
  { name: 'Games', description: 'Create, read and play games; the score sheet and the GCG record; pauses, timeouts, aborts; your inbox.' },
  { name: 'Matches', description: 'A series of games between two players, decided on combined points.' },
  {
    name: 'Lobby',
    description: 'Finding an opponent: open seeks, challenges to a named player and rematches, correspondence pairing requests.',
  },
  {
    name: 'Tournaments',
    description:
      'Tournaments of an event: divisions, players, rounds and pairings, results and tally slips, standings and crosstables, TSH .t files.',
  },
  { name: 'Accounts', description: 'Registering, signing in, the calling player and API keys.' },
  {
    name: 'Players',
    description: 'A player’s page (ratings, history, record, recent games) and chart, the leaderboards, hiding your page.',
  },
  {
    name: 'Apps',
    description: 'Third-party apps you registered for OAuth 2.0 (client ids, redirect URIs, secrets), and the apps you authorized.',
  },
  { name: 'Webhooks', description: 'Webhook subscriptions (signed POSTs to your endpoint) and their delivery log.' },
  { name: 'Push', description: 'Web Push: the server’s public key and the browsers of yours that get “your move” and “game over”.' },
  { name: 'E-mail', description: 'Your address for notification mails: set it, confirm it through its mail’s link, remove it.' },
  {
    name: 'Notifications',
    description:
      'Your notification preferences (which events by push, e-mail, webhook; digest; quiet hours) and your latest notifications.',
  },
  { name: 'Rules', description: 'Rule-set presets, lexicons and the stateless checks: open to anyone.' },
  {
    name: 'Analysis',
    description: 'The best moves of a position and a finished game turn by turn (a live game only with hints against a robot).',
  },
  { name: 'Pictures', description: 'A game’s board as SVG or PNG at any version, and its replay as an animated GIF.' },
];
