import { DEFAULT_LEADERBOARD_PAGE, MAX_LEADERBOARD_PAGE } from '../../service/leaderboard.js';
import { bodyField, path, query, type Route } from '../route.js';
import { LEAVES, type Shape } from '../shape.js';

/** Players' pages, rating histories and the leaderboards (docs/players.md). */

const CARD: Shape = LEAVES;
/** A player's page: ratings (without their histories: …/ratings/{category}/history has them), records, recent games. */
const PROFILE: Shape = {
  expand: {
    ratings: LEAVES,
    records: { expand: { opponent: CARD } },
    recentGames: { expand: { opponent: CARD } },
  },
};
const HISTORY: Shape = { expand: { player: CARD, points: { expand: { opponent: CARD } } } };

const CATEGORY_PARAM = ' The category id has a slash: write it escaped, `tournament%2Fcorrespondence`.';

export const PLAYER_ROUTES: readonly Route[] = [
  {
    operationId: 'getPlayerProfile',
    method: 'GET',
    path: '/players/{handle}',
    tag: 'Players',
    summary: 'A player’s page',
    description:
      'Ratings per category, record against each opponent, recent games. Open to anyone unless the player hid it; a hidden or deleted player is 404 PLAYER_NOT_FOUND (as an unknown handle).',
    field: 'playerProfile',
    args: { handle: path('handle') },
    reply: { kind: 'object' },
    shape: PROFILE,
    notFound: ['PLAYER_NOT_FOUND'],
    auth: 'none',
  },
  {
    operationId: 'getRatingHistory',
    method: 'GET',
    path: '/players/{handle}/ratings/{category}/history',
    tag: 'Players',
    summary: 'A player’s rating history in one category',
    description: `The rating after each rated game, oldest first (the chart at …/chart.svg draws it).${CATEGORY_PARAM} An unknown category is 404 UNKNOWN_CATEGORY with the known ids in details.known.`,
    field: 'ratingHistory',
    args: { handle: path('handle'), category: path('category') },
    reply: { kind: 'object' },
    shape: HISTORY,
    notFound: ['PLAYER_NOT_FOUND', 'UNKNOWN_CATEGORY'],
    auth: 'none',
  },
  {
    operationId: 'getLeaderboard',
    method: 'GET',
    path: '/leaderboards/{category}',
    tag: 'Players',
    summary: 'A category’s leaderboard',
    description: `Established players best first (equal ratings by account id), or the provisional ones with \`?provisional=true\`; hidden and deleted players are never listed.${CATEGORY_PARAM} Pages forward: follow \`nextCursor\` (or the Link header, rel="next").`,
    field: 'leaderboard',
    args: {
      category: path('category'),
      provisional: query('provisional', 'true for the provisional players’ list (default false).'),
      first: query('first', `Players per page (default ${DEFAULT_LEADERBOARD_PAGE}, at most ${MAX_LEADERBOARD_PAGE}).`),
      after: query('after', 'The `nextCursor` of the page before.'),
    },
    reply: { kind: 'page' },
    shape: LEAVES,
    notFound: ['UNKNOWN_CATEGORY'],
    auth: 'none',
  },
  {
    operationId: 'setProfileHidden',
    method: 'PATCH',
    path: '/me/profile',
    tag: 'Players',
    summary: 'Hide or show your page',
    description: 'Body `{"hidden": true}`: only you see your page and you leave every leaderboard; `false` shows it again.',
    field: 'setProfileHidden',
    args: { hidden: bodyField('hidden') },
    reply: { kind: 'object' },
    shape: LEAVES,
    auth: 'scope:keys:manage',
  },
];
