import { ruleError, type RuleError } from '../errors.js';
import { err, ok, type Result } from '../result.js';
import type { TournamentEvent, TournamentEventOf, TournamentEventType } from './events.js';
import { emptyRound, type DivisionState, type RoundState, type Slip, type TournamentState } from './state.js';

/**
 * The fold of a tournament's log (issue 30, item 1): `applyEvent(state, event)` returns the next state
 * or the invariant the event breaks. Rule decisions (who may pair, whether a slip may change) are
 * `decide.ts`'s, which only emits events this fold accepts; the fold checks that an event names things
 * that exist, so a log that was tampered with or cut is refused rather than misread.
 */

type Handler<T extends TournamentEventType> = (state: TournamentState, event: TournamentEventOf<T>) => Result<TournamentState, RuleError>;
type Handlers = { readonly [T in TournamentEventType]: Handler<T> };

const broken = (event: TournamentEvent, message: string): Result<never, RuleError> =>
  err(ruleError('TOURNAMENT_LOG_INVALID', `Event ${event.type}: ${message}`, { type: event.type }));

const withDivision = (
  state: TournamentState,
  event: TournamentEvent & { readonly division: string },
  change: (d: DivisionState) => Result<DivisionState, RuleError>,
): Result<TournamentState, RuleError> => {
  const i = state.divisions.findIndex((d) => d.spec.name === event.division);
  if (i < 0) return broken(event, `no division "${event.division}".`);
  const next = change(state.divisions[i]!);
  if (!next.ok) return next;
  const divisions = state.divisions.slice();
  divisions[i] = next.value;
  return ok({ ...state, divisions });
};

const withRound = (
  state: TournamentState,
  event: TournamentEvent & { readonly division: string; readonly round: number },
  change: (r: RoundState, d: DivisionState) => Result<RoundState, RuleError>,
): Result<TournamentState, RuleError> =>
  withDivision(state, event, (d) => {
    const r = d.rounds[event.round - 1];
    if (!r) return broken(event, `division ${d.spec.name} has no round ${event.round}.`);
    const next = change(r, d);
    if (!next.ok) return next;
    const rounds = d.rounds.slice();
    rounds[event.round - 1] = next.value;
    return ok({ ...d, rounds });
  });

const slipKey = (round: RoundState, players: readonly [number, number]): number | undefined => {
  const g = round.games.find(
    (x) => (x.first === players[0] && x.second === players[1]) || (x.first === players[1] && x.second === players[0]),
  );
  return g?.first;
};

const withSlip = (
  state: TournamentState,
  event: TournamentEvent & { readonly division: string; readonly round: number; readonly players: readonly [number, number] },
  change: (s: Slip) => Slip,
): Result<TournamentState, RuleError> =>
  withRound(state, event, (r) => {
    const key = slipKey(r, event.players);
    const slip = key === undefined ? undefined : r.slips[key];
    if (key === undefined || !slip) return broken(event, `no slip for ${event.players.join(' v ')} in round ${event.round}.`);
    return ok({ ...r, slips: { ...r.slips, [key]: change(slip) } });
  });

