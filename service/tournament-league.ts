import { randomBytes, randomUUID } from 'node:crypto';
import { commitment } from '../engine/game/bag.js';
import { createGame as startEvents } from '../engine/game/decide.js';
import { recordedScores } from '../engine/game/forfeits.js';
import type { GameState } from '../engine/game/state.js';
import type { TournamentCommandOf } from '../engine/tournament/commands.js';
import type { Actor } from '../engine/tournament/events.js';
import type { PairedGame } from '../engine/tournament/pairing/types.js';
import { divisionOf, type DivisionState, type RoundState } from '../engine/tournament/state.js';
import type { Tx } from '../store/db.js';
import { createGame as insertGame } from '../store/games.js';
import type { JsonObject } from '../store/json.js';
import { linkLeagueGame } from '../store/tournaments.js';
import { fold, toStored } from './game-log.js';
import { outboxFor, projection } from './game-projection.js';
import { SYSTEM_ACTOR } from './tournament-access.js';
import { decideInto, lexiconsOf, loadLocked, newBatch, writeBatch, type Batch, type LoadedTournament } from './tournament-batch.js';
import { Refusal } from './tournament-errors.js';
import type { LexiconEdition } from './tournament-spec.js';
import { ruleError } from '../engine/errors.js';

/**
 * Correspondence leagues (issue 30, item 8): Arbiter makes each round's games and runs the league itself.
 *
 * - When a round of a correspondence division starts (`start-round`: the director's for the first round,
 *   Arbiter's after that), each of its pairings becomes a game in the same transaction: the division's rule
 *   set, lexicon edition and correspondence clock, the first player in seat 0 and moving first, placed
 *   under the tournament's event, linked to the tournament (`games.tournament_id`, division, round), and
 *   recorded in the log as `league-game-created` (command `record-league-game`, actor `system`).
 * - When such a game ends, the turn that ends it records its result in the tournament in its own
 *   transaction ({@link recordLeagueGameEnd}): a final slip (signed by the end itself), the scores of
 *   engine/game/forfeits.ts `recordedScores`, a timeout as a forfeit for `timeout`.
 * - When every game of the round has a result, Arbiter ends the round, pairs the next one (its method, a
 *   random seed recorded in the event) and starts it, which makes its games: a league runs itself. Where a
 *   step is refused (a pairing that cannot keep `maxRepeats`, a tie the rules refuse) Arbiter stops there
 *   and leaves the league to its director, who sees the round as it is.
 */

/** What Arbiter's league steps need inside the command's transaction. */
export interface LeagueContext {
  readonly tx: Tx;
  readonly loaded: LoadedTournament;
  /** The lexicon edition of each division (`lexiconsOf`, plus divisions the command adds). */
  readonly lexicons: ReadonlyMap<string, LexiconEdition>;
  readonly now: Date;
}

/** Arbiter's actor for a league's own steps. */
const LEAGUE_ACTOR: Actor = SYSTEM_ACTOR;

/** 128 random bits, hex: the seed of a pairing Arbiter makes itself (recorded in `round-paired`). */
export const pairingSeed = (): string => randomBytes(16).toString('hex');

const refuse = (code: string, message: string, details: Record<string, unknown>): never => {
  throw new Refusal(ruleError(code, message, details));
};

