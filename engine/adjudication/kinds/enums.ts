import {
  BLANK_DESIGNATIONS,
  FORFEIT_ROLES,
  FOUND_PLACES,
  ILLEGAL_EXCHANGE_STAGES,
  LOOKUP_CULPRITS,
  LOOKUP_RESULTS,
  PARTIES,
  PLACEMENT_FAULTS,
  REQUEST_REPLIES,
  SLIP_STATES,
  SPILL_MOMENTS,
  TURN_RECORD_KINDS,
  UNDERDRAW_DISCOVERIES,
} from '../dispute.js';
import { enumOf } from './spec.js';

/** The closed vocabularies of dispute facts, named once for every kind (and API type) that uses them. */

export const PARTY = enumOf('DisputeParty', PARTIES, 'A party to the dispute: the player whose act is in dispute, or the opponent.');
export const ILLEGAL_EXCHANGE_STAGE = enumOf(
  'IllegalExchangeStage',
  ILLEGAL_EXCHANGE_STAGES,
  'How far an exchange with too few tiles in the bag got before it was noticed (seed-000 "Penalties"; WESPA 3.10.15(i)).',
);
export const TURN_RECORD_KIND = enumOf(
  'TurnRecordKind',
  TURN_RECORD_KINDS,
  'A turn in a run of turns: a scoreless kind (pass, exchange, challenged-off, lost-challenge, zero-point-play) or a scoring play.',
);
export const FORFEIT_ROLE = enumOf('DisputeForfeitRole', FORFEIT_ROLES, 'The player’s part in an unplayed game (seed-001 §4).');
export const SLIP_STATE = enumOf(
  'ResultSlipState',
  SLIP_STATES,
  'Where the result slip is: not signed, signed but not handed in, or submitted.',
);
export const UNDERDRAW_DISCOVERY = enumOf(
  'UnderdrawDiscovery',
  UNDERDRAW_DISCOVERIES,
  'When an underdraw was found, relative to the player’s next turn (WESPA 3.9.8).',
);
export const LOOKUP_CULPRIT = enumOf('LookupCulprit', LOOKUP_CULPRITS, 'Who caused a faulty lookup of challenged words.');
export const LOOKUP_RESULT = enumOf('LookupResult', LOOKUP_RESULTS, 'What a faulty lookup showed.');
export const PLACEMENT_FAULT = enumOf(
  'PlacementFault',
  PLACEMENT_FAULTS,
  'What was wrong with a challenged placement; none = the placement was legal (WESPA 3.10.14, A1.6).',
);
export const SPILL_MOMENT = enumOf('SpillMoment', SPILL_MOMENTS, 'When tiles were spilled or exposed, relative to drawing (WESPA 4.4).');
export const FOUND_PLACE = enumOf('FoundPlace', FOUND_PLACES, 'Where tiles turned up after the game seemed over (WESPA 4.3, 4.5).');
export const BLANK_DESIGNATION = enumOf(
  'BlankDesignation',
  BLANK_DESIGNATIONS,
  'The state of a blank’s designation when it is disputed (WESPA 3.8(b)–(d)).',
);
export const REQUEST_REPLY = enumOf('DisputeRequestReply', REQUEST_REPLIES, 'The opponent’s answer to a request.');
