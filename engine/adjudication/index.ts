/** Dispute adjudication: parse a dispute, answer it under a rule set. */
export { adjudicate } from './adjudicate.js';
export * from './dispute.js';
export { DISPUTE_ERROR_CODES, parseDispute } from './parse.js';
export {
  CHOICE_PURPOSES,
  CLOCK_ACTIONS,
  RULING_CODES,
  type ChoicePurpose,
  type ClockAction,
  type Effect,
  type EffectType,
  type Ruling,
  type RulingCode,
} from './ruling.js';
