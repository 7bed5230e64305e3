import { describe, expect, it } from 'vitest';
import { fold, openingEvents, run, SEED } from '../game/game.fixtures.js';
import type { GameEvent } from '../game/events.js';
import { gameToGcg } from '../gcg/export.js';
import { formatGcg } from '../gcg/format.js';
import { parseGcg } from '../gcg/parse.js';
import { replayGcg } from '../gcg/replay.js';
import { PRESETS } from '../rules/presets.js';
import { disputesOf } from './game-disputes.js';
import { DISPUTE_SPECS } from './kinds/index.js';
import { factsFromLog } from './from-log.js';
import { fileDisputeOnGame, type DisputeClaim } from './on-game.js';

/**
 * Disputes on a game log (issue 14): the log's facts are read from it, claims that differ are refused,
 * and the ruling's events change the game. The log: Ann plays 8H CAT (version 4, draws at 5), Bob
 * exchanges QX (6: exchange, 7: draw, 8: tiles back), Ann plays (9), Bob challenges it.
 */
const logOf = (rules = PRESETS.NSA_2008): GameEvent[] => {
  let events = openingEvents(rules, ['CATSREE', 'AEIOUXQ']);
  let s = fold(null, events);
  for (const cmd of [
    { kind: 'play', seat: 0, move: '8H CAT' },
    { kind: 'exchange', seat: 1, tiles: ['Q', 'X'] },
  ] as const) {
    const r = run(s, cmd as never);
    events = [...events, ...r.events];
    s = r.state;
  }
  return events;
};

const claim = (kind: string, concerns: number, facts: Record<string, unknown>): DisputeClaim => ({ kind, concerns, player: null, facts });
const file = (events: GameEvent[], c: DisputeClaim, seat: 0 | 1 | null = 1) =>
  fileDisputeOnGame({ events, firstVersion: 1 }, c, { seat, by: 'p' }, SEED);

describe('facts from the log', () => {
  it('reads the exchange count, the bag then, the rack size and who moved from the events', () => {
    const r = factsFromLog('illegal-exchange', { events: logOf(), firstVersion: 1 }, 6);
    expect(r.ok && r.value.player).toBe(1);
    const facts = r.ok ? Object.fromEntries(r.value.facts.map((f) => [f.name, [f.value, f.version]])) : {};
    // 100 tiles − 14 dealt − 3 played and drawn again = 83 in the bag before the exchange (version 5).
    expect(facts).toEqual({ bagCount: [83, 5], exchangedCount: [2, 6], rackSize: [7, 1] });
  });

  it('reads the scores before the act, relative to the disputed seat', () => {
    const r = factsFromLog('resignation', { events: logOf(), firstVersion: 1 }, 6, null);
    expect(r.ok).toBe(false); // version 6 is an exchange, not a resignation
    const o = factsFromLog('overtime', { events: logOf(), firstVersion: 1 }, 6);
    expect(o.ok && o.value.facts).toEqual([{ name: 'scores', value: { player: 0, opponent: 10 }, version: 5 }]);
  });

  it('names the seat of an event that is no seat’s act only when told', () => {
    const none = factsFromLog('late-arrival', { events: logOf(), firstVersion: 1 }, 1 + 0);
    expect(none.ok ? null : none.error.code).toBe('INVALID_DISPUTE');
  });
});

