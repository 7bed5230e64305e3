import { ruleError, type Citation, type RuleError } from '../../errors.js';

/**
 * The stable codes of every error the pairing methods and {@link validatePairing} return (issue 30,
 * items 2 and 11). Clients switch on them; the messages name the players (entrant numbers) and the
 * request field at fault.
 */
export const PAIRING_ERROR_CODES = [
  /** A player named in `prePaired`, a pairing or the roster is not an active player of the division. */
  'UNKNOWN_PLAYER',
  /** The same entrant number appears twice in `players` or in `roster`. */
  'DUPLICATE_PLAYER',
  /** A player appears in two couples, or twice in one round. */
  'PLAYER_PAIRED_TWICE',
  /** An active player has neither a game nor the bye. */
  'PLAYER_NOT_PAIRED',
  /** A couple names the same player twice. */
  'SELF_PAIRING',
  /** A bye in a round with an even number of players, or more than one bye. */
  'BYE_NOT_NEEDED',
  /** A round with an odd number of players and no bye. */
  'BYE_MISSING',
  /** Two players would meet more often than `maxRepeats` allows, and no pairing avoids it. */
  'REPEAT_LIMIT',
  /** `round` is not between 1 and `totalRounds`. */
  'ROUND_OUT_OF_RANGE',
  /** A fixed schedule (round robin, Initial Fontes) has no such round. */
  'ROUND_NOT_IN_SCHEDULE',
  /** An active player is missing from the `roster` a fixed schedule is drawn from. */
  'PLAYER_NOT_IN_ROSTER',
  /** A request field is out of its range (`maxRepeats`, `gibsonSpreadPerGame`, `byeChoice`, `prizePlaces`). */
  'INVALID_REQUEST',
  /** `manual` is not a method: the director gives the pairs, checked by `validatePairing`. */
  'MANUAL_METHOD',
] as const;
export type PairingErrorCode = (typeof PAIRING_ERROR_CODES)[number];

/** A pairing {@link RuleError} with one of the {@link PAIRING_ERROR_CODES}. */
export const pairingError = (code: PairingErrorCode, message: string, details?: Record<string, unknown>, citation?: Citation): RuleError =>
  ruleError(code, message, details, citation);
