import { randomUUID } from 'node:crypto';
import { ruleError, type RuleError } from '../engine/errors.js';
import type { Seat } from '../engine/game/events.js';
import { gameToGcg } from '../engine/gcg/export.js';
import { formatGcg } from '../engine/gcg/format.js';
import { parseGcg } from '../engine/gcg/parse.js';
import { replayGcg, type ReplayErrorItem, type ReplayMismatch } from '../engine/gcg/replay.js';
import type { Lexicon } from '../engine/lexicon/lexicon.js';
import { err, ok, type Result } from '../engine/result.js';
import { createGame as insertGame } from '../store/games.js';
import type { ServiceDeps } from './context.js';
import { loadGameLog, toStored } from './game-log.js';
import { getGame, type GameSnapshot } from './game-reads.js';

/**
 * Game records: a stored game as GCG (`gameRecord`), and a GCG record stored as a finished game
 * (`importGame`, validated by replaying it through the engine).
 */

export interface GameRecord {
  readonly gameId: string;
  /** The GCG text (UTF-8). Racks: the caller's own until the game ends, every rack after. */
  readonly gcg: string;
  /** The game has ended (only then is the bag seed in the record). */
  readonly complete: boolean;
  /** The bag seed, revealed at the end (anyone can then check every draw); null before, and for imports. */
  readonly bagSeed: string | null;
}

/** The game as a GCG record, as `viewerId` may see it (see `engine/gcg/export.ts`). */
export async function gameRecord(deps: ServiceDeps, viewerId: string | null, gameId: string): Promise<Result<GameRecord, RuleError>> {
  const log = await loadGameLog(deps, gameId);
  if (!log.ok) return log;
  const { events, seats, recorded } = log.value;
  if (events.length === 0)
    return err(ruleError('GAME_NOT_STARTED', 'The game waits for a second player: it has no record yet.', { gameId }));
  const holder = seats.find((s) => viewerId !== null && s.player?.id === viewerId);
  const viewer = holder ? (holder.seat as Seat) : null;
  const players = seats.map((s) => (s.player ? { nickname: s.player.handle, name: s.player.displayName } : null));
  const doc = gameToGcg(events, {
    viewer,
    gameId,
    recorded,
    ...(players[0] && players[1] ? { players: [players[0], players[1]] as const } : {}),
  });
  const end = events.find((e) => e.type === 'game-ended');
  return ok({ gameId, gcg: formatGcg(doc), complete: end !== undefined, bagSeed: end?.type === 'game-ended' ? end.seed : null });
}

export interface ImportOptions {
  /** The lexicon to judge the record's words with (default: the record's `#lexicon` if loaded here, else the server's default). */
  readonly lexicon?: string | null;
  /** The importer's seat in the record (0 = `#player1`), so the game shows in their list; default: neither. */
  readonly seat?: Seat | null;
  /** The tile set by id, ahead of what the record names or implies (docs/languages.md). */
  readonly tileSet?: string | null;
}

/** Why an import was refused: the replay's mismatches and errors, as `details` of GCG_REPLAY_FAILED. */
export interface ImportRejection {
  readonly mismatches: readonly ReplayMismatch[];
  readonly errors: readonly ReplayErrorItem[];
}

const chooseLexicon = (deps: ServiceDeps, requested: string | null | undefined, pragma: string | undefined): Result<Lexicon, RuleError> => {
  if (requested) return deps.lexicons.get(requested);
  if (pragma) {
    const named = deps.lexicons.get(pragma);
    if (named.ok) return named;
  }
  const fallback = deps.lexicons.defaultName;
  if (fallback === null) return err(ruleError('LEXICON_NOT_FOUND', 'No lexicon is loaded on this server: run `npm run lexicons`.', {}));
  return deps.lexicons.get(fallback);
};

/**
 * Parses a GCG record, replays it through the engine (every score, total and end adjustment
 * checked) and stores it as a finished game with the replay's events. Errors: the parser's codes
 * (with `line`), GCG_REPLAY_FAILED (details: mismatches, errors), GCG_INCOMPLETE, LEXICON_NOT_FOUND.
 * Phonies that stood in the record do not fail it (a record shows what happened).
 */
export async function importGame(
  deps: ServiceDeps,
  importerId: string,
  gcgText: string,
  options: ImportOptions = {},
): Promise<Result<GameSnapshot, RuleError>> {
  const doc = parseGcg(gcgText);
  if (!doc.ok) return doc;
  const lexicon = chooseLexicon(deps, options.lexicon, doc.value.pragmas.find((p) => p.keyword === 'lexicon')?.value);
  if (!lexicon.ok) return lexicon;
  const report = replayGcg(doc.value, { lexicon: lexicon.value, tileSet: options.tileSet ?? null });
  if (!report.ok) {
    const first = report.mismatches[0]?.reason ?? report.errors[0]?.message ?? '';
    const n = report.mismatches.length + report.errors.length;
    return err(
      ruleError('GCG_REPLAY_FAILED', `The record does not replay: ${n} problem${n === 1 ? '' : 's'}, the first: ${first}`, {
        mismatches: report.mismatches,
        errors: report.errors,
      } satisfies ImportRejection as unknown as Record<string, unknown>),
    );
  }
  if (!report.complete) {
    return err(
      ruleError('GCG_INCOMPLETE', 'The record stops before the game ended; only finished games can be imported.', { moves: report.moves }),
    );
  }
  const seat = options.seat ?? null;
  if (seat !== null && seat !== 0 && seat !== 1)
    return err(ruleError('BAD_INPUT', `seat must be 0 or 1, not ${String(seat)}.`, { field: 'seat' }));
  const id = randomUUID();
  await deps.db.transaction((tx) =>
    insertGame(
      tx,
      {
        id,
        ruleSetId: report.rules.id,
        ruleOverrides: {},
        lexicon: { name: lexicon.value.name, contentHash: lexicon.value.hash },
        status: 'ended',
        turnSeat: null,
        deadlineAt: null,
        // An imported game has no seed: its draws are what the record shows.
        bagSeedCommitment: '',
        bagSeed: '',
        seats: [seat === 0 ? importerId : null, seat === 1 ? importerId : null],
      },
      report.events.map(toStored),
    ),
  );
  return getGame(deps, importerId, id);
}
