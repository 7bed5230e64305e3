import { cite, ruleError } from '../errors.js';
import { err, type Result } from '../result.js';
import { deadline, disputeHold, isCorrespondence } from './clock.js';
import { decide } from './decide.js';
import type { GameEvent } from './events.js';
import type { GameState } from './state.js';

/**
 * The events that settle an overdue correspondence turn at `now` (issue 5; platform-differences §2.1
 * "Correspondence" and "Timeout"): the player to move, whose turn time and bank have run out, loses by
 * timeout (`timed-out`, `game-ended` reason `timed-out`, scores stand as on Woogles); but when the
 * opponent has already played out and only the final pass or challenge is pending, the player is
 * passed for instead (`pass` with `auto: 'timeout'`) and the game ends as played out. Every event is
 * stamped `at: now`.
 *
 * Errors: NOT_TIMED (no correspondence clock), GAME_OVER, NOT_OVERDUE (details: `deadline`, `now`; while open
 * disputes stop the clock, `deadline` null and `pausedByDisputes`).
 */
export const timeoutOutcome = (state: GameState, now: string, seed: string | null): Result<GameEvent[]> => {
  const c = cite('woogles', 'liwords pkg/gameplay/end.go, game.go (correspondence timeout)', 'V');
  if (!isCorrespondence(state.timeControl)) {
    return err(
      ruleError('NOT_TIMED', `This game is ${state.timeControl.kind}: it has no deadline to run out.`, { kind: state.timeControl.kind }),
    );
  }
  if (state.status === 'ended') return err(ruleError('GAME_OVER', 'The game is over.', {}));
  const hold = disputeHold(state);
  if (hold) {
    const which = hold.disputes.join(', ');
    return err(
      ruleError(
        'NOT_OVERDUE',
        `The clock has stood still since ${hold.since} while dispute ${which} awaits a director (rule set time.disputePausesClock): no time runs out until it is ruled.`,
        { deadline: null, now, seat: state.turn, pausedByDisputes: hold.disputes, since: hold.since },
      ),
    );
  }
  const due = deadline(state);
  if (due === null || Date.parse(now) < Date.parse(due)) {
    return err(
      ruleError(
        'NOT_OVERDUE',
        `${state.players[state.turn].name} has until ${due} to move; it is ${now}.`,
        { deadline: due, now, seat: state.turn },
        c,
      ),
    );
  }
  return decide(state, { kind: 'timeout', seat: state.turn }, { lexicon: null, seed, now });
};
