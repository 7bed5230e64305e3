/** The game as an event log (issue 3): events, the fold, commands, views, the provably fair bag. */
export * from './events.js';
export * from './state.js';
export { apply, replay, type ReplayError } from './apply.js';
export { createState } from './apply/lifecycle.js';
export {
  decide,
  createGame,
  lookup,
  playEvent,
  challengeEvents,
  endIfOver,
  drawEvent,
  COMMAND_KINDS,
  type Command,
  type DecideContext,
} from './decide.js';
export {
  viewFor,
  spectatorView,
  clockView,
  legalActions,
  ACTION_KINDS,
  type ActionKind,
  type ClockView,
  type SeatView,
  type SpectatorView,
} from './view.js';
export { turnViews, type TurnView } from './turn-views.js';
export { commitment, drawIndex, drawTiles } from './bag.js';
export { verifyDraws } from './verify.js';
export * from './end.js';
export * from './free-trade.js';
export { CHALLENGE_EFFECTS, challengePoints, type ChallengeEffect } from './challenge.js';
export { matchGames, matchResult, matchStanding, MATCH_STATUSES, type MatchResult, type MatchStanding, type MatchStatus } from './match.js';
export * from './forfeits.js';
export * from './clock.js';
export * from './clock-state.js';
export { timeoutOutcome } from './timeout.js';
