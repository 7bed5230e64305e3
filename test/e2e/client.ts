/**
 * A tiny game client for the end-to-end suites: GraphQL documents, typed helpers over the test API
 * (test/api/harness.ts), and a move finder that picks a play from a player's own rack — as a real
 * client would, from what `game(id)` shows that player and nothing else.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { parseBoardRows } from '../../engine/board-text.js';
import { STANDARD_LAYOUT } from '../../engine/board.js';
import type { Lexicon } from '../../engine/lexicon/lexicon.js';
import { parseMove, type PlayMove } from '../../engine/move.js';
import { checkPlay } from '../../engine/placement.js';
import { ENGLISH, splitTiles } from '../../engine/tiles.js';
import type { TestApi } from '../api/harness.js';
import { setBagSeedSourceForTests } from '../../service/game-create.js';

export const GAME_FIELDS = `
fragment GameFields on Game {
  id version status mySeat myRack bagCount whoseTurn isMyTurn legalActions scores deadline bagCommitment imported
  ruleSet { id challengeMode }
  lexicon { name hash }
  board { rows tiles { square letter blank } }
  seats { seat isMe score rackSize player { id handle } }
  unseenTiles { tile count }
  lastMove { seat kind notation score cumulative tiles count words { word score letterSum wordMultiplier letters { square letter value premium } } }
  history { seat kind notation score cumulative tiles count }
  result { reason winner loser scoresBeforeAdjustments adjustments { seat points kind tiles } bagSeed }
}`;

export const READ_ERROR_FIELDS = `... on Error { code message details }`;
export const ERROR_FIELDS = `${READ_ERROR_FIELDS} ... on StaleVersionError { expected actual }`;

export interface Move {
  seat: number;
  kind: string;
  notation: string;
  score: number;
  cumulative: number;
  tiles: string | null;
  count: number | null;
  words?: { word: string; score: number }[];
}

export interface GameView {
  __typename: 'Game';
  id: string;
  version: number;
  status: string;
  mySeat: number | null;
  myRack: string | null;
  bagCount: number;
  whoseTurn: number | null;
  isMyTurn: boolean;
  legalActions: string[];
  scores: number[];
  deadline: string | null;
  bagCommitment: string | null;
  imported: boolean;
  ruleSet: { id: string; challengeMode: string };
  lexicon: { name: string; hash: string };
  board: { rows: string[]; tiles: { square: string; letter: string; blank: boolean }[] } | null;
  seats: { seat: number; isMe: boolean; score: number; rackSize: number; player: { id: string; handle: string } | null }[];
  unseenTiles: { tile: string; count: number }[];
  lastMove: (Move & { words: { word: string; score: number; letterSum: number; wordMultiplier: number }[] }) | null;
  history: Move[];
  result: {
    reason: string;
    winner: number | null;
    loser: number | null;
    scoresBeforeAdjustments: number[];
    adjustments: { seat: number; points: number; kind: string; tiles: string }[];
    bagSeed: string | null;
  } | null;
}

export interface ErrorResult {
  __typename: string;
  code: string;
  message: string;
  details: Record<string, unknown> | null;
  expected?: number;
  actual?: number;
}

export type GameOrError = GameView | ErrorResult;

export const SUBMIT_TURN = `mutation($input: SubmitTurnInput!) { submitTurn(input: $input) { __typename ...GameFields ${ERROR_FIELDS} } } ${GAME_FIELDS}`;
export const GAME = `query($id: ID!) { game(id: $id) { __typename ...GameFields ${READ_ERROR_FIELDS} } } ${GAME_FIELDS}`;
export const CREATE_GAME = `mutation($input: CreateGameInput!) { createGame(input: $input) { __typename ...GameFields ${ERROR_FIELDS} } } ${GAME_FIELDS}`;
export const JOIN_GAME = `mutation($id: ID!) { joinGame(gameId: $id) { __typename ...GameFields ${ERROR_FIELDS} } } ${GAME_FIELDS}`;
export const GAME_RECORD = `query($id: ID!) { gameRecord(id: $id) { __typename ... on GameRecord { gameId gcg complete bagSeed } ${READ_ERROR_FIELDS} } }`;

export type Action =
  { play: { move: string } } | { exchange: { tiles: string } } | { pass: true } | { challenge: { words?: string[] } } | { resign: true };

let keys = 0;
export const freshKey = (): string => `key-${process.pid}-${Date.now()}-${++keys}`;

export const isGame = (r: GameOrError): r is GameView => r.__typename === 'Game';

export const asGame = (r: GameOrError, what = 'result'): GameView => {
  if (!isGame(r)) throw new Error(`${what}: expected a Game, got ${JSON.stringify(r)}`);
  return r;
};

export interface Player {
  readonly id: string;
  readonly handle: string;
  readonly token: string;
}

export const registerPlayer = async (api: TestApi, handle: string): Promise<Player> => ({ handle, ...(await api.register(handle)) });

export const graphql = async <T>(
  api: TestApi,
  field: string,
  query: string,
  variables: Record<string, unknown>,
  token?: string,
): Promise<T> => {
  const r = await api.gql(query, variables, token);
  if (r.body.errors?.length || !r.body.data) throw new Error(`${field}: ${JSON.stringify(r.body)}`);
  return r.body.data[field] as T;
};

export const readGame = async (api: TestApi, p: Player, id: string): Promise<GameView> =>
  asGame(await graphql<GameOrError>(api, 'game', GAME, { id }, p.token), `game as ${p.handle}`);

export const submit = (
  api: TestApi,
  p: Player,
  gameId: string,
  expectedVersion: number,
  action: Action,
  idempotencyKey = freshKey(),
): Promise<GameOrError> =>
  graphql<GameOrError>(api, 'submitTurn', SUBMIT_TURN, { input: { gameId, expectedVersion, idempotencyKey, action } }, p.token);

/** Submits at the game's current version (read as `p` sees it) and expects the turn to be taken. */
export const act = async (api: TestApi, p: Player, gameId: string, action: Action): Promise<GameView> => {
  const g = await readGame(api, p, gameId);
  return asGame(await submit(api, p, gameId, g.version, action), `${p.handle} ${JSON.stringify(action)}`);
};

