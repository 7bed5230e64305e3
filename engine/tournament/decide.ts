import { ruleError, type RuleError } from '../errors.js';
import { err, ok, type Result } from '../result.js';
import {
  COMMAND_ROLES,
  divisionNamed,
  entrantExists,
  fail,
  type Decided,
  type DecideContext,
  type TournamentCommand,
  type TournamentCommandOf,
  type TournamentCommandType,
} from './commands.js';
import { decideEndRound, decideOverride, decidePairRound, decidePrePair, decideStartRound } from './decide-pairing.js';
import {
  decideChangeSlip,
  decideCorrectSlip,
  decideLeagueGame,
  decideRecordResult,
  decideSignSlip,
  decideSubmitSlip,
} from './decide-slips.js';
import type { TournamentEvent } from './events.js';
import { decideForfeitLate, decideStartLateClock } from './late-arrival.js';
import { decideDismissSlipDispute, decideFileSlipDispute } from './slip-disputes.js';
import { applyEvent } from './apply.js';
import type { TournamentState } from './state.js';

/**
 * Commands to events (issue 30): `decideTournament(state, command, context)` checks who is asking
 * (`COMMAND_ROLES`) and the command against the log's state and the division's rule set, and returns the
 * events to append, already folded once to prove they fit, or the rule broken. Each command kind has its
 * handler; pairing, slips and late arrival live in their own modules.
 */

type Handler<T extends TournamentCommandType> = (state: TournamentState, command: TournamentCommandOf<T>, ctx: DecideContext) => Decided;

export const MAX_NAME_LENGTH = 100;
export const MAX_RATING = 4000;

const decideAddDivision: Handler<'add-division'> = (state, c, ctx) => {
  const name = c.spec.name.trim();
  if (name === '' || name.length > 40) return fail('BAD_INPUT', 'A division’s name is 1–40 characters.', { field: 'name' });
  if (state.divisions.some((d) => d.spec.name === name))
    return fail('DIVISION_EXISTS', `Division "${name}" exists already.`, { field: 'name' });
  if (c.spec.rounds.length < 1 || c.spec.rounds.length > 100)
    return fail('BAD_INPUT', `A division has 1–100 rounds, not ${c.spec.rounds.length}.`, { field: 'rounds' });
  return ok([{ type: 'division-added', at: ctx.now, by: ctx.actor, spec: { ...c.spec, name } }]);
};

const decideAddPlayer: Handler<'add-player'> = (state, c, ctx) => {
  const d = divisionNamed(state, c.division);
  if (!d.ok) return d;
  const name = c.name.trim();
  if (name === '' || name.length > MAX_NAME_LENGTH)
    return fail('BAD_INPUT', `A player’s name is 1–${MAX_NAME_LENGTH} characters.`, { field: 'name' });
  if (!Number.isInteger(c.rating) || c.rating < 0 || c.rating > MAX_RATING)
    return fail('BAD_INPUT', `rating must be a whole number 0–${MAX_RATING}, not ${c.rating}.`, { field: 'rating' });
  const twice = d.value.entrants.find(
    (e) => (c.playerId !== null && e.playerId === c.playerId) || (c.playerId === null && e.name === name),
  );
  if (twice)
    return fail('PLAYER_ALREADY_IN_DIVISION', `${name} plays in division ${c.division} already, as player ${twice.number}.`, {
      field: c.playerId ? 'handle' : 'name',
      player: twice.number,
    });
  const entrant = { number: d.value.entrants.length + 1, name, playerId: c.playerId, rating: c.rating, class: c.class };
  return ok([{ type: 'player-added', at: ctx.now, by: ctx.actor, division: c.division, entrant }]);
};

const decideWithdraw: Handler<'withdraw-player'> = (state, c, ctx) => {
  const d = divisionNamed(state, c.division);
  if (!d.ok) return d;
  const p = entrantExists(d.value, c.player);
  if (!p.ok) return p;
  if (d.value.withdrawn[c.player] !== undefined)
    return fail('PLAYER_WITHDRAWN', `Player ${c.player} withdrew already (from round ${d.value.withdrawn[c.player]}).`, {
      field: 'player',
    });
  const firstOpen = d.value.rounds.find((r) => r.status === 'unpaired' || r.status === 'paired')?.number ?? d.value.rounds.length + 1;
  const fromRound = c.fromRound ?? firstOpen;
  if (!Number.isInteger(fromRound) || fromRound < 1 || fromRound > d.value.rounds.length + 1)
    return fail('BAD_INPUT', `fromRound must be 1–${d.value.rounds.length + 1}.`, { field: 'fromRound' });
  return ok([
    { type: 'player-withdrawn', at: ctx.now, by: ctx.actor, division: c.division, player: c.player, fromRound, reason: c.reason },
  ]);
};

const HANDLERS: { readonly [T in TournamentCommandType]: Handler<T> } = {
  'add-division': decideAddDivision,
  'add-player': decideAddPlayer,
  'withdraw-player': decideWithdraw,
  'pre-pair': decidePrePair,
  'pair-round': decidePairRound,
  'override-pairing': decideOverride,
  'start-round': decideStartRound,
  'end-round': decideEndRound,
  'start-late-clock': decideStartLateClock,
  'forfeit-late': decideForfeitLate,
  'record-result': decideRecordResult,
  'correct-slip': decideCorrectSlip,
  'sign-slip': decideSignSlip,
  'submit-slip': decideSubmitSlip,
  'change-slip': decideChangeSlip,
  'record-league-game': decideLeagueGame,
  'file-slip-dispute': decideFileSlipDispute,
  'dismiss-slip-dispute': decideDismissSlipDispute,
};

/**
 * The events `command` causes, or why it may not be done. The events are folded once here, so a command
 * the fold would refuse is refused before anything is written.
 */
export const decideTournament = (state: TournamentState, command: TournamentCommand, ctx: DecideContext): Decided => {
  const roles = COMMAND_ROLES[command.type];
  if (!roles.includes(ctx.actor.role))
    return fail('NOT_ALLOWED', `Only ${roles.join(' or ')} may ${command.type.replaceAll('-', ' ')}.`, {
      command: command.type,
      role: ctx.actor.role,
    });
  const handler = HANDLERS[command.type] as Handler<typeof command.type>;
  const events = handler(state, command as never, ctx);
  if (!events.ok) return events;
  const folded = applyAll(state, events.value);
  return folded.ok ? events : err(folded.error);
};

/** Folds events onto a state. */
export const applyAll = (state: TournamentState, events: readonly TournamentEvent[]): Result<TournamentState, RuleError> => {
  let s = state;
  for (const e of events) {
    const next = applyEvent(s, e);
    if (!next.ok) return err(ruleError(next.error.code, next.error.message, next.error.details ? { ...next.error.details } : undefined));
    s = next.value;
  }
  return ok(s);
};