/** Writes one pairing's game (seats in first/second order) and returns its id; use only `ctx.tx`. */
const writeLeagueGame = async (ctx: LeagueContext, d: DivisionState, round: RoundState, g: PairedGame): Promise<string> => {
  const seats = [g.first, g.second].map((n) => d.entrants[n - 1]);
  const ids = seats.map((e) => e?.playerId ?? null);
  if (ids.some((id) => id === null))
    refuse(
      'BAD_INPUT',
      `Division ${d.spec.name} is a correspondence league: player ${g.first} and ${g.second} both need an account to play.`,
      {
        field: 'players',
        players: [g.first, g.second],
      },
    );
  const players = await Promise.all(ids.map((id) => ctx.tx.player.findUnique({ where: { id: id! } })));
  if (!players[0] || !players[1])
    return refuse('PLAYER_NOT_FOUND', `A player of ${g.first} v ${g.second} has no account any more.`, { players: [g.first, g.second] });
  const lexicon = ctx.lexicons.get(d.spec.name);
  if (!lexicon) throw new Error(`division ${d.spec.name} of tournament ${ctx.loaded.row.id} has no lexicon edition`);
  const seed = randomBytes(32).toString('hex');
  const started = startEvents({
    rules: d.spec.rules,
    lexicon,
    players: [
      { name: players[0].displayName, id: players[0].handle },
      { name: players[1].displayName, id: players[1].handle },
    ],
    timeControl: d.spec.timeControl ?? { kind: 'untimed' },
    seed,
    firstSeat: 0,
    createdAt: ctx.now.toISOString(),
  });
  if (!started.ok) throw new Error(`league game of ${g.first} v ${g.second} cannot start: ${started.error.code}`);
  const state = fold(started.value);
  const update = projection(state);
  const id = randomUUID();
  const holders = [
    { seat: 0, player: players[0] },
    { seat: 1, player: players[1] },
  ];
  await insertGame(
    ctx.tx,
    {
      id,
      ruleSetId: d.spec.ruleSetId,
      ruleOverrides: d.spec.overrides as JsonObject,
      lexicon: { name: lexicon.name, contentHash: lexicon.hash },
      status: update.status,
      turnSeat: update.turnSeat,
      deadlineAt: update.deadlineAt,
      bagSeedCommitment: commitment(seed),
      bagSeed: seed,
      seats: [players[0].id, players[1].id],
      organizationId: ctx.loaded.row.organizationId,
    },
    started.value.map(toStored),
    outboxFor(id, started.value.length, null, state, [], holders, update.deadlineAt),
  );
  await linkLeagueGame(ctx.tx, id, { tournamentId: ctx.loaded.row.id, division: d.spec.name, round: round.number });
  return id;
};

/** Makes the games of a started round that have none yet (nor a result) and records each; how many were made. */
const makeRoundGames = async (ctx: LeagueContext, batch: Batch, d: DivisionState, round: RoundState): Promise<number> => {
  const missing = round.games.filter((g) => !round.gameIds[g.first] && !round.slips[g.first]);
  for (const g of missing) {
    const gameId = await writeLeagueGame(ctx, d, round, g);
    const c: TournamentCommandOf<'record-league-game'> = {
      type: 'record-league-game',
      division: d.spec.name,
      round: round.number,
      players: [g.first, g.second],
      gameId,
    };
    const r = decideInto(batch, c, { actor: LEAGUE_ACTOR, now: ctx.now.toISOString() });
    if (!r.ok) throw new Refusal(r.error);
  }
  return missing.length;
};

/** Whether round `n` of the division ended within this batch (it was not ended before the command). */
const endedInBatch = (batch: Batch, division: string, n: number): boolean => {
  const before = divisionOf(batch.before, division)?.rounds[n - 1];
  const now = divisionOf(batch.state, division)?.rounds[n - 1];
  return now?.status === 'ended' && before?.status !== 'ended';
};

/**
 * Arbiter's own steps in one correspondence division after a command: make the games of a started round,
 * end a round whose games all have a result, and after a round that ended in this batch, pair (if need be)
 * and start the next one. A refused pairing or start stops the steps (the director takes over); a game that
 * cannot be made is a {@link Refusal} of the whole command.
 */
export const advanceLeague = async (ctx: LeagueContext, batch: Batch, division: string): Promise<void> => {
  const act = { actor: LEAGUE_ACTOR, now: ctx.now.toISOString() };
  for (let step = 0; step < 8; step++) {
    const d = divisionOf(batch.state, division);
    if (!d || d.spec.mode !== 'correspondence') return;
    const started = d.rounds.find((r) => r.status === 'started');
    if (started) {
      if ((await makeRoundGames(ctx, batch, d, started)) > 0) return;
      if (!started.games.every((g) => started.slips[g.first])) return;
      if (!decideInto(batch, { type: 'end-round', division, round: started.number }, act).ok) return;
      continue;
    }
    const next = d.rounds.find((r) => r.status !== 'ended');
    if (!next || next.number === 1 || !endedInBatch(batch, division, next.number - 1)) return;
    if (
      next.status === 'unpaired' &&
      !decideInto(batch, { type: 'pair-round', division, round: next.number, method: null, seed: pairingSeed() }, act).ok
    )
      return;
    if (!decideInto(batch, { type: 'start-round', division, round: next.number }, act).ok) return;
  }
};

