/**
 * The play page's only way to the server: GraphQL over HTTP at /graphql, with the player's token.
 * The shapes below are the parts of the schema (schema.graphql) the page reads; web/ imports nothing
 * of the server's code.
 */

export interface Seat {
  readonly seat: number;
  readonly score: number;
  readonly isMe: boolean;
  readonly player: { readonly handle: string; readonly displayName: string } | null;
}

export interface GameSummary {
  readonly id: string;
  readonly status: string;
  readonly isMyTurn: boolean;
  readonly whoseTurn: number | null;
  readonly version: number;
  readonly seats: readonly Seat[];
}

export interface Move {
  readonly seat: number;
  readonly kind: string;
  readonly notation: string;
  readonly score: number;
  readonly words: readonly {
    readonly word: string;
    readonly letters: readonly { readonly square: string; readonly newlyPlaced: boolean }[];
  }[];
}

export interface Game extends GameSummary {
  readonly mySeat: number | null;
  readonly myRack: string | null;
  readonly bagCount: number;
  readonly legalActions: readonly string[];
  readonly ruleSet: { readonly id: string };
  readonly lexicon: { readonly name: string };
  readonly board: { readonly rows: readonly string[]; readonly premiums: readonly string[] } | null;
  readonly tileValues: readonly { readonly tile: string; readonly value: number }[];
  readonly lastMove: Move | null;
  readonly history: readonly Move[];
  readonly result: { readonly winner: number | null; readonly reason: string } | null;
}

/** A typed error of the API (the `Error` interface), or a transport failure. */
export interface ApiError {
  readonly code: string;
  readonly message: string;
}

export class ApiFailure extends Error {
  constructor(readonly failure: ApiError) {
    super(failure.message);
  }
}

const SEATS = 'seats { seat score isMe player { handle displayName } }';
const SUMMARY = `id status isMyTurn whoseTurn version ${SEATS}`;
const MOVE = 'seat kind notation score words { word letters { square newlyPlaced } }';
export const GAME_FIELDS = `${SUMMARY} mySeat myRack bagCount legalActions ruleSet { id } lexicon { name }
  board { rows premiums } tileValues { tile value } lastMove { ${MOVE} } history { ${MOVE} } result { winner reason }`;
const ERROR = '... on Error { code message }';

let token: string | null = sessionStorage.getItem('arbiter.token');

export const signedIn = (): boolean => token !== null;
/** The player's credential, for the requests gql does not make: the event streams (web/live.ts). */
export const authHeaders = (): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {});
export const signOut = (): void => {
  token = null;
  sessionStorage.removeItem('arbiter.token');
};

/** One GraphQL request; a field's typed error or a request error becomes an ApiFailure. */
export const gql = async <T>(query: string, variables: Record<string, unknown> = {}): Promise<T> => {
  let res: Response;
  try {
    res = await fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query, variables }),
    });
  } catch {
    throw new ApiFailure({ code: 'NETWORK', message: 'The server cannot be reached; trying again shortly.' });
  }
  const body = (await res.json()) as { data?: T; errors?: { message: string; extensions?: { code?: string } }[] };
  if (body.errors?.length) {
    const e = body.errors[0]!;
    throw new ApiFailure({ code: e.extensions?.code ?? 'ERROR', message: e.message });
  }
  return body.data as T;
};

/** The value of a `…Result` union field: the success type, or its typed error thrown. */
const unwrap = <T>(value: T | (ApiError & { __typename: string }), success: string): T => {
  const v = value as { __typename?: string; code?: string; message?: string };
  if (v.__typename !== success) throw new ApiFailure({ code: v.code ?? 'ERROR', message: v.message ?? 'The server refused.' });
  return value as T;
};

export const login = async (handle: string, password: string, register: boolean): Promise<void> => {
  const data = register
    ? await gql<{ r: unknown }>(
        `mutation($input: RegisterPlayerInput!) { r: registerPlayer(input: $input) { __typename ... on AuthPayload { token } ${ERROR} ... on ValidationError { issues { message } } } }`,
        { input: { handle, displayName: handle, password } },
      )
    : await gql<{ r: unknown }>(
        `mutation($h: String!, $p: String!) { r: login(handle: $h, password: $p) { __typename ... on AuthPayload { token } ${ERROR} } }`,
        {
          h: handle,
          p: password,
        },
      );
  const issues = (data.r as { issues?: { message: string }[] }).issues;
  if (issues?.length) throw new ApiFailure({ code: 'VALIDATION', message: issues.map((i) => i.message).join(' ') });
  token = unwrap(data.r as { token: string }, 'AuthPayload').token;
  sessionStorage.setItem('arbiter.token', token);
};

export const myGames = async (): Promise<GameSummary[]> => {
  const data = await gql<{ myGames: { edges: { node: GameSummary }[] } }>(`{ myGames(first: 50) { edges { node { ${SUMMARY} } } } }`);
  return data.myGames.edges.map((e) => e.node);
};

export const getGame = async (id: string): Promise<Game> => {
  const data = await gql<{ game: unknown }>(`query($id: ID!) { game(id: $id) { __typename ... on Game { ${GAME_FIELDS} } ${ERROR} } }`, {
    id,
  });
  return unwrap(data.game as Game, 'Game');
};

/** Only the version: what the page polls for where the server does not stream (a 501 from the event stream). */
export const gameVersion = async (id: string): Promise<number> => {
  const data = await gql<{ game: { version?: number } }>(`query($id: ID!) { game(id: $id) { ... on Game { version } } }`, { id });
  return data.game.version ?? -1;
};

export const createGame = async (opponent: string, ruleSet: string): Promise<Game> => {
  const data = await gql<{ g: unknown }>(
    `mutation($input: CreateGameInput!) { g: createGame(input: $input) { __typename ... on Game { ${GAME_FIELDS} } ${ERROR} } }`,
    { input: { opponent, ruleSet } },
  );
  return unwrap(data.g as Game, 'Game');
};

export interface Tentative {
  readonly move: string;
  readonly score: number;
  readonly words: readonly { readonly word: string; readonly score: number }[];
  readonly phonies: readonly string[];
}

/** The score the play would make, or the rule it breaks (checkPlay: nothing is played). */
export const checkPlay = async (game: Game, move: string): Promise<Tentative> => {
  const data = await gql<{ c: unknown }>(
    `query($input: CheckPlayInput!) { c: checkPlay(input: $input) { __typename ... on ScoredPlay { move score phonies words { word score } } ${ERROR} ... on ValidationError { issues { message } } } }`,
    { input: { board: game.board?.rows, move, rack: game.myRack, ruleSet: game.ruleSet.id, lexicon: game.lexicon.name } },
  );
  return unwrap(data.c as Tentative, 'ScoredPlay');
};

/** submitTurn with one action: { play: { move } }, { pass: true }, { exchange: { tiles } }, { challenge: {} }, { resign: true }. */
export const submitTurn = async (game: Game, action: Record<string, unknown>): Promise<Game> => {
  const data = await gql<{ t: unknown }>(
    `mutation($input: SubmitTurnInput!) { t: submitTurn(input: $input) { __typename ... on Game { ${GAME_FIELDS} } ${ERROR} } }`,
    { input: { gameId: game.id, expectedVersion: game.version, idempotencyKey: crypto.randomUUID(), action } },
  );
  return unwrap(data.t as Game, 'Game');
};

/** The robot opponents the server offers (the `robots` query); the page offers "play the robot" for each. */
export const robotOpponents = async (): Promise<string[]> => {
  const robots = await gql<{ robots: { handle: string }[] }>('{ robots { handle } }');
  return robots.robots.map((r) => r.handle);
};
