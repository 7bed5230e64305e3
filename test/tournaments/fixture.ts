/**
 * The tournament service on a fresh database of a store target (PGlite always, Postgres when configured
 * or reachable: test/store/targets.ts), without the API on top: the shipped lexicons registered as the app
 * registers them, players and an event with its director written as `arbiter` would, and a clock the test
 * moves.
 */
import { randomBytes } from 'node:crypto';
import type { RuleError } from '../../engine/errors.js';
import type { Result } from '../../engine/result.js';
import type { TournamentCommand } from '../../engine/tournament/commands.js';
import type { RoundState } from '../../engine/tournament/state.js';
import type { ServiceDeps } from '../../service/context.js';
import { loadLexiconRegistry } from '../../service/lexicons.js';
import { registerLexicons } from '../../service/lexicons.js';
import { runTournamentCommand, type CommandOptions, type TournamentView } from '../../service/tournaments.js';
import { insertOrganization, setOrganizationDirector } from '../../store/organizations.js';
import { insertApiKey, insertPlayer, type PlayerRow } from '../../store/players.js';
import { setRole } from '../../store/roles.js';
import { openTestDb, type StoreTarget, type TestDb } from '../store/targets.js';

export { STORE_TARGETS } from '../store/targets.js';

/** The shipped lexicons (built by `npm run lexicons`). */
export const LEXICONS = loadLexiconRegistry();
export const START = new Date('2027-03-06T09:00:00.000Z');

export interface Suite {
  readonly t: TestDb;
  readonly deps: ServiceDeps;
  setNow(d: Date): void;
  now(): Date;
  player(handle: string): Promise<PlayerRow>;
  /** An organization (kind event unless said) with `directors`. */
  organization(name: string, directors: readonly PlayerRow[], kind?: 'club' | 'event'): Promise<string>;
  /** A webhook subscription of `owner` to `kinds` (an API key made for it). */
  subscribe(owner: PlayerRow, kinds: readonly string[]): Promise<string>;
  close(): Promise<void>;
}

export const openSuite = async (target: StoreTarget): Promise<Suite> => {
  const t = await openTestDb(target);
  await registerLexicons(t.db.prisma, LEXICONS);
  let clock = START;
  const deps: ServiceDeps = { db: t.db, lexicons: LEXICONS, now: () => clock };
  return {
    t,
    deps,
    setNow: (d) => {
      clock = d;
    },
    now: () => clock,
    player: async (handle) => {
      const p = await insertPlayer(t.db.prisma, { handle, displayName: handle.toUpperCase(), passwordHash: null });
      if (!p) throw new Error(`player ${handle} exists`);
      return p;
    },
    organization: async (name, directors, kind = 'event') => {
      const o = await insertOrganization(t.db.prisma, { kind, name, createdBy: null });
      if (!o) throw new Error(`organization ${name} exists`);
      for (const d of directors) await setOrganizationDirector(t.db.prisma, o.id, d.id, true, null);
      return o.id;
    },
    subscribe: async (owner, kinds) => {
      const key = await insertApiKey(t.db.prisma, {
        ownerId: owner.id,
        name: 'hooks',
        prefix: randomBytes(6).toString('hex'),
        keyHash: randomBytes(32).toString('hex'),
        scopes: ['webhooks:manage'],
      });
      const s = await t.db.prisma.webhookSubscription.create({
        data: { apiKeyId: key.id, ownerId: owner.id, url: 'https://hooks.example.org/arbiter', kinds: [...kinds], secret: 'whsec_test' },
      });
      return s.id;
    },
    close: () => t.drop(),
  };
};

/** Makes `handle` a global director (what `arbiter director grant` does). */
export const makeGlobalDirector = async (s: Suite, handle: string): Promise<void> => {
  await setRole(s.t.db.prisma, handle, 'director');
};

/** The value of an ok result; the error, readably, otherwise. */
export const value = <T>(r: Result<T, RuleError>): T => {
  if (!r.ok) throw new Error(`expected ok, got ${r.error.code}: ${r.error.message} ${JSON.stringify(r.error.details ?? {})}`);
  return r.value;
};

/** The code of a refused result. */
export const codeOf = (r: Result<unknown, RuleError>): string => (r.ok ? 'OK' : r.error.code);

/** Runs a command as `who`. */
export const command = (s: Suite, who: PlayerRow, tournamentId: string, c: TournamentCommand, options?: CommandOptions) =>
  runTournamentCommand(s.deps, who.id, tournamentId, c, options);

/** A round of a division in a view. */
export const roundIn = (view: TournamentView, division: string, round: number): RoundState => {
  const d = view.state.divisions.find((x) => x.spec.name === division);
  const r = d?.rounds[round - 1];
  if (!r) throw new Error(`no round ${round} of division ${division}`);
  return r;
};

/** Counts of what a tournament has written: events, outbox rows, linked games. */
export const written = async (s: Suite, tournamentId?: string) => {
  const where = tournamentId ? { tournamentId } : {};
  return {
    tournaments: await s.t.db.prisma.tournament.count({ where: tournamentId ? { id: tournamentId } : {} }),
    events: await s.t.db.prisma.tournamentEvent.count({ where }),
    outbox: await s.t.db.prisma.outboxMessage.count({ where: tournamentId ? { tournamentId } : { tournamentId: { not: null } } }),
    players: await s.t.db.prisma.tournamentPlayer.count({ where }),
    games: await s.t.db.prisma.game.count({ where: tournamentId ? { tournamentId } : { tournamentId: { not: null } } }),
    idempotency: await s.t.db.prisma.idempotencyKey.count(),
  };
};
