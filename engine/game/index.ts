/** The game as an event log (issue 3): events, the fold, commands, views, the provably fair bag. */
export * from './events.js';
export * from './state.js';
export { apply, replay, createState, type ReplayError } from './apply.js';
export { decide, createGame, lookup, playEvent, challengeEvents, endIfOver, drawEvent, COMMAND_KINDS, type Command, type DecideContext } from './decide.js';
export { viewFor, spectatorView, legalActions, ACTION_KINDS, type ActionKind, type SeatView, type SpectatorView } from './view.js';
export { commitment, drawIndex, drawTiles } from './bag.js';
export { verifyDraws } from './verify.js';
export * from './end.js';
export * from './free-trade.js';
export { CHALLENGE_EFFECTS, challengePoints, type ChallengeEffect } from './challenge.js';
export { matchGames, matchResult, type MatchResult } from './match.js';
