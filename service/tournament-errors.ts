import { ruleError, type RuleError } from '../engine/errors.js';
import { err, type Result } from '../engine/result.js';

/**
 * The tournament service's own error codes (issue 30). A command's rule errors are the engine's
 * (engine/tournament/commands.ts TOURNAMENT_ERROR_CODES: NOT_ALLOWED, ROUND_ALREADY_STARTED …) and the
 * pairing methods' (REPEAT_LIMIT …); the rule set's (UNKNOWN_PRESET, BAD_RULE_PARAMETER), the lexicon's
 * (LEXICON_NOT_FOUND) and the idempotency record's (IDEMPOTENCY_KEY_REUSED) come through unchanged.
 */
export const TOURNAMENT_SERVICE_ERROR_CODES = [
  /** No tournament has the id, or it is private and the caller neither directs its event nor plays in it. */
  'TOURNAMENT_NOT_FOUND',
  /** The tournament is no longer at the caller's `expectedVersion` (details: expected, actual). */
  'VERSION_CONFLICT',
  /** createTournament: the caller does not direct the event (nor is a global director or admin). */
  'NOT_DIRECTOR',
  /** createTournament: no organization has the id. */
  'ORGANIZATION_NOT_FOUND',
  /** createTournament: the organization is a club; tournaments belong to events. */
  'NOT_AN_EVENT',
  /** A player named by handle or id has no account. */
  'PLAYER_NOT_FOUND',
  /** listTournaments: `after` is not a cursor this service handed out (or names a tournament the caller cannot see). */
  'CURSOR_INVALID',
  /** An input is malformed (details.field names it). */
  'BAD_INPUT',
  /** TSH import and export are not wired yet. */
  'NOT_IMPLEMENTED',
] as const;
export type TournamentServiceErrorCode = (typeof TOURNAMENT_SERVICE_ERROR_CODES)[number];

export const fail = (code: TournamentServiceErrorCode, message: string, details: Record<string, unknown> = {}): Result<never, RuleError> =>
  err(ruleError(code, message, details));

export const tournamentNotFound = (id: string): Result<never, RuleError> =>
  fail('TOURNAMENT_NOT_FOUND', `No tournament has the id "${id}" (or it is private to its directors and players).`, {
    field: 'id',
    tournamentId: id,
  });

/**
 * A refusal decided inside a transaction, thrown so that the transaction rolls back everything it wrote
 * (league games written before a later step was refused) and caught outside it as the error value it carries.
 */
export class Refusal extends Error {
  constructor(readonly error: RuleError) {
    super(error.message);
  }
}

/** Runs `fn`; a {@link Refusal} it throws comes back as its error value. */
export const refusalsAsValues = async <T>(fn: () => Promise<Result<T, RuleError>>): Promise<Result<T, RuleError>> => {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof Refusal) return err(e.error);
    throw e;
  }
};