describe('filing a dispute on a log', () => {
  it('a claim differing from the log is FACTS_CONTRADICT_LOG naming the fact and the version', () => {
    const r = file(logOf(), claim('exchange-count-mismatch', 6, { announced: 3, placedFaceDown: 3 }));
    expect(r.ok ? null : r.error).toMatchObject({
      code: 'FACTS_CONTRADICT_LOG',
      details: { field: 'placedFaceDown', log: 2, claimed: 3, version: 6 },
    });
  });

  it('a situation the log rules out (an exchange from a full bag called illegal) is FACTS_CONTRADICT_LOG', () => {
    const r = file(logOf(), claim('illegal-exchange', 6, { stage: 'announced' }));
    expect(r.ok ? null : r.error).toMatchObject({ code: 'FACTS_CONTRADICT_LOG', details: { field: 'bagCount', version: 5 } });
  });

  it('a scoring error is corrected: dispute-filed, then ruling-applied with the score change, folded into the game', () => {
    const events = logOf();
    const r = file(events, claim('scoring-error', 4, { correct: 12, slip: 'not-signed' }));
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.map((e) => e.type)).toEqual(['dispute-filed', 'ruling-applied']);
    const after = fold(null, [...events, ...r.value]);
    expect(after.scores).toEqual([12, 0]);
    expect(after.history.at(-1)).toMatchObject({ kind: 'ruling', move: 'SCORE_CORRECTED', score: 2, cumulative: 12 });
    const [d] = disputesOf([...events, ...r.value], 1, 0);
    expect(d).toMatchObject({
      number: 1,
      status: 'ruled',
      player: 0,
      claimantSeat: 1,
      applied: { version: 10, scoreChanges: [{ seat: 0, points: 2 }] },
    });
    expect(d!.facts.find((f) => f.name === 'announced')).toMatchObject({ value: 10, source: 'log', version: 4 });
  });

  it('a forfeit by ruling ends the game (reason ruling, the loser named, the seed revealed); a later correction still lands', () => {
    const events = logOf();
    const r = file(events, claim('overtime', 6, { secondsOver: 700 }));
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.map((e) => e.type)).toEqual(['dispute-filed', 'ruling-applied', 'forfeited', 'game-ended']);
    const ended = fold(null, [...events, ...r.value]);
    expect(ended.status).toBe('ended');
    expect(ended.result).toMatchObject({ reason: 'ruling', loser: 1, winner: 0, seed: SEED });
    const later = [...events, ...r.value];
    const fix = file(later, claim('scoring-error', 4, { correct: 12, slip: 'not-signed' }), 1);
    if (!fix.ok) throw new Error(fix.error.message);
    expect(fix.value.map((e) => e.type)).toEqual(['dispute-filed', 'ruling-applied']);
    expect(disputesOf([...later, ...fix.value], 1, null).map((d) => [d.number, d.kind, d.status])).toEqual([
      [1, 'overtime', 'ruled'],
      [2, 'scoring-error', 'ruled'],
    ]);
  });

  it('the GCG export writes the correction as a (ruling) line with a note, and such a line reads back as the same score change', () => {
    const events = logOf();
    const r = file(events, claim('scoring-error', 4, { correct: 12, slip: 'not-signed' }));
    if (!r.ok) throw new Error(r.error.message);
    const gcg = formatGcg(gameToGcg([...events, ...r.value], { viewer: null }));
    expect(gcg).toMatch(/>Ann: +\(ruling\) \+2 12\n#note ruling SCORE_CORRECTED \(dispute 1\): /);
    // A record with the line reads back into a ruling-applied event with the same score change.
    const record =
      '#player1 Ann Ann\n#player2 Bob Bob\n>Ann: CATSREE 8H CAT +10 10\n>Ann: (ruling) +2 12\n#note ruling SCORE_CORRECTED (dispute 1): corrected\n';
    const doc = parseGcg(record);
    if (!doc.ok) throw new Error(doc.error.message);
    const report = replayGcg(doc.value);
    expect([report.mismatches, report.errors]).toEqual([[], []]);
    expect(report.finalScores).toEqual({ Ann: 12, Bob: 0 });
    expect(report.events.filter((e) => e.type === 'ruling-applied')).toMatchObject([
      { ruling: 'SCORE_CORRECTED', scoreChanges: [{ seat: 0, points: 2 }] },
    ]);
  });

  it('the rack of a free trade is the player’s own: the opponent may not file it, and others do not see it', () => {
    const events = logOf(PRESETS.FRIENDLY);
    const byOpponent = file(events, { ...claim('free-trade', 6, { trades: 'Q' }) }, 0);
    expect(byOpponent.ok ? null : byOpponent.error.code).toBe('NOT_YOUR_DISPUTE');
    const own = file(events, claim('free-trade', 6, { trades: 'Q' }), 1);
    if (!own.ok) throw new Error(own.error.message);
    const all = [...events, ...own.value];
    const rackSeen = (seat: 0 | 1 | null) => disputesOf(all, 1, seat)[0]!.facts.find((f) => f.name === 'rack');
    expect(rackSeen(1)).toMatchObject({ source: 'log', hidden: false, privateTo: 1 });
    expect(rackSeen(1)!.value).toBe('AEIOUXQ');
    expect(rackSeen(0)).toMatchObject({ value: null, hidden: true });
    expect(rackSeen(null)).toMatchObject({ value: null, hidden: true });
    expect(disputesOf(all, 1, 0)[0]!.automatic.effects).toEqual([]);
  });
});

describe('every kind on a stored game', () => {
  const events = logOf();
  /** The act each kind is filed about in the log above: the exchange (6) for exchange kinds, else Ann's play (4). */
  const concernsOf = (kind: string) => (kind.includes('exchange') && kind !== 'exchange-unspecified' ? 6 : kind === 'resignation' ? 0 : 4);

  it.each(DISPUTE_SPECS.map((s) => [s.kind, s] as const))(
    '%s: the log’s facts win over the example’s, or the claim is refused with a typed code',
    (kind, spec) => {
      const { kind: _k, description: _d, ...example } = spec.example as Record<string, unknown>;
      const concerns = concernsOf(kind);
      const fromLog = factsFromLog(kind as never, { events, firstVersion: 1 }, concerns);
      const logNames = new Set(fromLog.ok ? fromLog.value.facts.map((f) => f.name) : []);
      // Claim only what the log cannot know, as a claimant should.
      const claimed = Object.fromEntries(Object.entries(example).filter(([name]) => !logNames.has(name)));
      const r = file(events, claim(kind, concerns, claimed), 1);
      if (!r.ok) {
        expect(['FACTS_CONTRADICT_LOG', 'INVALID_DISPUTE', 'NOT_YOUR_DISPUTE']).toContain(r.error.code);
        return;
      }
      const filed = r.value[0]!;
      if (filed.type !== 'dispute-filed') throw new Error('first event is not dispute-filed');
      expect(filed.kind).toBe(kind);
      for (const f of filed.facts) expect(f.source).toBe(logNames.has(f.name) ? 'log' : 'claimant');
      if (fromLog.ok) for (const f of fromLog.value.facts) expect(filed.facts.find((x) => x.name === f.name)?.value).toEqual(f.value);
      // The events fold onto the game.
      expect(fold(null, [...events, ...r.value]).eventCount).toBe(events.length + r.value.length);
      expect(r.value.map((e) => e.type)).toEqual(
        filed.ruling.verdict === 'DIRECTOR_DECIDES' ? ['dispute-filed'] : expect.arrayContaining(['dispute-filed', 'ruling-applied']),
      );
    },
  );
});