const HANDLERS: Handlers = {
  'tournament-created': (_s, e) => broken(e, 'the tournament exists already.'),
  'division-added': (s, e) =>
    s.divisions.some((d) => d.spec.name === e.spec.name)
      ? broken(e, `division "${e.spec.name}" exists already.`)
      : ok({
          ...s,
          divisions: [
            ...s.divisions,
            { spec: e.spec, entrants: [], withdrawn: {}, rounds: e.spec.rounds.map((_p, i) => emptyRound(i + 1)) },
          ],
        }),
  'player-added': (s, e) =>
    withDivision(s, e, (d) =>
      e.entrant.number === d.entrants.length + 1
        ? ok({ ...d, entrants: [...d.entrants, e.entrant] })
        : broken(e, `entrant ${e.entrant.number} added as the ${d.entrants.length + 1}th.`),
    ),
  'player-withdrawn': (s, e) => withDivision(s, e, (d) => ok({ ...d, withdrawn: { ...d.withdrawn, [e.player]: e.fromRound } })),
  'couple-prepaired': (s, e) => withRound(s, e, (r) => ok({ ...r, prePaired: [...r.prePaired, e.players] })),
  'round-paired': (s, e) =>
    withRound(s, e, (r) =>
      ok({
        ...r,
        status: 'paired',
        method: e.method,
        games: e.games,
        byes: e.byes,
        gibsonized: e.gibsonized,
        seed: e.seed,
        history: [...r.history, { at: e.at, by: e.by, action: 'paired', method: e.method, reason: null }],
      }),
    ),
  'pairing-overridden': (s, e) =>
    withRound(s, e, (r) =>
      ok({
        ...r,
        status: r.status === 'unpaired' ? 'paired' : r.status,
        method: r.method ?? 'manual',
        games: e.games,
        byes: e.byes,
        history: [...r.history, { at: e.at, by: e.by, action: 'overridden', method: null, reason: e.reason }],
      }),
    ),
  'round-started': (s, e) => withRound(s, e, (r) => ok({ ...r, status: 'started', startedAt: e.at })),
  'late-clock-started': (s, e) => withRound(s, e, (r) => ok({ ...r, lateClocks: [...r.lateClocks, { player: e.player, at: e.at }] })),
  'result-recorded': (s, e) =>
    withRound(s, e, (r) => {
      const key = slipKey(r, e.players);
      if (key === undefined) return broken(e, `${e.players.join(' v ')} is not a game of round ${e.round}.`);
      const slip: Slip = {
        players: e.players,
        scores: e.scores,
        kind: e.kind,
        forfeiter: e.forfeiter,
        forfeitReason: e.forfeitReason,
        gameId: e.gameId,
        status: e.final ? 'submitted' : 'recorded',
        signers: [],
        signedForBoth: e.final,
        changes: [],
        disputes: [],
        recordedAt: e.at,
      };
      return ok({ ...r, slips: { ...r.slips, [key]: slip } });
    }),
  'slip-corrected': (s, e) =>
    withSlip(s, e, (slip) => ({
      ...slip,
      // A corrected slip is a new slip: whoever signed the old one signs again.
      signers: [],
      signedForBoth: false,
      status: 'recorded',
      scores: oriented(slip, e.players, e.scores),
      changes: [...slip.changes, { at: e.at, by: e.by, from: slip.scores, to: oriented(slip, e.players, e.scores), ruling: null }],
    })),
  'slip-signed': (s, e) =>
    withSlip(s, e, (slip) => {
      const signers = e.signer === null || slip.signers.includes(e.signer) ? slip.signers : [...slip.signers, e.signer];
      return {
        ...slip,
        signers,
        signedForBoth: slip.signedForBoth || e.signer === null,
        status: slip.status === 'submitted' ? 'submitted' : 'signed',
      };
    }),
  'slip-submitted': (s, e) => withSlip(s, e, (slip) => ({ ...slip, status: 'submitted' })),
  'slip-changed': (s, e) =>
    withSlip(s, e, (slip) => ({
      ...slip,
      scores: oriented(slip, e.players, e.scores),
      changes: [...slip.changes, { at: e.at, by: e.by, from: slip.scores, to: oriented(slip, e.players, e.scores), ruling: e.ruling }],
      // A ruling that names an open dispute decides it.
      disputes: slip.disputes.map((d) =>
        d.status === 'open' && e.ruling.disputeId === String(d.number)
          ? { ...d, status: 'upheld' as const, ruledReason: e.ruling.reason }
          : d,
      ),
    })),
  'slip-dispute-filed': (s, e) => {
    if (e.number !== s.slipDisputes + 1) return broken(e, `dispute ${e.number} filed as the ${s.slipDisputes + 1}th.`);
    const next = withSlip(s, e, (slip) => ({
      ...slip,
      disputes: [
        ...slip.disputes,
        {
          number: e.number,
          at: e.at,
          by: e.by,
          scores: oriented(slip, e.players, e.scores),
          reason: e.reason,
          status: 'open',
          ruledReason: null,
        },
      ],
    }));
    return next.ok ? ok({ ...next.value, slipDisputes: e.number }) : next;
  },
  'slip-dispute-dismissed': (s, e) =>
    withSlip(s, e, (slip) => ({
      ...slip,
      disputes: slip.disputes.map((d) => (d.number === e.number ? { ...d, status: 'dismissed' as const, ruledReason: e.reason } : d)),
    })),
  'league-game-created': (s, e) =>
    withRound(s, e, (r) => {
      const key = slipKey(r, e.players);
      return key === undefined
        ? broken(e, `${e.players.join(' v ')} is not a game of round ${e.round}.`)
        : ok({ ...r, gameIds: { ...r.gameIds, [key]: e.gameId } });
    }),
  'round-ended': (s, e) => withRound(s, e, (r) => ok({ ...r, status: 'ended', endedAt: e.at })),
};

/** Scores given in the order of `players` turned to the slip's order (first player first). */
const oriented = (slip: Slip, players: readonly [number, number], scores: readonly [number, number]): readonly [number, number] =>
  players[0] === slip.players[0] ? scores : [scores[1], scores[0]];

/** The next state, or the invariant the event breaks. */
export const applyEvent = (state: TournamentState, event: TournamentEvent): Result<TournamentState, RuleError> => {
  const handler = HANDLERS[event.type] as Handler<typeof event.type>;
  const next = handler(state, event as never);
  return next.ok ? ok({ ...next.value, version: state.version + 1 }) : next;
};

/** The state a whole log folds to; the first event must be `tournament-created`. */
export const replayTournament = (events: readonly TournamentEvent[]): Result<TournamentState, RuleError> => {
  const [first, ...rest] = events;
  if (!first || first.type !== 'tournament-created')
    return err(ruleError('TOURNAMENT_LOG_INVALID', 'A tournament log starts with tournament-created.', { type: first?.type ?? null }));
  let state: TournamentState = {
    name: first.name,
    organizationId: first.organizationId,
    public: first.public,
    createdAt: first.at,
    createdBy: first.by,
    divisions: [],
    version: 1,
    slipDisputes: 0,
  };
  for (const e of rest) {
    const next = applyEvent(state, e);
    if (!next.ok) return next;
    state = next.value;
  }
  return ok(state);
};
