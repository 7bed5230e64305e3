import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { recordingIo } from '../../cli/io.js';
import { main } from '../../cli/main.js';
import { DISPUTE_KINDS } from '../../engine/adjudication/dispute.js';
import { RULING_CODES, VERDICTS } from '../../engine/adjudication/ruling.js';
import { PARAMETERS } from '../../engine/rules/params.js';
import { RULE_SET_IDS } from '../../engine/rules/ruleset.js';

const EXAMPLES = fileURLToPath(new URL('../../examples/disputes/', import.meta.url));
const examples = readdirSync(EXAMPLES)
  .filter((f) => f.endsWith('.json'))
  .sort();

const cli = async (...args: string[]) => {
  const io = recordingIo();
  const code = await main(args, io);
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
};

describe('examples/disputes', () => {
  test('there is one example per dispute kind', () => {
    expect(examples.map((f) => f.replace(/\.json$/, ''))).toEqual([...DISPUTE_KINDS].sort());
  });

  test.each(examples.flatMap((f) => RULE_SET_IDS.map((id) => [f, id] as const)))('%s under %s answers', async (file, id) => {
    const r = await cli('adjudicate', join(EXAMPLES, file), '--rules', id, '--json');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const answer = JSON.parse(r.out) as { rules: string; verdict: string; ruling: string; citations: unknown[]; explanation: string };
    expect(answer.rules).toBe(id);
    expect(RULING_CODES).toContain(answer.ruling);
    expect(VERDICTS).toContain(answer.verdict);
    expect(answer.citations.length).toBeGreaterThan(0);
  });

  test.each([
    ['exchange-count-mismatch.json', 'NSA_2008', 'FACE_DOWN_COUNT_EXCHANGED', 'FORBIDDEN'],
    ['exchange-unspecified.json', 'NSA_2008', 'TURN_LOST', 'FORBIDDEN'],
    ['exchange-unspecified.json', 'WESPA', 'TURN_IS_PASS', 'FORBIDDEN'],
    ['exchange-unspecified.json', 'MATCH_VARIANT', 'ZERO_TILE_EXCHANGE', 'ALLOWED'],
    ['illegal-exchange.json', 'MATCH_VARIANT', 'NO_PENALTY', 'ALLOWED'],
    ['illegal-exchange.json', 'FRIENDLY', 'NO_REMEDY_STATED', 'FORBIDDEN'],
    ['challenge-outcome.json', 'ONLINE_VOID', 'NOT_APPLICABLE', 'NO_RULE'],
    ['challenge-outcome.json', 'WESPA', 'CHALLENGE_POINTS', 'ALLOWED'],
    ['forfeit-order.json', 'NSA_2008', 'FIRSTS_ASSIGNED', 'ALLOWED'],
    ['out-play-hold.json', 'NSA_2008', 'GAME_OVER', 'FORBIDDEN'],
    ['out-play-hold.json', 'WESPA', 'CHALLENGE_VALID', 'ALLOWED'],
    ['placement-challenge.json', 'NSA_2008', 'PLAY_WITHDRAWN', 'FORBIDDEN'],
    ['placement-challenge.json', 'WESPA', 'DIRECTOR_DISCRETION', 'DIRECTOR_DECIDES'],
    ['wrong-adjudication.json', 'NSA_2008', 'NO_CORRECTION', 'ALLOWED'],
    ['wrong-adjudication.json', 'WESPA', 'RULING_CORRECTED', 'FORBIDDEN'],
    ['free-trade.json', 'FRIENDLY', 'FREE_TRADE_ALLOWED', 'ALLOWED'],
    ['free-trade.json', 'WESPA', 'FREE_TRADE_REFUSED', 'FORBIDDEN'],
    ['blank-designation.json', 'MATCH_VARIANT', 'DESIGNATION_STANDS', 'ALLOWED'],
    ['abort-request.json', 'ONLINE_VOID', 'GAME_ABORTED', 'ALLOWED'],
    ['spilled-tiles.json', 'ONLINE_VOID', 'NOT_APPLICABLE', 'NO_RULE'],
  ])('%s under %s is %s (%s)', async (file, id, expected, verdict) => {
    const r = await cli('adjudicate', join(EXAMPLES, file), '--rules', id, '--json');
    expect(JSON.parse(r.out) as { ruling: string }).toMatchObject({ ruling: expected, verdict });
  });

  test('without --rules it answers under every preset', async () => {
    const r = await cli('adjudicate', join(EXAMPLES, 'overtime.json'), '--json');
    expect(r.code).toBe(0);
    const all = JSON.parse(r.out) as { rules: string; ruling: string; effects: unknown[] }[];
    expect(all.map((a) => a.rules)).toEqual([...RULE_SET_IDS]);
    expect(all.find((a) => a.rules === 'WESPA')?.effects).toEqual([{ type: 'score-delta', party: 'player', points: -30 }]);
  });

  test('--set overrides a parameter of the preset', async () => {
    const r = await cli(
      'adjudicate',
      join(EXAMPLES, 'challenge-outcome.json'),
      '--rules',
      'WESPA',
      '--set',
      'challenge.points=10',
      '--json',
    );
    const answer = JSON.parse(r.out) as { effects: unknown[]; citations: unknown[] };
    expect(answer.effects).toEqual([{ type: 'score-delta', party: 'player', points: 20 }]);
    expect(answer.citations).toContainEqual({ source: 'override', rule: 'challenge.points=10' });
  });

  test('text output names the ruling, the effects and the citations', async () => {
    const r = await cli('adjudicate', join(EXAMPLES, 'exchange-count-mismatch.json'), '--rules', 'NSA_2008');
    expect(r.out).toContain('NSA_2008: FACE_DOWN_COUNT_EXCHANGED (FORBIDDEN)');
    expect(r.out).toContain('tiles-exchanged party="player" count=4');
    expect(r.out).toContain('seed-000 Disputes');
  });
});

