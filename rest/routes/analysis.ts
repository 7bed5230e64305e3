import { LEAVES } from '../shape.js';
import { body, path, type Route } from '../route.js';

/** Analysis (issue 19): the best moves of a position, a game turn by turn, and the robots a game may seat. */

const READ = 'scope:games:read' as const;
const MOVES = { expand: { moves: LEAVES, played: LEAVES } };

export const ANALYSIS_ROUTES: readonly Route[] = [
  {
    operationId: 'analyzePosition',
    method: 'POST',
    path: '/analyses',
    tag: 'Analysis',
    summary: 'Analyse a position',
    description:
      'Exactly one of gameId (+ version), gcg (+ turn) or cgp: the top moves by equity and the rank of the move made there. A live game answers 403 ANALYSIS_NOT_ALLOWED, except for your own turns against a robot in a game created with allowHints.',
    field: 'analyzePosition',
    args: { input: body() },
    reply: { kind: 'object' },
    shape: MOVES,
    auth: READ,
  },
  {
    operationId: 'getGameAnalysis',
    method: 'GET',
    path: '/games/{id}/analysis',
    tag: 'Analysis',
    summary: 'A game turn by turn',
    description: 'Every move made: the best move and the equity lost. The same rule as POST /v1/analyses for a live game.',
    field: 'gameAnalysis',
    args: { gameId: path('id') },
    reply: { kind: 'object' },
    shape: { expand: { turns: { expand: { played: LEAVES, best: LEAVES } } } },
    auth: READ,
  },
  {
    operationId: 'listRobots',
    method: 'GET',
    path: '/robots',
    tag: 'Analysis',
    summary: 'The robot opponents',
    description: 'Every robot a game may seat: pass its handle as the opponent of POST /v1/games.',
    field: 'robots',
    args: {},
    reply: { kind: 'list' },
    shape: LEAVES,
    auth: 'none',
    replaces: 'GET /rest/robots',
  },
];