/** Arbiter's steps in every correspondence division (after a director's or player's command). */
export const advanceLeagues = async (ctx: LeagueContext, batch: Batch): Promise<void> => {
  for (const d of batch.state.divisions) if (d.spec.mode === 'correspondence') await advanceLeague(ctx, batch, d.spec.name);
};

/** The engine's result command for an ended league game (`players` first then second = seats 0 and 1); null for an aborted game. */
export const leagueResult = (
  d: DivisionState,
  round: RoundState,
  g: PairedGame,
  gameId: string,
  state: GameState,
): TournamentCommandOf<'record-result'> | null => {
  const r = state.result;
  if (!r || r.reason === 'aborted') return null;
  const forfeit = r.reason === 'timed-out' || r.reason === 'forfeited';
  let [first, second] = recordedScores(d.spec.rules, state);
  // A game won by resignation, timeout or ruling while behind: the loser's score drops to the winner's
  // less the forfeit margin, as engine/game/forfeits.ts does for a forfeit (WESPA 5.3.3), so the slip shows the winner.
  if (r.winner !== null && (r.winner === 0 ? first <= second : second <= first)) {
    const margin = d.spec.rules.tournament.forfeitSpread;
    let won = r.winner === 0 ? first : second;
    let lost = won - margin;
    if (lost < 0) [lost, won] = [lost + margin, won + margin];
    [first, second] = r.winner === 0 ? [won, lost] : [lost, won];
  }
  return {
    type: 'record-result',
    division: d.spec.name,
    round: round.number,
    players: [g.first, g.second],
    scores: [first, second],
    kind: forfeit ? 'forfeit' : 'played',
    forfeiter: forfeit && r.loser !== null ? (r.loser === 0 ? g.first : g.second) : null,
    forfeitReason: forfeit ? (r.reason === 'timed-out' ? 'timeout' : 'director') : null,
    gameId,
    final: true,
  };
};

/** A league game's link, as its game row carries it. */
export interface LeagueGameLink {
  readonly id: string;
  readonly tournamentId: string | null;
  readonly tournamentDivision: string | null;
  readonly tournamentRound: number | null;
}

/**
 * The hook of a turn that ends a league game (service/turns.ts, in the turn's transaction; use only `tx`):
 * records the result as a final slip and lets the league go on ({@link advanceLeague}). Nothing happens for
 * a game that is in no tournament, has a result already (a director entered one) or was aborted. Whatever
 * the tournament refuses leaves the tournament as it was (a savepoint) and the turn goes through: a
 * league's bookkeeping never costs a player their move.
 */
export const recordLeagueGameEnd = async (tx: Tx, game: LeagueGameLink, after: GameState, now: Date): Promise<void> => {
  const { tournamentId, tournamentDivision: division, tournamentRound: n } = game;
  if (tournamentId === null || division === null || n === null || after.status !== 'ended') return;
  const loaded = await loadLocked(tx, tournamentId);
  const d = loaded ? divisionOf(loaded.state, division) : undefined;
  const round = d?.rounds[n - 1];
  const first = round ? Number(Object.entries(round.gameIds).find(([, id]) => id === game.id)?.[0]) : NaN;
  const g = round?.games.find((x) => x.first === first);
  if (!loaded || !d || !round || !g || round.slips[g.first]) return;
  const command = leagueResult(d, round, g, game.id, after);
  const batch = newBatch(loaded.state);
  if (!command || !decideInto(batch, command, { actor: { ...LEAGUE_ACTOR, name: 'game end' }, now: now.toISOString() }).ok) return;
  const kept = { events: batch.events.length, state: batch.state };
  await tx.$executeRawUnsafe('SAVEPOINT tournament_league');
  try {
    await advanceLeague({ tx, loaded, lexicons: lexiconsOf(loaded.stored), now }, batch, division);
  } catch (e) {
    if (!(e instanceof Refusal)) throw e;
    await tx.$executeRawUnsafe('ROLLBACK TO SAVEPOINT tournament_league');
    batch.events.length = kept.events;
    batch.state = kept.state;
  }
  await writeBatch(tx, loaded, batch, now, null);
};
