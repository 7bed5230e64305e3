import type { RuleError } from '../engine/errors.js';
import type { Result } from '../engine/result.js';
import { leaderboard, MAX_LEADERBOARD_PAGE, type LeaderboardEntry } from '../service/leaderboard.js';
import {
  historyOf,
  playerProfile,
  ratingHistory,
  setProfileHidden,
  type OpponentRecord,
  type PlayerName,
  type PlayerProfile,
  type ProfileRating,
  type RatingHistory,
  type RatingPoint,
  type RecentGame,
  type RecentResult,
} from '../service/player-profile.js';
import { builder } from './builder.js';
import { connectionOf, requireForward } from './connection.js';
import { requirePlayer, type Context } from './context.js';
import { GameStateEnum } from './enums.js';
import { AUTH_ERRORS, FieldInputError, fieldInputErrorType, NotFoundError, resultUnion, valueOrFieldError } from './errors.js';

/**
 * A player's page and the leaderboards (issue 33, item 4; docs/players.md): `playerProfile`,
 * `ratingHistory`, `leaderboard` and `setProfileHidden`. Open to anonymous callers except the setting;
 * a hidden page answers PLAYER_NOT_FOUND to everyone but its player.
 */

/** A rating input the service refused: UNKNOWN_CATEGORY (`details.known` lists the categories), PAGE_SIZE_INVALID, CURSOR_INVALID. */
export class RatingInputError extends FieldInputError {
  constructor(e: RuleError, field: string) {
    super(e, field);
    // The leaderboard is a connection, whose errors reach the client in `errors` with the extensions only: the known ids go there too.
    if (Array.isArray(e.details?.['known'])) (this.extensions as Record<string, unknown>)['known'] = e.details['known'];
  }
}

fieldInputErrorType(
  RatingInputError,
  'RatingInputError',
  'A rating input refused: UNKNOWN_CATEGORY (details.known lists the category ids), PAGE_SIZE_INVALID or CURSOR_INVALID (leaderboard paging); `field` names the argument.',
  'category, first, after',
);

const value = <T>(r: Result<T, RuleError>): T => valueOrFieldError(r, RatingInputError, ['PLAYER_NOT_FOUND']);

const viewerOf = (ctx: Context): string | null => (ctx.principal.kind === 'player' ? ctx.principal.player.id : null);

/** The path of a category's chart: the id's `/` is escaped, so it stays one path segment. */
export const chartPath = (handle: string, category: string, ext: 'svg' | 'png' = 'svg'): string =>
  `/v1/players/${encodeURIComponent(handle)}/ratings/${encodeURIComponent(category)}/chart.${ext}`;

const PlayerCardType = builder.objectRef<PlayerName>('PlayerCard').implement({
  description: 'A player as a page names them (a deleted account keeps the pseudonym its handle became).',
  fields: (t) => ({
    handle: t.exposeString('handle', { description: 'The handle: the player’s page is playerProfile(handle:).' }),
    displayName: t.exposeString('displayName', { description: 'The name to show.' }),
  }),
});

const RatingPointType = builder.objectRef<RatingPoint>('RatingPoint').implement({
  description: 'The rating after one rated game.',
  fields: (t) => ({
    gameId: t.exposeID('gameId', { description: 'The rated game (game(id:), GET /v1/games/{id}).' }),
    opponent: t.field({
      type: PlayerCardType,
      nullable: true,
      description: 'Who it was against; null if unknown.',
      resolve: (p) => p.opponent,
    }),
    score: t.exposeFloat('score', { description: 'The result for this player: 1 a win, 0.5 a draw, 0 a loss.' }),
    ratingBefore: t.exposeFloat('ratingBefore', { description: 'The rating before the game.' }),
    rating: t.exposeFloat('rating', { description: 'The rating after the game.' }),
    deviation: t.exposeFloat('deviation', { description: 'The rating deviation (RD) after the game.' }),
    ratedAt: t.expose('ratedAt', { type: 'DateTime', description: 'When the game was rated (its end).' }),
  }),
});

const CategoryRatingType = builder.objectRef<ProfileRating & { handle: string }>('CategoryRating').implement({
  description: 'A player’s Glicko-2 rating in one category, as of their last rated game there.',
  fields: (t) => ({
    category: t.exposeString('category', { description: 'The category id: rule-set family/pace, e.g. tournament/correspondence.' }),
    rating: t.exposeFloat('rating', { description: 'The rating (Glicko scale, a new player 1500).' }),
    deviation: t.exposeFloat('deviation', {
      description: 'The rating deviation (RD): the true strength is within ±2·RD with about 95% confidence.',
    }),
    provisional: t.exposeBoolean('provisional', {
      description: 'The deviation is still at or above the provisional threshold (110): the rating says little yet.',
    }),
    games: t.exposeInt('games', { description: 'Rated games played in the category.' }),
    lastRatedAt: t.expose('lastRatedAt', { type: 'DateTime', description: 'When the last rated game ended.' }),
    history: t.field({
      type: [RatingPointType],
      description: 'The rating after each rated game in the category, oldest first.',
      resolve: (r, _args, ctx) => historyOf({ db: ctx.db }, r.playerId, r.category),
    }),
    chartUrl: t.string({
      description: 'The history as an SVG chart (…/chart.png for PNG).',
      resolve: (r) => chartPath(r.handle, r.category),
    }),
  }),
});

