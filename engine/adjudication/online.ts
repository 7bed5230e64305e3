import type { RuleSet } from '../rules/ruleset.js';
import type { AbortRequest, IdleOpponent } from './dispute.js';
import { citeParams, noRule, plural, ruling, type Ruling } from './ruling.js';

/** An abort (cancel) request: `play.abortRequestsPerPlayer`, `abortMaxEvents`, `abortMinReceiverSeconds`, `abortAutoAcceptSeconds` (Woogles meta_events.go). */
export const adjudicateAbortRequest = (d: AbortRequest, rs: RuleSet): Ruling => {
  const p = rs.play;
  const cites = citeParams(
    rs,
    'play.abortRequestsPerPlayer',
    'play.abortMaxEvents',
    'play.abortMinReceiverSeconds',
    'play.abortAutoAcceptSeconds',
  );
  if (p.abortRequestsPerPlayer === null)
    return noRule(`${rs.name} has no abort request: a game is resigned or played out.`, citeParams(rs, 'play.abortRequestsPerPlayer'));
  const refuse = (why: string): Ruling => ruling('REQUEST_REFUSED', [], cites, why);
  if (d.earlierRequests >= p.abortRequestsPerPlayer)
    return refuse(`Each player may ask to abort ${plural(p.abortRequestsPerPlayer, 'time')} per game, and the player already has.`);
  if (d.gameEvents > p.abortMaxEvents)
    return refuse(`An abort may not be asked for after more than ${p.abortMaxEvents} game events; this game has ${d.gameEvents}.`);
  if (d.receiverSecondsLeft < p.abortMinReceiverSeconds)
    return refuse(
      `An abort may not be asked for when the opponent has less than ${p.abortMinReceiverSeconds} seconds left; the opponent has ${d.receiverSecondsLeft}.`,
    );
  const aborted = (why: string): Ruling => ruling('GAME_ABORTED', [{ type: 'game-ends', reason: 'aborted; no winner' }], cites, why);
  switch (d.reply) {
    case 'accepted':
      return aborted('The opponent accepted the abort request, so the game is cancelled with no winner.');
    case 'declined':
      return ruling('GAME_CONTINUES', [], cites, 'The opponent declined the abort request, so the game goes on.');
    case 'none':
      return d.secondsWithoutReply >= p.abortAutoAcceptSeconds
        ? aborted(
            `An abort request unanswered for ${p.abortAutoAcceptSeconds} seconds is accepted, so the game is cancelled with no winner.`,
          )
        : ruling(
            'WINDOW_OPEN',
            [],
            cites,
            `The opponent has until ${p.abortAutoAcceptSeconds} seconds after the request to answer; after that it is accepted.`,
          );
  }
};

/** A nudge of an idle or disconnected opponent: `play.nudgeRequestsPerPlayer`, `play.nudgeSeconds` (Woogles REQUEST_ADJUDICATION). */
export const adjudicateIdleOpponent = (d: IdleOpponent, rs: RuleSet): Ruling => {
  const p = rs.play;
  const cites = citeParams(rs, 'play.nudgeRequestsPerPlayer', 'play.nudgeSeconds');
  if (p.nudgeRequestsPerPlayer === null)
    return noRule(`${rs.name} has no nudge: an absent opponent is a matter for the clock.`, citeParams(rs, 'play.nudgeRequestsPerPlayer'));
  if (d.requesterClockRunning)
    return ruling('REQUEST_REFUSED', [], cites, 'It is the player’s own turn (their clock is running), so they cannot nudge the opponent.');
  if (d.earlierRequests >= p.nudgeRequestsPerPlayer)
    return ruling(
      'REQUEST_REFUSED',
      [],
      cites,
      `Each player may nudge ${plural(p.nudgeRequestsPerPlayer, 'time')} per game, and the player already has.`,
    );
  if (d.answered) return ruling('GAME_CONTINUES', [], cites, 'The opponent answered the nudge, so the game goes on.');
  return d.secondsUnanswered >= p.nudgeSeconds
    ? ruling(
        'GAME_FORFEITED',
        [
          { type: 'game-forfeited', loser: 'opponent', margin: null },
          { type: 'winner', party: 'player' },
        ],
        cites,
        `The nudge went unanswered for ${p.nudgeSeconds} seconds, so the player wins by forfeit.`,
        'ALLOWED',
      )
    : ruling(
        'WINDOW_OPEN',
        [],
        cites,
        `The opponent has until ${p.nudgeSeconds} seconds after the nudge to answer; after that the player wins by forfeit.`,
      );
};