describe('arbiter adjudicate: bad input exits 2', () => {
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-adjudicate-'));
  const write = (name: string, text: string) => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };
  test.each([
    ['unreadable file', () => [join(dir, 'missing.json')], 'cannot read'],
    ['invalid JSON', () => [write('bad.json', '{"kind": ')], 'not valid JSON'],
    [
      'invalid dispute',
      () => [write('bag.json', '{"kind":"illegal-exchange","bagCount":9,"stage":"announced","exchangedCount":2}')],
      'bagCount',
    ],
    ['unknown kind', () => [write('kind.json', '{"kind":"tile-theft"}')], 'UNKNOWN_DISPUTE_KIND'],
    ['unknown preset', () => [join(EXAMPLES, 'going-out.json'), '--rules', 'NASPA_2099'], 'UNKNOWN_PRESET'],
    ['bad override', () => [join(EXAMPLES, 'going-out.json'), '--rules', 'WESPA', '--set', 'end.goingOut=triple'], 'end.goingOut'],
    ['no file', () => [], 'no dispute file'],
  ])('%s', async (_name, args, message) => {
    const r = await cli('adjudicate', ...args());
    expect(r.code).toBe(2);
    expect(r.err).toContain(message);
  });
});

describe('arbiter rules', () => {
  test('--json lists every preset with every parameter, value and source', async () => {
    const r = await cli('rules', '--json');
    expect(r.code).toBe(0);
    const { presets } = JSON.parse(r.out) as {
      presets: { id: string; parameters: { path: string; value: unknown; sources: unknown[] }[] }[];
    };
    expect(presets.map((p) => p.id)).toEqual([...RULE_SET_IDS]);
    for (const p of presets) {
      expect(p.parameters.map((x) => x.path)).toEqual(PARAMETERS.map((x) => x.path));
      for (const x of p.parameters) expect(x.sources.length, `${p.id} ${x.path}`).toBeGreaterThan(0);
    }
    const nsa = presets.find((p) => p.id === 'NSA_2008')!;
    expect(nsa.parameters.find((x) => x.path === 'challenge.windowSeconds')).toMatchObject({
      value: 5,
      sources: [{ source: 'seed-001', rule: '§8' }],
    });
  });

  test('one preset with an override', async () => {
    const r = await cli('rules', 'WESPA', '--set', 'challenge.points=10', '--json');
    const p = JSON.parse(r.out) as { id: string; parameters: { path: string; value: unknown; sources: unknown[] }[] };
    expect(p.id).toBe('WESPA');
    expect(p.parameters.find((x) => x.path === 'challenge.points')).toMatchObject({
      value: 10,
      sources: [{ source: 'override', rule: 'challenge.points=10' }],
    });
  });

  test('text output has one line per parameter', async () => {
    const r = await cli('rules', 'MATCH_VARIANT');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/end\.consecutiveExchangesEach\s+2\s+seed-003 rule 12b \[Seed\]/);
  });

  test.each([
    [['rules', 'NASPA_2099'], 'UNKNOWN_PRESET'],
    [['rules', '--set', 'challenge.points=3'], 'needs a PRESET'],
    [['rules', 'WESPA', '--set', 'challenge.points=x'], 'challenge.points'],
  ])('%j exits 2', async (args, message) => {
    const r = await cli(...args);
    expect(r.code).toBe(2);
    expect(r.err).toContain(message);
  });
});