const OpponentRecordType = builder.objectRef<OpponentRecord>('OpponentRecord').implement({
  description: 'How a player has done against one opponent over their finished games, rated and casual (aborted games not counted).',
  fields: (t) => ({
    opponent: t.field({ type: PlayerCardType, description: 'The opponent.', resolve: (r) => r.opponent }),
    wins: t.exposeInt('wins', { description: 'Games won.' }),
    draws: t.exposeInt('draws', { description: 'Games tied.' }),
    losses: t.exposeInt('losses', { description: 'Games lost.' }),
    games: t.exposeInt('games', { description: 'Games counted: wins + draws + losses.' }),
  }),
});

const PlayerOutcomeEnum = builder.enumType('PlayerOutcome', {
  description: 'How a finished game went for one player.',
  values: {
    WIN: { value: 'win', description: 'Won.' },
    LOSS: { value: 'loss', description: 'Lost.' },
    DRAW: { value: 'draw', description: 'Tied.' },
    ABORTED: { value: 'aborted', description: 'Cancelled before its first turn: no result.' },
  } as const,
});

const RecentGameType = builder.objectRef<RecentGame>('RecentGame').implement({
  description: 'One of a player’s latest games, as any spectator may see it: never a rack; of a game in play only who and where it stands.',
  fields: (t) => ({
    gameId: t.exposeID('gameId', { description: 'The game (game(id:)).' }),
    status: t.field({ type: GameStateEnum, description: 'Where the game stands.', resolve: (g) => g.status }),
    opponent: t.field({
      type: PlayerCardType,
      nullable: true,
      description: 'The other player; null for a name without an account.',
      resolve: (g) => g.opponent,
    }),
    outcome: t.field({
      type: PlayerOutcomeEnum,
      nullable: true,
      description: 'How it went for this player; null while it is on.',
      resolve: (g): RecentResult | null => g.result,
    }),
    score: t.int({ nullable: true, description: 'This player’s final score; null while it is on.', resolve: (g) => g.scores?.[0] ?? null }),
    opponentScore: t.int({
      nullable: true,
      description: 'The opponent’s final score; null while it is on.',
      resolve: (g) => g.scores?.[1] ?? null,
    }),
    rated: t.exposeBoolean('rated', { description: 'A rated game (its end changes both ratings).' }),
    ratingCategory: t.exposeString('ratingCategory', { nullable: true, description: 'The rated game’s category; null for a casual one.' }),
    ratingAfter: t.exposeFloat('ratingAfter', {
      nullable: true,
      description: 'This player’s rating after the game; null if not rated (yet).',
    }),
    ratingDelta: t.exposeFloat('ratingDelta', {
      nullable: true,
      description: 'What the game changed the rating by; null if not rated (yet).',
    }),
    startedAt: t.expose('startedAt', { type: 'DateTime', description: 'When the game was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'Its last change.' }),
    url: t.string({
      description: 'The game in the REST API (a game in play needs a credential).',
      resolve: (g) => `/v1/games/${g.gameId}`,
    }),
    playUrl: t.string({ description: 'The game on the play page (/play).', resolve: (g) => `/play#game=${g.gameId}` }),
    boardUrl: t.string({ description: 'The board picture (SVG; board.png for PNG).', resolve: (g) => `/v1/games/${g.gameId}/board.svg` }),
  }),
});

const PlayerProfileType = builder.objectRef<PlayerProfile>('PlayerProfile').implement({
  description: 'A player’s page: ratings with their history, record against each opponent, recent games. Public unless hidden.',
  fields: (t) => ({
    handle: t.exposeString('handle', { description: 'The handle.' }),
    displayName: t.exposeString('displayName', { description: 'The name to show.' }),
    memberSince: t.expose('memberSince', { type: 'DateTime', description: 'When the player registered.' }),
    hidden: t.exposeBoolean('hidden', {
      description: 'The player hid the page (setProfileHidden): only they see it, and it is true only for them.',
    }),
    ratings: t.field({
      type: [CategoryRatingType],
      description: 'The rating in each category the player has been rated in, by category id.',
      resolve: (p) => p.ratings.map((r) => ({ ...r, handle: p.handle })),
    }),
    records: t.field({
      type: [OpponentRecordType],
      description: 'The record against each opponent, most games first.',
      resolve: (p) => p.records,
    }),
    recordGames: t.exposeInt('recordGames', { description: 'How many finished games the records count (the latest 500 at most).' }),
    recentGames: t.field({
      type: [RecentGameType],
      description: 'The latest 10 games in play or over, latest change first (games waiting for an opponent are not listed).',
      resolve: (p) => p.recentGames,
    }),
  }),
});

const RatingHistoryType = builder.objectRef<RatingHistory>('RatingHistory').implement({
  description: 'A player’s rating after each rated game of one category, oldest first.',
  fields: (t) => ({
    player: t.field({ type: PlayerCardType, description: 'Whose history.', resolve: (h) => h.player }),
    category: t.exposeString('category', { description: 'The category id.' }),
    points: t.field({ type: [RatingPointType], description: 'One point per rated game, oldest first.', resolve: (h) => h.points }),
    chartUrl: t.string({ description: 'The same as an SVG chart.', resolve: (h) => chartPath(h.player.handle, h.category) }),
  }),
});

const LeaderboardEntryType = builder.objectRef<LeaderboardEntry>('LeaderboardEntry').implement({
  description: 'A listed player of a leaderboard.',
  fields: (t) => ({
    rank: t.exposeInt('rank', { description: 'The place in this list, 1 the best; players of equal rating are ordered by account id.' }),
    handle: t.exposeString('handle', { description: 'The player’s handle.' }),
    displayName: t.exposeString('displayName', { description: 'The name to show.' }),
    rating: t.exposeFloat('rating', { description: 'The rating.' }),
    deviation: t.exposeFloat('deviation', { description: 'The rating deviation (RD).' }),
    provisional: t.exposeBoolean('provisional', { description: 'In the provisional list (RD at or above 110).' }),
    games: t.exposeInt('games', { description: 'Rated games in the category.' }),
    lastRatedAt: t.expose('lastRatedAt', { type: 'DateTime', description: 'When the last rated game ended.' }),
  }),
});

const ProfileSettingType = builder.objectRef<{ readonly hidden: boolean }>('ProfileSetting').implement({
  description: 'Whether your page is hidden.',
  fields: (t) => ({ hidden: t.exposeBoolean('hidden', { description: 'Hidden: only you see your page, and you are on no leaderboard.' }) }),
});

const CATEGORY_ARG = 'A rating category id, rule-set family/pace: tournament/correspondence, friendly/recorded …';

builder.queryFields((t) => ({
  playerProfile: t.field({
    type: PlayerProfileType,
    description: 'A player’s page, by handle. Anyone may read it unless the player hid it; a hidden or deleted player is PLAYER_NOT_FOUND.',
    errors: { types: [NotFoundError], directResult: true, union: resultUnion('PlayerProfileResult', 'PlayerProfile') },
    args: { handle: t.arg.string({ required: true, description: 'The player’s handle.' }) },
    resolve: async (_root, args, ctx) => value(await playerProfile({ db: ctx.db }, viewerOf(ctx), args.handle)),
  }),
  ratingHistory: t.field({
    type: RatingHistoryType,
    description: 'A player’s rating history in one category (what their chart draws). As playerProfile for who may read it.',
    errors: { types: [NotFoundError, RatingInputError], directResult: true, union: resultUnion('RatingHistoryResult', 'RatingHistory') },
    args: {
      handle: t.arg.string({ required: true, description: 'The player’s handle.' }),
      category: t.arg.string({ required: true, description: CATEGORY_ARG }),
    },
    resolve: async (_root, args, ctx) => value(await ratingHistory({ db: ctx.db }, viewerOf(ctx), args.handle, args.category)),
  }),
  leaderboard: t.connection(
    {
      type: LeaderboardEntryType,
      description: `A category’s leaderboard, best first: established players, or with provisional: true the provisional ones (a list apart). Hidden and deleted players are never listed. Forward pagination, at most ${MAX_LEADERBOARD_PAGE} a page. An unknown category is a RatingInputError (UNKNOWN_CATEGORY) in errors.`,
      args: {
        category: t.arg.string({ required: true, description: CATEGORY_ARG }),
        provisional: t.arg.boolean({ required: false, description: 'The provisional players’ list (default false: the established).' }),
      },
      resolve: async (_root, args, ctx) => {
        requireForward('leaderboard', args);
        const page = value(
          await leaderboard(
            { db: ctx.db },
            { category: args.category, provisional: args.provisional ?? false, first: args.first ?? null, after: args.after ?? null },
          ),
        );
        return connectionOf(page);
      },
    },
    { description: 'A page of a leaderboard.' },
    { description: 'One listed player, with its cursor.' },
  ),
}));

builder.mutationFields((t) => ({
  setProfileHidden: t.field({
    type: ProfileSettingType,
    description:
      'Hides your page (only you see it; you leave every leaderboard) or shows it again. Your games stay visible as games are. Needs keys:manage (a player token holds it).',
    authScopes: { scope: 'keys:manage' },
    errors: { types: [...AUTH_ERRORS, NotFoundError], directResult: true, union: resultUnion('SetProfileHiddenResult', 'ProfileSetting') },
    args: { hidden: t.arg.boolean({ required: true, description: 'true hides the page, false shows it.' }) },
    resolve: async (_root, args, ctx) => value(await setProfileHidden({ db: ctx.db }, requirePlayer(ctx).player.id, args.hidden)),
  }),
}));