/** Submits at the current version and expects a typed error; returns it. */
export const refused = async (api: TestApi, p: Player, gameId: string, action: Action): Promise<ErrorResult> => {
  const g = await readGame(api, p, gameId);
  const r = await submit(api, p, gameId, g.version, action);
  expect(r.__typename, `${p.handle} ${JSON.stringify(action)} should be refused`).not.toBe('Game');
  const after = await readGame(api, p, gameId);
  expect(after.version, 'a refused turn writes nothing').toBe(g.version);
  return r as ErrorResult;
};

/**
 * Bag seeds from a counter for the games this file creates, instead of random ones: about one random rack
 * in a hundred makes no word {@link findPlay} can find (no vowel, say), which made a test that needs a first
 * play fail now and then. With these, each game's racks are the same on every run.
 */
export const useFixedBagSeeds = (prefix: string): void => {
  beforeAll(() => {
    let n = 0;
    setBagSeedSourceForTests(() => `${prefix}-${++n}-0123456789abcdef`);
  });
  afterAll(() => setBagSeedSourceForTests(null));
};

// ---------------------------------------------------------------------------------------------
// Finding a play from what the player sees

const COLS = 'ABCDEFGHIJKLMNO';

/** Distinct sequences of `k` tiles from `rack` (blanks left out: the finder never needs them). */
const sequences = (rack: readonly string[], k: number): string[][] => {
  const letters = rack.filter((t) => t !== '?');
  const out = new Map<string, string[]>();
  const go = (left: string[], acc: string[]) => {
    if (acc.length === k) {
      out.set(acc.join(''), acc);
      return;
    }
    left.forEach((t, i) => go([...left.slice(0, i), ...left.slice(i + 1)], [...acc, t]));
  };
  go(letters, []);
  return [...out.values()];
};

export interface FoundPlay {
  readonly move: string;
  readonly word: string;
  readonly score: number;
  readonly tilesUsed: number;
}

