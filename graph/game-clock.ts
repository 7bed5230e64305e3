import type { GameSnapshot } from '../service/game-reads.js';
import { builder } from './builder.js';
import { TimeControlTypeEnum } from './enums.js';

/**
 * A game's clock as GraphQL types: its time control, and for correspondence games the banks, the turn's
 * times and the pauses, as the service read them at the caller's `now`.
 */

interface TimeControlShape {
  readonly tc: GameSnapshot['timeControl'];
  readonly clock: GameSnapshot['clock'];
  /** A table clock's last readings by seat (recorded games); null for other games. */
  readonly readings: readonly (number | null)[] | null;
}

export const TimeControlType = builder.objectRef<TimeControlShape>('TimeControl').implement({
  description:
    'How the game is timed, and for correspondence games its clock now. Both players’ banks are public (as on a chess clock): the time a player has left is no secret.',
  fields: (t) => ({
    kind: t.string({
      description: 'How the game is timed, in the old spelling: untimed, correspondence or clock.',
      deprecationReason: 'Use type (the TimeControlType enum).',
      resolve: (x) => x.tc.kind,
    }),
    type: t.field({ type: TimeControlTypeEnum, description: 'How the game is timed.', resolve: (x) => x.tc.kind }),
    turnSeconds: t.int({
      nullable: true,
      description: 'Correspondence: seconds for each turn (3600–1209600); null for other types.',
      resolve: (x) => (x.tc.kind === 'correspondence' ? x.tc.turnSeconds : null),
    }),
    bankSeconds: t.int({
      nullable: true,
      description: 'Correspondence: each player’s bank at the start, in seconds (0–2592000); null for other types.',
      resolve: (x) => (x.tc.kind === 'correspondence' ? x.tc.bankSeconds : null),
    }),
    maxPauses: t.int({
      nullable: true,
      description: 'Correspondence: pauses allowed per game (default 2); null for other types, or when the default applies.',
      resolve: (x) => (x.tc.kind === 'correspondence' ? (x.tc.maxPauses ?? null) : null),
    }),
    maxPauseSeconds: t.int({
      nullable: true,
      description:
        'Correspondence: total seconds the game may be paused (default 1209600, 14 days); null for other types, or when the default applies.',
      resolve: (x) => (x.tc.kind === 'correspondence' ? (x.tc.maxPauseSeconds ?? null) : null),
    }),
    minutes: t.int({
      nullable: true,
      description: 'Clock: minutes per player; null for other types.',
      resolve: (x) => (x.tc.kind === 'clock' ? x.tc.minutes : null),
    }),
    secondsLeft: t.field({
      type: ['Int'],
      nullable: { list: true, items: true },
      description:
        'Clock (recorded games): each seat’s clock as last read by the scorekeeper, in seconds, by seat (negative = overtime; null = not read yet). null for other types.',
      resolve: (x) => (x.readings ? [...x.readings] : null),
    }),
    bankRemaining: t.intList({
      nullable: true,
      description:
        'Correspondence: seconds left in each seat’s bank now (by seat); the mover’s runs down once their turn time is used. null for other types and open games.',
      resolve: (x) => (x.clock ? [...x.clock.banksNow] : null),
    }),
    turnStartedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'Correspondence: when the current turn began (moved later by any pause during it); null otherwise.',
      resolve: (x) => date(x.clock?.turnStartedAt),
    }),
    pausedByDispute: t.boolean({
      nullable: true,
      description:
        'Correspondence: the clock stands still because a dispute awaits a director (rule set time.disputePausesClock; GamePause.disputes names them). Until it is ruled there is no deadline and no timeout. null for other types.',
      resolve: (x) => (x.clock ? x.clock.disputeHold !== null : null),
    }),
    turnTimeEndsAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'Correspondence: when the turn’s own time ends and the mover’s bank starts to run; null otherwise.',
      resolve: (x) => date(x.clock?.allowanceEndsAt),
    }),
  }),
});

const date = (iso: string | null | undefined): Date | null => (iso ? new Date(iso) : null);

export const GamePauseType = builder.objectRef<NonNullable<GameSnapshot['clock']>>('GamePause').implement({
  description:
    'Pauses of a correspondence game (by mutual agreement: requestPause, then respondToPause), and what is left of the game’s pause allowance.',
  fields: (t) => ({
    active: t.boolean({ description: 'The clock is stopped now.', resolve: (c) => c.paused }),
    since: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the running pause began; null when none is running.',
      resolve: (c) => (c.paused ? date(c.pause?.since) : null),
    }),
    until: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the running pause ends by itself (either player may resume earlier); null when none is running.',
      resolve: (c) => (c.paused ? date(c.pause?.until) : null),
    }),
    requestedBy: t.int({
      nullable: true,
      description: 'The seat (0 or 1) that asked for a pause not yet answered; null when no request is open.',
      resolve: (c) => c.pauseRequest?.seat ?? null,
    }),
    requestedSeconds: t.int({
      nullable: true,
      description: 'How long the open request asks for, in seconds; null when no request is open.',
      resolve: (c) => c.pauseRequest?.seconds ?? null,
    }),
    disputes: t.intList({
      description:
        'The open disputes (by number) that stop the clock now, as the rule set’s time.disputePausesClock says; empty when none does. That time is not taken from the pause allowance.',
      resolve: (c) => [...(c.disputeHold?.disputes ?? [])],
    }),
    disputesSince: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'Since when open disputes have stopped the clock in this turn; null when none does.',
      resolve: (c) => date(c.disputeHold?.since),
    }),
    used: t.int({ description: 'Pauses accepted so far in this game.', resolve: (c) => c.pausesUsed }),
    left: t.int({ description: 'Pauses still allowed in this game (TimeControl.maxPauses minus used).', resolve: (c) => c.pausesLeft }),
    secondsLeft: t.int({ description: 'Pause seconds still allowed in this game.', resolve: (c) => c.pauseSecondsLeft }),
  }),
});
