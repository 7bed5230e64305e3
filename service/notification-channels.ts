import type { Db } from './context.js';

/**
 * The contract between the notifier (service/notifications*.ts: preferences, quiet hours, digests, "not
 * while I am connected") and the channels that reach a person (service/mail*.ts: e-mail;
 * service/push*.ts: Web Push). The notifier decides who is told what and when; a channel only carries it.
 * Webhooks are the third channel a preference can name; they keep their own sender (service/webhook-*.ts).
 */

/** What a player can be told about (docs/correspondence.md, notifications). */
export const NOTIFICATION_KINDS = [
  'your-turn',
  'game-started',
  'game-ended',
  'challenge-resolved',
  'dispute-filed',
  'dispute-ruled',
  'deadline-near',
  'round-paired',
  'result-recorded',
  'slip-submitted',
  'standings-changed',
  'challenge-received',
  'challenge-answered',
  'seek-accepted',
  'pairing-found',
  'robot-offered',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const isNotificationKind = (x: unknown): x is NotificationKind => (NOTIFICATION_KINDS as readonly unknown[]).includes(x);

export const NOTIFICATION_CHANNELS = ['push', 'email', 'webhook'] as const;
export type NotificationChannelName = (typeof NOTIFICATION_CHANNELS)[number];

/** One thing to tell one player, ready to send. */
export interface Notice {
  /** The notification's id: the same on every retry, so a receiver (or a mailbox) can de-duplicate. */
  readonly id: string;
  readonly playerId: string;
  readonly kind: NotificationKind;
  readonly gameId: string | null;
  readonly tournamentId: string | null;
  /** The game's (or tournament's) version the notice is about. */
  readonly version: number | null;
  /** One line: "Your move against Alice". */
  readonly title: string;
  /** One or two plain sentences, no markup. */
  readonly body: string;
  /** Absolute link to the game's play page (or the tournament's page). */
  readonly url: string;
  readonly at: Date;
}

/** A failure is permanent when retrying cannot help (no verified address, a subscription the push service says is gone). */
export type ChannelOutcome = { readonly ok: true } | { readonly ok: false; readonly permanent: boolean; readonly error: string };

export interface NotificationChannel {
  readonly name: Exclude<NotificationChannelName, 'webhook'>;
  /** Whether the player can be reached here at all (a verified, unbounced address; a live push subscription). */
  reachable(db: Db, playerId: string): Promise<boolean>;
  /** Sends one notice, or several (a digest, all of the same player) as one message. */
  send(db: Db, playerId: string, notices: readonly Notice[]): Promise<ChannelOutcome>;
}