/**
 * A play from the rack `view.myRack` on `view.board`: the shortest first (keeps the board open).
 * `valid: true` finds one whose every word is in `lexicon`; `valid: false` a phony (its main word is
 * not) that is otherwise legal. Null when there is none.
 */
export const findPlay = (view: GameView, lexicon: Lexicon, valid: boolean): FoundPlay | null => {
  const rack = splitTiles(view.myRack ?? '') ?? [];
  const board = parseBoardRows(view.board!.rows, STANDARD_LAYOUT, ENGLISH);
  if (!board.ok) throw new Error(board.error.message);
  const b = board.value;
  const n = 15;
  const at = (r: number, c: number): string | null => {
    if (r < 0 || c < 0 || r >= n || c >= n) return null;
    const t = b.cells[r * n + c];
    return t ? t.letter : null;
  };
  const empty = b.tileCount === 0;
  for (let k = 1; k <= 3; k++) {
    if (empty && k === 1) continue;
    for (const seq of sequences(rack, k)) {
      for (let row = 0; row < n; row++) {
        for (let col = 0; col < n; col++) {
          for (const across of [true, false]) {
            const step = (i: number): [number, number] => (across ? [row, col + i] : [row + i, col]);
            const [pr, pc] = step(-1);
            if (at(pr, pc) !== null) continue;
            let word = '';
            let notation = '';
            let used = 0;
            let i = 0;
            let through = 0;
            for (;;) {
              const [r, c] = step(i);
              if (r >= n || c >= n) break;
              const t = at(r, c);
              if (t !== null) {
                word += t;
                notation += '.';
                through++;
              } else if (used < seq.length) {
                word += seq[used];
                notation += seq[used];
                used++;
              } else break;
              i++;
            }
            if (used < seq.length || word.length < 2) continue;
            if (!empty && through === 0 && k > 1) continue;
            if (lexicon.has(word) !== valid) continue;
            const anchor = across ? `${row + 1}${COLS[col]}` : `${COLS[col]}${row + 1}`;
            const move = `${anchor} ${notation}`;
            const parsed = checkPlay({ board: b, distribution: ENGLISH, rack, lexicon, requireValidWords: valid }, parsePlayMove(move));
            if (!parsed.ok) continue;
            if (!valid && parsed.value.phonies.length === 0) continue;
            return { move, word, score: parsed.value.score, tilesUsed: used };
          }
        }
      }
    }
  }
  return null;
};

const parsePlayMove = (text: string): PlayMove => {
  const m = parseMove(text);
  if (!m.ok || m.value.kind !== 'play') throw new Error(`finder made a bad move ${text}`);
  return m.value;
};

/** Standard English tile values (seed-003 / the English distribution): for hand-checks of end adjustments. */
export const TILE_VALUES: Readonly<Record<string, number>> = {
  A: 1,
  B: 3,
  C: 3,
  D: 2,
  E: 1,
  F: 4,
  G: 2,
  H: 4,
  I: 1,
  J: 8,
  K: 5,
  L: 1,
  M: 3,
  N: 1,
  O: 1,
  P: 3,
  Q: 10,
  R: 1,
  S: 1,
  T: 1,
  U: 1,
  V: 4,
  W: 4,
  X: 8,
  Y: 4,
  Z: 10,
  '?': 0,
};
export const rackPoints = (rack: string): number => [...rack].reduce((n, t) => n + (TILE_VALUES[t] ?? 0), 0);

/** A match and its games, as the match tests and the hidden-information walk read it. */
export const MATCH_FIELDS = `
fragment MatchFields on Match {
  id status ruleSetId gameCount mySeat combinedScores
  players { seat points player { id handle } firstSecond { firsts seconds positions } }
  games { index firstSeat scores game { id status whoseTurn mySeat scores result { reason winner loser } } }
  result { winner { handle } winnerSeat tie decidedBy gameWinners }
}`;
export const CREATE_MATCH = `mutation($input: CreateMatchInput!) { createMatch(input: $input) { __typename ...MatchFields ... on Error { __typename code message details } } } ${MATCH_FIELDS}`;
