/**
 * importGame over HTTP: a real record (test/fixtures/gcg/liwords) is replayed, stored as a finished
 * game, read back, and its gameRecord shows the same moves; a record with a wrong score is refused
 * with every mismatch listed; an unfinished one is refused. On PGlite and Postgres.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseGcg } from '../../engine/gcg/parse.js';
import { openTestApi, STORE_TARGETS, type TestApi } from '../api/harness.js';
import { GAME_FIELDS, GAME_RECORD, graphql, readGame, registerPlayer, type GameOrError, type GameView, type Player } from './client.js';

const RECORD = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'gcg', 'liwords', 'doug_vs_emely.gcg'), 'utf8');

const IMPORT = `mutation($input: ImportGameInput!) {
  importGame(input: $input) {
    __typename
    ...GameFields
    ... on ImportRejected { code message mismatches { code line expected actual reason } problems { code line message } }
    ... on Error { code message }
  }
} ${GAME_FIELDS}`;

/** The play lines of a record: player index, notation of the move, score. */
const plays = (gcg: string) => {
  const doc = parseGcg(gcg);
  if (!doc.ok) throw new Error(doc.error.message);
  return doc.value.events.flatMap((e) =>
    e.kind === 'move' && e.move.kind === 'play' ? [{ player: e.player, score: e.score, cumulative: e.cumulative }] : [],
  );
};

describe.each(STORE_TARGETS)('importGame on $kind', (target) => {
  let api: TestApi;
  let me: Player;
  beforeAll(async () => {
    api = await openTestApi(target);
    me = await registerPlayer(api, 'importer');
  });
  afterAll(async () => {
    await api?.close();
  });

  it('stores a corpus record as a finished game; the game and its record show the same moves', async () => {
    const g = (await graphql<GameOrError>(api, 'importGame', IMPORT, { input: { gcg: RECORD, seat: 0 } }, me.token)) as GameView;
    expect(g).toMatchObject({
      __typename: 'Game',
      status: 'ended',
      imported: true,
      mySeat: 0,
      bagCommitment: null,
      ruleSet: { id: 'GCG_IMPORT' },
    });
    const original = plays(RECORD);
    const history = g.history.filter((m) => m.kind === 'play');
    expect(history.map((m) => [m.seat, m.score])).toEqual(original.map((p) => [p.player, p.score]));
    const lastLine = parseGcg(RECORD);
    if (!lastLine.ok) throw new Error('parse');
    const finals = [0, 1].map((seat) => [...lastLine.value.events].reverse().find((e) => e.player === seat)!.cumulative);
    expect(g.scores).toEqual(finals);

    const again = await readGame(api, me, g.id);
    expect(again.version).toBe(g.version);
    const record = await graphql<{ gcg: string; complete: boolean; bagSeed: string | null }>(
      api,
      'gameRecord',
      GAME_RECORD,
      { id: g.id },
      me.token,
    );
    expect(record.complete).toBe(true);
    expect(record.bagSeed).toBeNull();
    expect(plays(record.gcg)).toEqual(original);

    const listed = await api.gql(`{ myGames(first: 5) { edges { node { id } } } }`, {}, me.token);
    expect(listed.body.data!['myGames'].edges.map((e: { node: { id: string } }) => e.node.id)).toContain(g.id);
  });

  it('refuses a record whose scores do not add up, listing each mismatch with its line', async () => {
    const lines = RECORD.split('\n');
    const at = lines.findIndex((l) => /^>.*\+\d+ \d+\s*$/.test(l) && / [0-9]+[A-O] | [A-O][0-9]+ /.test(l));
    const wrong = lines
      .map((l, i) => (i === at ? l.replace(/\+(\d+) (\d+)\s*$/, (_m, s: string, c: string) => `+${Number(s) + 1} ${Number(c) + 1}`) : l))
      .join('\n');
    const r = await graphql<{ __typename: string; code: string; mismatches: { code: string; line: number }[] }>(
      api,
      'importGame',
      IMPORT,
      { input: { gcg: wrong } },
      me.token,
    );
    expect(r).toMatchObject({ __typename: 'ImportRejected', code: 'GCG_REPLAY_FAILED' });
    expect(r.mismatches[0]).toMatchObject({ code: 'SCORE_MISMATCH', line: at + 1 });
  });

  it('refuses a record that stops before the end, and one that does not parse', async () => {
    const lines = RECORD.trimEnd().split('\n');
    const firstEvent = lines.findIndex((l) => l.startsWith('>'));
    const cut = lines.slice(0, firstEvent + 4).join('\n') + '\n';
    const r = await graphql<{ __typename: string; code: string }>(api, 'importGame', IMPORT, { input: { gcg: cut } }, me.token);
    expect(r).toMatchObject({ __typename: 'RuleViolation', code: 'GCG_INCOMPLETE' });
    const junk = await graphql<{ __typename: string; code: string; message: string }>(
      api,
      'importGame',
      IMPORT,
      { input: { gcg: '#player1 a A\n#player2 b B\n>a: ABC 8H +3 3\n' } },
      me.token,
    );
    expect(junk).toMatchObject({ __typename: 'RuleViolation' });
    expect(junk.message).toMatch(/^Line 3:/);
  });
});
