import { err } from '../../result.js';
import { pairingError } from './codes.js';
import { pairInitialFontes } from './initial-fontes.js';
import { pairKingOfTheHill } from './king-of-the-hill.js';
import { pairDoubleRoundRobin, pairMatchRoundRobin, pairRoundRobin } from './round-robin.js';
import { pairSwiss } from './swiss.js';
import type { Pairer, PairingMethod, PairingRequest, PairingResult } from './types.js';
import { pairWeighted } from './weighted.js';

/**
 * The pairing methods of issue 30, item 2, one pure function each (docs/tournament-pairing.md cites
 * the source of each). `manual` is not here: the director gives the pairs and {@link validatePairing}
 * checks them.
 */
export const PAIRERS: Record<Exclude<PairingMethod, 'manual'>, Pairer> = {
  'round-robin': pairRoundRobin,
  'double-round-robin': pairDoubleRoundRobin,
  'match-round-robin': pairMatchRoundRobin,
  'king-of-the-hill': pairKingOfTheHill,
  'initial-fontes': pairInitialFontes,
  swiss: pairSwiss,
  weighted: pairWeighted,
};

/** Pairs a round by the named method; `manual` is an error (MANUAL_METHOD): the director pairs it. */
export const pairRound = (method: PairingMethod, request: PairingRequest): PairingResult =>
  method === 'manual'
    ? err(
        pairingError(
          'MANUAL_METHOD',
          `method: round ${request.round} is paired by hand (manual); give the pairs and check them with validatePairing`,
          { method },
        ),
      )
    : PAIRERS[method](request);

export { PAIRING_ERROR_CODES, type PairingErrorCode } from './codes.js';
export { validatePairing } from './validate.js';
export { byeCandidates, chooseBye } from './byes.js';
export { decideFirst, drawFirst } from './first-second.js';
export { meetings, validateRequest } from './common.js';
export { bergerRound, fullSchedule } from './round-robin.js';
export { fontesGroups, INITIAL_FONTES_ROUNDS } from './initial-fontes.js';
export { canCatch, clinchedLeader } from './gibson.js';
export * from './types.js';
