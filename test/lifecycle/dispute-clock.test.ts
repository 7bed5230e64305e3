/**
 * An open dispute stops the correspondence clock where the rule set says so (issue 14; NSA_2008:
 * `time.disputePausesClock` = while-open), over HTTP on PGlite and on Postgres with the app's clock moved
 * by the test: while a dispute awaits a director there is no deadline, claimTimeout is refused and the
 * sweeper leaves the game; the director's ruling restarts the clock with the turn's start moved later by
 * the time stopped, and the pause allowance is untouched. Every time is worked out by hand.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepDeadlines } from '../../service/lifecycle.js';
import { LEXICONS, START, STORE_TARGETS, type TestApi } from '../api/harness.js';
import { act, ERROR_FIELDS, findPlay, graphql, readGame, type Player, useFixedBagSeeds } from '../e2e/client.js';
import { closeSuite, createApiKey, createGameAs, giveRole, mutate, openSuite, registerPlayers } from '../e2e/fixture.js';
import { botPlayer } from './fixture.js';

useFixedBagSeeds('dispute-clock');

const MIN = 60_000;
const HOUR = 60 * MIN;
const at = (ms: number): Date => new Date(START.getTime() + ms);
const iso = (ms: number): string => at(ms).toISOString();

const CLOCK = `fragment Clock on Game {
  id version status deadline whoseTurn
  timeControl { pausedByDispute turnStartedAt bankRemaining }
  pause { active disputes disputesSince used left secondsLeft }
}`;
const ERR = `... on Error { code message details }`;
const GAME_CLOCK = `query($id: ID!) { game(id: $id) { __typename ...Clock ${ERR} } } ${CLOCK}`;
const CLAIM = `mutation($id: ID!) { claimTimeout(gameId: $id) { __typename ...Clock ${ERR} } } ${CLOCK}`;
const FILE = `mutation($input: FileDisputeInput!) { fileDispute(input: $input) { __typename
  ... on FiledDispute { dispute { number status } game { version } } ${ERROR_FIELDS} } }`;
const RULE = `mutation($input: RuleOnDisputeInput!) { ruleOnDispute(input: $input) { __typename
  ... on FiledDispute { dispute { number status ruling { code directorId } } game { version } } ${ERROR_FIELDS} } }`;

interface Clocked {
  __typename: string;
  version: number;
  status: string;
  deadline: string | null;
  whoseTurn: number;
  timeControl: { pausedByDispute: boolean | null; turnStartedAt: string | null; bankRemaining: number[] | null };
  pause: { active: boolean; disputes: number[]; disputesSince: string | null; used: number; left: number; secondsLeft: number };
  code?: string;
  details?: Record<string, unknown>;
}
interface Filed {
  __typename: string;
  code?: string;
  dispute: { number: number; status: string; ruling: { code: string; directorId: string } | null };
  game: { version: number };
}

describe.each(STORE_TARGETS)('an open dispute stops the correspondence clock on $kind', (target) => {
  let api: TestApi;
  let a: Player;
  let b: Player;
  let dir: Player;
  beforeAll(async () => {
    api = await openSuite(target, `dispute-clock-seed-${target.kind}`);
    [a, b] = [await botPlayer(api, 'amy'), await botPlayer(api, 'bob')];
    // A director acting through an API key with disputes:rule (keys do not expire while the test moves the clock).
    const [d] = await registerPlayers(api, 'dee');
    await giveRole(api, d, 'director');
    dir = { ...d, token: (await createApiKey(api, d, 'director desk', ['games:read', 'disputes:rule'])).key };
  });
  afterAll(() => closeSuite(api));

  const clock = (p: Player, id: string) => graphql<Clocked>(api, 'game', GAME_CLOCK, { id }, p.token);
  const sweep = (when: number) => sweepDeadlines({ db: api.app.services.db, now: () => at(when) });
  const row = (id: string) =>
    api.app.services.db.prisma.game.findUniqueOrThrow({ where: { id }, select: { deadlineAt: true, status: true } });

  it('no deadline while a director is awaited; the ruling restarts the clock later by the time stopped', async () => {
    api.setNow(at(0));
    const g = await createGameAs(api, a, {
      opponent: b.handle,
      preset: 'NSA_2008',
      timeControl: { kind: 'correspondence', turnSeconds: 3600, bankSeconds: 600 },
    });
    // 0:10 Amy plays; Bob's turn from 0:10: deadline 0:10 + 1 h + 600 s = 1:20.
    api.setNow(at(10 * MIN));
    const view = await readGame(api, a, g.id);
    const lex = LEXICONS.get(view.lexicon.name);
    if (!lex.ok) throw new Error(lex.error.message);
    const play = findPlay(view, lex.value, true)!;
    const played = await act(api, a, g.id, { play: { move: play.move } });
    expect((await clock(b, g.id)).deadline).toBe(iso(HOUR + 20 * MIN));

    // 0:20 Bob says Amy drew 2 s after pressing the clock: NSA_2008 leaves that to a director (OPEN).
    api.setNow(at(20 * MIN));
    const filed = await mutate<Filed>(api, b, 'fileDispute', FILE, {
      gameId: g.id,
      expectedVersion: played.version,
      dispute: { kind: 'fast-bagging', concerns: view.version + 1, facts: { secondsBeforeDraw: 2 } },
    });
    expect(filed.dispute).toMatchObject({ number: 1, status: 'OPEN' });
    const stopped = await clock(a, g.id);
    expect(stopped).toMatchObject({
      deadline: null,
      whoseTurn: 1,
      timeControl: { pausedByDispute: true, turnStartedAt: iso(10 * MIN), bankRemaining: [600, 600] },
      pause: { active: false, disputes: [1], disputesSince: iso(20 * MIN), used: 0, left: 2, secondsLeft: 1_209_600 },
    });
    expect(await row(g.id)).toEqual({ deadlineAt: null, status: 'playing' });

    // 5:00, long past 1:20: no timeout can be claimed, and the sweeper does not see the game.
    api.setNow(at(5 * HOUR));
    const claim = await graphql<Clocked>(api, 'claimTimeout', CLAIM, { id: g.id }, a.token);
    expect(claim).toMatchObject({ code: 'NOT_OVERDUE', details: { deadline: null, pausedByDisputes: [1] } });
    expect((await clock(a, g.id)).timeControl.bankRemaining).toEqual([600, 600]);
    expect(await sweep(5 * HOUR)).toMatchObject({ scanned: 0, timedOut: 0 });
    expect((await row(g.id)).status).toBe('playing');

    // 6:00 the director dismisses it: 5:40 stopped, so Bob's turn starts at 5:50 and his deadline is 7:00.
    api.setNow(at(6 * HOUR));
    const ruled = await mutate<Filed>(api, dir, 'ruleOnDispute', RULE, {
      gameId: g.id,
      dispute: 1,
      expectedVersion: filed.game.version,
      ruling: { remedy: 'NO_PENALTY', note: 'The draw was not early enough to matter.' },
    });
    expect(ruled.dispute).toMatchObject({ status: 'RULED', ruling: { code: 'NO_PENALTY', directorId: dir.id } });
    expect(await clock(a, g.id)).toMatchObject({
      deadline: iso(7 * HOUR),
      timeControl: { pausedByDispute: false, turnStartedAt: iso(5 * HOUR + 50 * MIN), bankRemaining: [600, 600] },
      // The time stopped is not taken from the pause allowance.
      pause: { disputes: [], disputesSince: null, used: 0, left: 2, secondsLeft: 1_209_600 },
    });
    expect((await row(g.id)).deadlineAt).toEqual(at(7 * HOUR));

    // The clock runs again: refused a second before 7:00, the sweeper ends the game at 7:00.
    api.setNow(at(7 * HOUR - 1000));
    expect(await graphql<Clocked>(api, 'claimTimeout', CLAIM, { id: g.id }, a.token)).toMatchObject({
      code: 'NOT_OVERDUE',
      details: { deadline: iso(7 * HOUR) },
    });
    expect(await sweep(7 * HOUR - 1000)).toMatchObject({ scanned: 0 });
    expect(await sweep(7 * HOUR)).toMatchObject({ scanned: 1, timedOut: 1 });
    expect((await row(g.id)).status).toBe('ended');
  });
});
