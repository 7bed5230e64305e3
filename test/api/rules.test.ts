import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PARAMETERS } from '../../engine/rules/params.js';
import { openTestApi, STORE_TARGETS, type TestApi } from './harness.js';

const CHECK_PLAY = `query($input: CheckPlayInput!) {
  checkPlay(input: $input) {
    __typename
    ... on ScoredPlay {
      move score bingo bingoBonus phonies phoniesAllowed rackAfter ruleSet
      lexicon { name }
      words { word main start score letterSum wordMultiplier valid letters { square letter premium value } }
      placements { square letter blank }
    }
    ... on ValidationError { issues { field message } }
    ... on Error { code message details citation { source rule } }
  }
}`;

/** The standard board with CAT across at 8G (C on G8, A on H8, T on I8); `.` = empty. */
const CAT_BOARD = Array.from({ length: 15 }, (_, i) => (i === 7 ? '......CAT......' : '...............'));

describe.each(STORE_TARGETS)('rules queries on $kind', (target) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await openTestApi(target);
  });
  afterAll(async () => {
    await api?.close();
  });
  const checkPlay = async (input: Record<string, unknown>) => (await api.gql(CHECK_PLAY, { input })).body.data!['checkPlay'];

  it('scores an opening bingo: 8D JUKEBOX = (J 8×2 + U 1 + K 5 + E 1 + B 3 + O 1 + X 8) × 2 + 50 = 120', async () => {
    const r = await checkPlay({ move: '8D JUKEBOX', rack: 'JUKEBOX' });
    expect(r).toMatchObject({
      __typename: 'ScoredPlay',
      move: '8D JUKEBOX',
      score: 120,
      bingo: true,
      bingoBonus: 50,
      phonies: [],
      rackAfter: '',
      ruleSet: 'NSA_2008',
      lexicon: { name: 'SOWPODS' },
    });
    expect(r.words).toHaveLength(1);
    expect(r.words[0]).toMatchObject({
      word: 'JUKEBOX',
      main: true,
      start: '8D',
      letterSum: 35,
      wordMultiplier: 2,
      score: 70,
      valid: true,
    });
    expect(
      r.words[0].letters.map((l: { square: string; premium: string | null; value: number }) => [l.square, l.premium, l.value]),
    ).toEqual([
      ['D8', 'DLS', 16],
      ['E8', null, 1],
      ['F8', null, 5],
      ['G8', null, 1],
      ['H8', 'DWS', 3],
      ['I8', null, 1],
      ['J8', null, 8],
    ]);
  });

  it('takes the bingo bonus from rule-set overrides: 70 + 35 = 105', async () => {
    const r = await checkPlay({ move: '8D JUKEBOX', overrides: { board: { bingoBonus: 35 } } });
    expect([r.__typename, r.score, r.bingoBonus]).toEqual(['ScoredPlay', 105, 35]);
  });

  it('plays onto a board given as rows: J6 ZOS hooks CAT → ZOS (Z 10×3 TLS + O 1 + S 1 = 32) + CATS (3+1+1+1 = 6) = 38', async () => {
    const r = await checkPlay({ board: CAT_BOARD, move: 'J6 ZOS', rack: 'ZOSEEIR' });
    expect(r).toMatchObject({ __typename: 'ScoredPlay', move: 'J6 ZOS', score: 38, bingo: false, rackAfter: 'EEIR' });
    expect(r.words.map((w: { word: string; start: string; score: number; main: boolean }) => [w.word, w.start, w.score, w.main])).toEqual([
      ['ZOS', 'J6', 32, true],
      ['CATS', '8G', 6, false],
    ]);
    expect(r.placements).toEqual([
      { square: 'J6', letter: 'Z', blank: false },
      { square: 'J7', letter: 'O', blank: false },
      { square: 'J8', letter: 'S', blank: false },
    ]);
  });

  it('lists a phony where the rule set lets it stand until challenged (NSA double challenge): 8H XYZZY scores (8+4+10+10+4×2) × 2 = 80', async () => {
    const r = await checkPlay({ move: '8H XYZZY' });
    expect(r).toMatchObject({ __typename: 'ScoredPlay', score: 80, phonies: ['XYZZY'], phoniesAllowed: true });
    expect(r.words[0].valid).toBe(false);
  });

  it.each([
    [
      'a phony where nothing can be challenged (ONLINE_VOID)',
      { move: '8H XYZZY', ruleSet: 'ONLINE_VOID' },
      'INVALID_WORDS',
      { source: 'seed-003', rule: 'rule 5' },
      /forms a word not in SOWPODS: XYZZY/,
    ],
    [
      'a first play off the centre',
      { move: '8A CAT' },
      'MISSES_CENTRE',
      { source: 'seed-003', rule: 'rule 3' },
      /must cover the centre square H8/,
    ],
    [
      'tiles not on the rack',
      { move: '8D JUKEBOX', rack: 'JUKEBOY' },
      'TILES_NOT_IN_RACK',
      { source: 'seed-003', rule: 'rule 4' },
      /needs X, which the rack JUKEBOY does not hold/,
    ],
    [
      'a play not connected to the board',
      { board: CAT_BOARD, move: '2B DOG' },
      'NOT_CONNECTED',
      { source: 'seed-003', rule: 'rule 5' },
      /neither uses nor adjoins/,
    ],
    [
      'a rack of eight tiles',
      { move: '8D JUKEBOX', rack: 'QUIXOTIC' },
      'RACK_TOO_BIG',
      { source: 'seed-003', rule: 'rule 2' },
      /holds 8 tiles/,
    ],
    ['an exchange instead of a play', { move: '-ABC' }, 'NOT_A_PLAY', { source: 'gcg', rule: '§3 event lines' }, /is an exchange/],
    ['a move that is not notation', { move: 'CAT' }, 'BAD_MOVE', { source: 'gcg', rule: '§3 event lines' }, /is not a move/],
    ['a bad coordinate', { move: 'H CAT' }, 'BAD_COORDINATE', { source: 'gcg', rule: '§3 event lines' }, /"H" is not a coordinate/],
    [
      'a bad rack',
      { move: '8D JUKEBOX', rack: 'juke' },
      'BAD_RACK',
      { source: 'gcg', rule: '§3 event lines' },
      /"j" at position 1 of the rack "juke"/,
    ],
    [
      'a board with 14 rows',
      { board: CAT_BOARD.slice(1), move: '8D JUKEBOX' },
      'BAD_BOARD',
      null,
      /The board has 14 rows; the CrosswordGame board has 15/,
    ],
    [
      'a short row',
      { board: CAT_BOARD.map((r, i) => (i === 2 ? r.slice(1) : r)), move: '8D JUKEBOX' },
      'BAD_BOARD',
      null,
      /^Row 3 \("\.{14}"\) has 14 squares/,
    ],
    [
      'a bad square',
      { board: CAT_BOARD.map((r, i) => (i === 4 ? `${r.slice(0, 3)}#${r.slice(4)}` : r)), move: '8D JUKEBOX' },
      'BAD_BOARD',
      null,
      /^Row 5 \("\.\.\.#\.+"\) has "#" at position 4/,
    ],
    ['an unknown preset', { move: '8D JUKEBOX', ruleSet: 'NOPE' }, 'UNKNOWN_PRESET', null, /no rule-set preset "NOPE"/],
    [
      'a bad override',
      { move: '8D JUKEBOX', overrides: { board: { bingoBonus: -1 } } },
      'BAD_RULE_PARAMETER',
      null,
      /board\.bingoBonus cannot be -1/,
    ],
    ['an unknown lexicon', { move: '8D JUKEBOX', lexicon: 'NOPE' }, 'LEXICON_NOT_FOUND', null, /No lexicon named "NOPE"/],
  ])('refuses %s with RuleViolation %s', async (_name, input, code, citation, message) => {
    const r = await checkPlay(input);
    expect(r.__typename).toBe('RuleViolation');
    expect(r.code).toBe(code);
    expect(r.citation).toEqual(citation);
    expect(r.message).toMatch(message);
  });

  it('refuses an empty move with a ValidationError naming input.move', async () => {
    const r = await checkPlay({ move: '' });
    expect(r).toMatchObject({ __typename: 'ValidationError', code: 'VALIDATION', issues: [{ field: 'input.move' }] });
  });

  it('checks words against the default lexicon and a named one', async () => {
    const q = `query($w: [String!]!, $l: String) { checkWords(words: $w, lexicon: $l) { __typename ... on WordCheck { allValid lexicon { name } results { word valid } } ... on Error { code } } }`;
    const sow = (await api.gql(q, { w: ['qi', 'ZZZQ', ' cat '] })).body.data!['checkWords'];
    expect(sow).toEqual({
      __typename: 'WordCheck',
      allValid: false,
      lexicon: { name: 'SOWPODS' },
      results: [
        { word: 'QI', valid: true },
        { word: 'ZZZQ', valid: false },
        { word: 'CAT', valid: true },
      ],
    });
    const wl = (await api.gql(q, { w: ['CAT'], l: 'wordlist' })).body.data!['checkWords'];
    expect(wl).toEqual({ __typename: 'WordCheck', allValid: true, lexicon: { name: 'WORDLIST' }, results: [{ word: 'CAT', valid: true }] });
    expect((await api.gql(q, { w: [] })).body.data!['checkWords']).toEqual({ __typename: 'ValidationError', code: 'VALIDATION' });
  });

  it('lists the lexicons with name, hash and word count', async () => {
    const r = (await api.gql(`{ lexicons { name hash wordCount isDefault } }`)).body.data!['lexicons'];
    expect(r.map((l: { name: string; isDefault: boolean }) => [l.name, l.isDefault])).toEqual([
      ['SOWPODS', true],
      ['WORDLIST', false],
    ]);
    for (const l of r) {
      expect(l.hash).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(l.wordCount).toBeGreaterThan(100_000);
    }
  });

  it('lists all five presets, each with every parameter and its sources', async () => {
    const r = (await api.gql(`{ ruleSets { id name parameters { path value allowed sources { source rule } } } }`)).body.data!['ruleSets'];
    expect(r.map((rs: { id: string }) => rs.id)).toEqual(['NSA_2008', 'WESPA', 'FRIENDLY', 'MATCH_VARIANT', 'ONLINE_VOID']);
    const mode = (rs: { parameters: { path: string; value: unknown }[] }) => rs.parameters.find((p) => p.path === 'challenge.mode')!.value;
    expect(r.map(mode)).toEqual(['double', 'points-per-word', 'free', 'double', 'void']);
    for (const rs of r) {
      expect(rs.parameters.map((p: { path: string }) => p.path)).toEqual(PARAMETERS.map((p) => p.path));
      for (const p of rs.parameters) expect(p.sources.length, `${rs.id} ${p.path}`).toBeGreaterThan(0);
    }
    const bingo = r[0].parameters.find((p: { path: string }) => p.path === 'board.bingoBonus');
    expect(bingo).toEqual({
      path: 'board.bingoBonus',
      value: 50,
      allowed: 'integer 0–1000',
      sources: [{ source: 'seed-003', rule: 'scoring 8' }],
    });
  });

  it('resolves a preset with overrides, citing the override', async () => {
    const q = `query($o: JSON) { ruleSet(id: "WESPA", overrides: $o) { __typename ... on RuleSet { parameters { path value sources { source rule } } } ... on Error { code message } } }`;
    const r = (await api.gql(q, { o: { challenge: { points: 10 } } })).body.data!['ruleSet'];
    expect(r.parameters.find((p: { path: string }) => p.path === 'challenge.points')).toEqual({
      path: 'challenge.points',
      value: 10,
      sources: [{ source: 'override', rule: 'challenge.points=10' }],
    });
    const bad = (await api.gql(q, { o: { challenge: { nope: 1 } } })).body.data!['ruleSet'];
    expect(bad).toMatchObject({ __typename: 'RuleViolation', code: 'UNKNOWN_RULE_PARAMETER' });
  });

  it('adjudicates a dispute: 125 s over time under NSA 2008 is 3 started minutes × 10 = −30 points', async () => {
    const q = `query($d: JSON!, $rs: String) { adjudicate(dispute: $d, ruleSet: $rs) { __typename ... on Ruling { ruling effects explanation ruleSet citations { source } } ... on Error { code message } } }`;
    const r = (await api.gql(q, { d: { kind: 'overtime', secondsOver: 125 } })).body.data!['adjudicate'];
    expect(r).toMatchObject({
      __typename: 'Ruling',
      ruling: 'OVERTIME_PENALTY',
      ruleSet: 'NSA_2008',
      effects: [{ type: 'score-delta', party: 'player', points: -30 }],
    });
    expect(r.citations.length).toBeGreaterThan(0);
    const friendly = (await api.gql(q, { d: { kind: 'overtime', secondsOver: 125 }, rs: 'FRIENDLY' })).body.data!['adjudicate'];
    expect(friendly).toMatchObject({ __typename: 'Ruling', ruling: 'NOT_APPLICABLE', effects: [] });
    const unknown = (await api.gql(q, { d: { kind: 'food-fight' } })).body.data!['adjudicate'];
    expect(unknown).toMatchObject({ __typename: 'RuleViolation', code: 'UNKNOWN_DISPUTE_KIND' });
  });
});
