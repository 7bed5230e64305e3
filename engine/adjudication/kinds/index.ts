import { DISPUTE_KINDS, type DisputeKind } from '../dispute.js';
import { CHALLENGE_KINDS } from './challenge.js';
import { DRAWING_KINDS } from './drawing.js';
import { EXCHANGE_KINDS } from './exchange.js';
import { END_KINDS, TIMING_AND_SCORING_KINDS } from './game.js';
import { PLAY_KINDS } from './play.js';
import type { DisputeKindSpec } from './spec.js';

export * from './spec.js';
export * from './enums.js';

const ALL = [...EXCHANGE_KINDS, ...TIMING_AND_SCORING_KINDS, ...CHALLENGE_KINDS, ...DRAWING_KINDS, ...END_KINDS, ...PLAY_KINDS];
const BY_KIND = new Map(ALL.map((s) => [s.kind, s]));

/** The description of every dispute kind, in the order of `DISPUTE_KINDS` (a test checks each has exactly one). */
export const DISPUTE_SPECS: readonly DisputeKindSpec[] = DISPUTE_KINDS.flatMap((k) => BY_KIND.get(k) ?? []);

export const specOf = (kind: DisputeKind): DisputeKindSpec => BY_KIND.get(kind)!;

/** `illegal-exchange` → `illegalExchange`: the field of the API's DisputeInput for the kind. */
export const kindField = (kind: string): string => kind.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
