import type { DisputeFact, DisputeFiled, GameEvent, RulingApplied, Seat } from '../game/events.js';

/**
 * The disputes of a stored game, read from its log (issue 14): each `dispute-filed` with the
 * `ruling-applied` that settled it, as one seat or a spectator may see it. Hidden information stays
 * hidden: a fact private to a seat (a rack) is shown only to that seat, and a dispute with such a fact
 * shows its explanation and effects only to that seat; tiles a ruling reveals are shown to everyone.
 */

/** open: a director is to rule; appealed: the automatic ruling stands until a director rules; ruled. */
export const DISPUTE_STATUSES = ['open', 'appealed', 'ruled'] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];

export interface GameDispute {
  readonly number: number;
  readonly kind: string;
  readonly status: DisputeStatus;
  /** The version of the `dispute-filed` event. */
  readonly filedAt: number;
  readonly filedOn: string | null;
  readonly concerns: number;
  readonly player: Seat;
  readonly claimantSeat: Seat | null;
  readonly claimantId: string | null;
  readonly facts: readonly (DisputeFact & { readonly hidden: boolean })[];
  /** The automatic ruling of the rule set (hidden parts redacted). */
  readonly automatic: DisputeFiled['ruling'];
  /** The ruling applied, with the version of its event; null while open. */
  readonly applied: (RulingApplied & { readonly version: number }) | null;
  readonly note: string | null;
  /** The appeal of its automatic ruling (once per dispute), with the version of its event. */
  readonly appealed: { readonly seat: Seat; readonly by: string; readonly version: number; readonly note: string | null } | null;
}

const redact = (filed: DisputeFiled, viewer: Seat | null) => {
  const hides = (f: DisputeFact) => f.privateTo !== undefined && f.privateTo !== viewer;
  const hidden = filed.facts.some(hides);
  return {
    facts: filed.facts.map((f) => (hides(f) ? { ...f, value: null, hidden: true } : { ...f, hidden: false })),
    hidden,
  };
};

const redactRuling = <T extends { readonly effects?: readonly unknown[] }>(r: T, hidden: boolean, explanation: keyof T): T =>
  hidden ? { ...r, effects: [], [explanation]: 'Hidden: the ruling concerns a rack only its player may see.' } : r;

/** The game's disputes, oldest first, as `viewer` (a seat, or null for a spectator) may see them. */
export const disputesOf = (events: readonly GameEvent[], firstVersion: number, viewer: Seat | null): GameDispute[] => {
  const out = new Map<number, GameDispute>();
  events.forEach((e, i) => {
    const version = firstVersion + i;
    if (e.type === 'dispute-filed') {
      const { facts, hidden } = redact(e, viewer);
      out.set(e.dispute, {
        number: e.dispute,
        kind: e.kind,
        status: 'open',
        filedAt: version,
        filedOn: e.at ?? null,
        concerns: e.concerns,
        player: e.player,
        claimantSeat: e.seat,
        claimantId: e.by,
        facts,
        automatic: redactRuling(e.ruling, hidden, 'explanation'),
        applied: null,
        note: e.note ?? null,
        appealed: null,
      });
    } else if (e.type === 'dispute-appealed') {
      const d = out.get(e.dispute);
      if (d) out.set(e.dispute, { ...d, status: 'appealed', appealed: { seat: e.seat, by: e.by, version, note: e.note ?? null } });
    } else if (e.type === 'ruling-applied' && e.dispute !== undefined) {
      const d = out.get(e.dispute);
      if (!d) return;
      const hidden = d.facts.some((f) => f.hidden);
      out.set(e.dispute, { ...d, status: 'ruled', applied: { ...redactRuling(e, hidden, 'note'), version } });
    }
  });
  return [...out.values()];
};
