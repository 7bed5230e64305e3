import { ruleError, type RuleError } from '../errors.js';
import { err, ok, type Result } from '../result.js';
import { without } from '../game/multiset.js';
import { joinTiles } from '../tiles.js';
import { Facts } from './facts.js';
import {
  BLANK_DESIGNATIONS,
  DISPUTE_KINDS,
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
  isDisputeKind,
  type Dispute,
  type DisputeKind,
  type ForfeitRole,
} from './dispute.js';

/** Error codes of `parseDispute`. */
export const DISPUTE_ERROR_CODES = ['INVALID_DISPUTE', 'UNKNOWN_DISPUTE_KIND'] as const;

/** The standard tournament exchange minimum (seed-000, WESPA 3.2.1): an "illegal exchange" had fewer. */
const STANDARD_MIN_BAG = 7;
const DEFAULT_RACK = 7;
const MAX_RACK = 21;

type Parser = (f: Facts) => Dispute;

const PARSERS: { readonly [K in DisputeKind]: Parser } = {
  'illegal-exchange': (f) => {
    const rackSize = f.int('rackSize', 1, MAX_RACK, DEFAULT_RACK);
    const bagCount = f.int('bagCount', 0, 1000);
    if (bagCount >= STANDARD_MIN_BAG)
      f.fail(
        'bagCount',
        `is ${bagCount}, but an exchange is illegal for want of tiles only with fewer than ${STANDARD_MIN_BAG} in the bag`,
        bagCount,
      );
    const stage = f.oneOf('stage', ILLEGAL_EXCHANGE_STAGES);
    const exchangedCount = f.int('exchangedCount', 1, MAX_RACK);
    if (exchangedCount > rackSize) f.fail('exchangedCount', `is ${exchangedCount}, more than the rack holds (${rackSize})`, exchangedCount);
    const oldTilesInBag = f.bool('oldTilesInBag', stage === 'old-returned-new-not-racked');
    if (oldTilesInBag && (stage === 'announced' || stage === 'drawn-not-racked'))
      f.fail('oldTilesInBag', `cannot be true at stage ${stage} (no old tile has gone into the bag yet)`, oldTilesInBag);
    if (!oldTilesInBag && stage === 'old-returned-new-not-racked')
      f.fail('oldTilesInBag', 'cannot be false at stage old-returned-new-not-racked', oldTilesInBag);
    return { kind: 'illegal-exchange', bagCount, stage, exchangedCount, rackSize, oldTilesInBag };
  },
  'exchange-count-mismatch': (f) => {
    const rackSize = f.int('rackSize', 1, MAX_RACK, DEFAULT_RACK);
    const announced = f.int('announced', 0, MAX_RACK);
    const placedFaceDown = f.int('placedFaceDown', 0, MAX_RACK);
    if (announced > rackSize) f.fail('announced', `is ${announced}, more than the rack holds (${rackSize})`, announced);
    if (placedFaceDown > rackSize) f.fail('placedFaceDown', `is ${placedFaceDown}, more than the rack holds (${rackSize})`, placedFaceDown);
    if (announced === placedFaceDown) f.fail('placedFaceDown', `equals announced (${announced}): there is no mismatch`, placedFaceDown);
    return { kind: 'exchange-count-mismatch', announced, placedFaceDown, rackSize };
  },
  'exchange-unspecified': () => ({ kind: 'exchange-unspecified' }),
  'exchange-early-return': (f) => ({ kind: 'exchange-early-return', drewSameTiles: f.bool('drewSameTiles', false) }),
  'late-arrival': (f) => {
    const minutesLate = f.seconds('minutesLate', 24 * 60) ?? 0;
    const announcedStart = f.bool('announcedStart');
    const clockStartedAtMinute = f.seconds('clockStartedAtMinute', 24 * 60, true);
    if (clockStartedAtMinute !== null && clockStartedAtMinute > minutesLate)
      f.fail('clockStartedAtMinute', `is ${clockStartedAtMinute}, after the player arrived (${minutesLate})`, clockStartedAtMinute);
    return { kind: 'late-arrival', minutesLate, announcedStart, clockStartedAtMinute };
  },
  overtime: (f) => ({ kind: 'overtime', secondsOver: f.seconds('secondsOver', 24 * 3600) ?? 0, scores: f.scores('scores', true) }),
  'challenge-outcome': (f) => ({
    kind: 'challenge-outcome',
    playValid: f.bool('playValid'),
    wordsChallenged: f.int('wordsChallenged', 1, 50, 1),
  }),
  'return-from-challenge': (f) => {
    const playAcceptable = f.bool('playAcceptable');
    const drawnTiles = f.int('drawnTiles', 0, MAX_RACK, 0);
    const drawnTouchedRack = f.bool('drawnTouchedRack', false);
    if (drawnTouchedRack && drawnTiles === 0) f.fail('drawnTouchedRack', 'cannot be true when drawnTiles is 0', drawnTouchedRack);
    return { kind: 'return-from-challenge', playAcceptable, drawnTiles, drawnTouchedRack, winnerDelaying: f.bool('winnerDelaying', false) };
  },
  'fast-bagging': (f) => ({
    kind: 'fast-bagging',
    secondsBeforeDraw: f.seconds('secondsBeforeDraw', 3600) ?? 0,
    scoreRecordedBeforeDraw: f.bool('scoreRecordedBeforeDraw', true),
  }),
  'out-play-hold': (f) => ({
    kind: 'out-play-hold',
    secondsAfterNeutralise: f.seconds('secondsAfterNeutralise', 24 * 3600) ?? 0,
    held: f.bool('held'),
    challenged: f.bool('challenged'),
  }),
  overdraw: (f) => {
    const rackSize = f.int('rackSize', 1, MAX_RACK, DEFAULT_RACK);
    const tilesOnRack = f.int('tilesOnRack', 0, MAX_RACK);
    const drawn = f.int('drawn', 1, 100);
    const touchedRack = f.bool('touchedRack');
    if (tilesOnRack > rackSize) f.fail('tilesOnRack', `is ${tilesOnRack}, more than a full rack (${rackSize}) before drawing`, tilesOnRack);
    if (tilesOnRack + drawn <= rackSize)
      f.fail(
        'drawn',
        `is ${drawn}: with ${tilesOnRack} on the rack that makes ${tilesOnRack + drawn}, not more than ${rackSize}, so nothing was overdrawn`,
        drawn,
      );
    return { kind: 'overdraw', tilesOnRack, drawn, touchedRack, rackSize };
  },
  underdraw: (f) => ({
    kind: 'underdraw',
    missing: f.int('missing', 1, MAX_RACK),
    discovered: f.oneOf('discovered', UNDERDRAW_DISCOVERIES),
  }),
  'scoring-error': (f) => {
    const announced = f.int('announced', 0, 10_000);
    const correct = f.int('correct', 0, 10_000);
    if (announced === correct) f.fail('correct', `equals announced (${announced}): there is no error`, correct);
    return { kind: 'scoring-error', announced, correct, slip: f.oneOf('slip', SLIP_STATES) };
  },
  'tally-slip-change': (f) => {
    const slip = f.oneOf('slip', SLIP_STATES);
    const slipMatchesAgreedScore = f.bool('slipMatchesAgreedScore');
    const scoresReversed = f.bool('scoresReversed', false);
    if (scoresReversed && slipMatchesAgreedScore)
      f.fail('scoresReversed', 'cannot be true when slipMatchesAgreedScore is true', scoresReversed);
    return {
      kind: 'tally-slip-change',
      slip,
      slipMatchesAgreedScore,
      scoresReversed,
      substantiatedByScoreSheets: f.bool('substantiatedByScoreSheets', false),
      bothAgree: f.bool('bothAgree', false),
      unethicalConductProven: f.bool('unethicalConductProven', false),
    };
  },
  'recount-request': (f) => ({ kind: 'recount-request', margin: f.int('margin', 0, 10_000), slip: f.oneOf('slip', SLIP_STATES) }),
  'scoreless-turns': (f) => {
    const turns = f.array('turns', 1).map((t, i) => {
      if (typeof t !== 'string' || !(TURN_RECORD_KINDS as readonly string[]).includes(t))
        f.fail(`turns[${i}]`, `must be one of ${TURN_RECORD_KINDS.join(', ')}, not ${JSON.stringify(t)}`, t);
      return t as (typeof TURN_RECORD_KINDS)[number];
    });
    const rackValues = f.scores('rackValues', true);
    if (rackValues && (rackValues.player < 0 || rackValues.opponent < 0)) f.fail('rackValues', 'must not be negative', rackValues);
    return { kind: 'scoreless-turns', turns, rackValues };
  },
  'going-out': (f) => ({ kind: 'going-out', opponentRackValue: f.int('opponentRackValue', 0, 1000) }),
  resignation: (f) => ({ kind: 'resignation', scores: f.scores('scores') ?? { player: 0, opponent: 0 }, emergency: f.bool('emergency') }),
  'forfeit-order': (f) => {
    const seen = new Set<number>();
    const games = f.array('games', 1).map((g, i) => {
      const r = (typeof g === 'object' && g !== null ? g : {}) as Record<string, unknown>;
      const round = r.round;
      const role = r.role;
      if (typeof round !== 'number' || !Number.isInteger(round) || round < 1)
        f.fail(`games[${i}].round`, `must be a round number of 1 or more, not ${JSON.stringify(round)}`, round);
      else if (seen.has(round)) f.fail(`games[${i}].round`, `repeats round ${round}`, round);
      else seen.add(round);
      if (typeof role !== 'string' || !(FORFEIT_ROLES as readonly string[]).includes(role))
        f.fail(`games[${i}].role`, `must be one of ${FORFEIT_ROLES.join(', ')}, not ${JSON.stringify(role)}`, role);
      return { round: round as number, role: role as ForfeitRole };
    });
    return { kind: 'forfeit-order', games };
  },
  'tied-game': (f) => {
    const finalScores = f.scores('finalScores') ?? { player: 0, opponent: 0 };
    if (finalScores.player !== finalScores.opponent)
      f.fail('finalScores', `are ${finalScores.player}–${finalScores.opponent}, not a tie`, finalScores);
    return { kind: 'tied-game', finalScores, scoresBeforeAdjustments: f.scores('scoresBeforeAdjustments') ?? { player: 0, opponent: 0 } };
  },
  'match-result': (f) => {
    const games = f.array('games', 1).map((g, i) => {
      const r = (typeof g === 'object' && g !== null ? g : {}) as Record<string, unknown>;
      if (!Number.isInteger(r.player) || !Number.isInteger(r.opponent))
        f.fail(`games[${i}]`, 'must be {"player": n, "opponent": n} with integer scores', g);
      return { player: r.player as number, opponent: r.opponent as number };
    });
    return { kind: 'match-result', games };
  },
  'exchange-tiles-not-bagged': (f) => {
    const rackSize = f.int('rackSize', 1, MAX_RACK, DEFAULT_RACK);
    const tiles = f.int('tiles', 1, MAX_RACK);
    if (tiles > rackSize) f.fail('tiles', `is ${tiles}, more than the rack holds (${rackSize})`, tiles);
    return { kind: 'exchange-tiles-not-bagged', tiles, drawnSince: f.bool('drawnSince'), rackSize };
  },
  'challenge-after-draw': (f) => {
    const holdCalled = f.bool('holdCalled', false);
    const secondsBeforeDraw = f.seconds('secondsBeforeDraw', 3600) ?? 0;
    const scoreRecordedBeforeDraw = f.bool('scoreRecordedBeforeDraw', true);
    const scoreWrittenInAdvance = f.bool('scoreWrittenInAdvance', false);
    const drawnTiles = f.int('drawnTiles', 1, MAX_RACK, 1);
    const drawnTouchedRack = f.bool('drawnTouchedRack', false);
    return {
      kind: 'challenge-after-draw',
      holdCalled,
      secondsBeforeDraw,
      scoreRecordedBeforeDraw,
      scoreWrittenInAdvance,
      drawnTiles,
      drawnTouchedRack,
    };
  },
  'wrong-adjudication': (f) => ({
    kind: 'wrong-adjudication',
    ruledAcceptable: f.bool('ruledAcceptable'),
    wordsChallenged: f.int('wordsChallenged', 1, 50, 1),
    tilesTouchedRack: f.bool('tilesTouchedRack'),
    nextPlayMade: f.bool('nextPlayMade', false),
  }),
  'mistyped-challenge': (f) => ({
    kind: 'mistyped-challenge',
    causedBy: f.oneOf('causedBy', LOOKUP_CULPRITS),
    resultShown: f.oneOf('resultShown', LOOKUP_RESULTS),
    tilesTouchedRack: f.bool('tilesTouchedRack', false),
    nextPlayMade: f.bool('nextPlayMade', false),
  }),
  'placement-challenge': (f) => {
    const fault = f.oneOf('fault', PLACEMENT_FAULTS);
    const challenged = f.bool('challenged', true);
    if (!challenged && fault === 'none')
      f.fail('challenged', 'cannot be false when fault is none (there is nothing to dispute)', challenged);
    return { kind: 'placement-challenge', fault, challenged, playValid: f.bool('playValid', true) };
  },
  'long-hold': (f) => ({
    kind: 'long-hold',
    holderOvertimeSeconds: f.seconds('holderOvertimeSeconds', 24 * 3600) ?? 0,
    onlyToBlockDraw: f.bool('onlyToBlockDraw', false),
  }),
  'courtesy-draw': (f) => {
    const rackSize = f.int('rackSize', 1, MAX_RACK, DEFAULT_RACK);
    const secondsAfterClockPress = f.seconds('secondsAfterClockPress', 24 * 3600) ?? 0;
    const drawnTiles = f.int('drawnTiles', 1, MAX_RACK);
    if (drawnTiles > rackSize) f.fail('drawnTiles', `is ${drawnTiles}, more than a rack holds (${rackSize})`, drawnTiles);
    const mixedIntoRack = f.bool('mixedIntoRack', false);
    const challengeSucceeded = f.bool('challengeSucceeded');
    const challengedMidDraw = f.bool('challengedMidDraw', false);
    return { kind: 'courtesy-draw', secondsAfterClockPress, drawnTiles, mixedIntoRack, challengeSucceeded, challengedMidDraw, rackSize };
  },
  'out-of-order-draw': (f) => ({
    kind: 'out-of-order-draw',
    drawnTiles: f.int('drawnTiles', 1, MAX_RACK),
    opponentLeftShort: f.bool('opponentLeftShort'),
    touchedRack: f.bool('touchedRack'),
  }),
  'spilled-tiles': (f) => ({
    kind: 'spilled-tiles',
    exposed: f.int('exposed', 1, 100),
    bagCount: f.int('bagCount', 0, 1000),
    moment: f.oneOf('moment', SPILL_MOMENTS),
  }),
  'tiles-found': (f) => {
    const rackSize = f.int('rackSize', 1, MAX_RACK, DEFAULT_RACK);
    const found = f.int('found', 1, 100);
    const where = f.oneOf('where', FOUND_PLACES);
    const racks = f.scores('racks') ?? { player: 0, opponent: 0 };
    for (const side of PARTIES) {
      if (racks[side] < 0 || racks[side] > rackSize)
        f.fail(`racks.${side}`, `must be between 0 and ${rackSize}, not ${racks[side]}`, racks[side]);
    }
    if (racks.player === rackSize && racks.opponent === rackSize)
      f.fail('racks', `are both full (${rackSize}): nobody was short of tiles`, racks);
    return {
      kind: 'tiles-found',
      found,
      where,
      racks,
      shouldHaveDrawnEarliest: f.oneOf('shouldHaveDrawnEarliest', PARTIES),
      slip: f.oneOf('slip', SLIP_STATES),
      rackSize,
    };
  },
  'missing-tile': (f) => ({ kind: 'missing-tile', missing: f.int('missing', 1, 100, 1) }),
  'blank-designation': (f) => {
    const designation = f.oneOf('designation', BLANK_DESIGNATIONS);
    const playsSince = f.int('playsSince', 0, 1000, 0);
    if (designation === 'undeclared' && playsSince > 0) {
      f.fail(
        'playsSince',
        `is ${playsSince}, but an undeclared blank is caught at the clock press; one found after later plays is improperly-declared`,
        playsSince,
      );
    }
    return { kind: 'blank-designation', designation, playsSince };
  },
  'abort-request': (f) => {
    const reply = f.oneOf('reply', REQUEST_REPLIES);
    const secondsWithoutReply = f.seconds('secondsWithoutReply', 30 * 24 * 3600, true);
    if (reply !== 'none' && secondsWithoutReply !== null)
      f.fail('secondsWithoutReply', `cannot be given when reply is ${reply}`, secondsWithoutReply);
    return {
      kind: 'abort-request',
      earlierRequests: f.int('earlierRequests', 0, 100, 0),
      gameEvents: f.int('gameEvents', 0, 10_000),
      receiverSecondsLeft: f.seconds('receiverSecondsLeft', 30 * 24 * 3600) ?? 0,
      reply,
      secondsWithoutReply: secondsWithoutReply ?? 0,
    };
  },
  'idle-opponent': (f) => {
    const answered = f.bool('answered');
    const secondsUnanswered = f.seconds('secondsUnanswered', 30 * 24 * 3600, true);
    if (answered && secondsUnanswered !== null) f.fail('secondsUnanswered', 'cannot be given when answered is true', secondsUnanswered);
    if (!answered && secondsUnanswered === null)
      f.fail('secondsUnanswered', 'is required (a number) when answered is false', secondsUnanswered);
    return {
      kind: 'idle-opponent',
      earlierRequests: f.int('earlierRequests', 0, 100, 0),
      requesterClockRunning: f.bool('requesterClockRunning', false),
      answered,
      secondsUnanswered: secondsUnanswered ?? 0,
    };
  },
  'blank-substitution': (f) => ({
    kind: 'blank-substitution',
    blankLetter: f.letter('blankLetter'),
    tileGiven: f.letter('tileGiven'),
    atStartOfTurn: f.bool('atStartOfTurn', true),
    blankReplayed: f.bool('blankReplayed', true),
  }),
  'free-trade': (f) => {
    const rack = f.tiles('rack', 1, MAX_RACK);
    const trades = f.tiles('trades', 1, MAX_RACK, []);
    if (rack.length > 0 && without(rack, trades) === null)
      f.fail('trades', `names ${joinTiles(trades)}, which the rack ${joinTiles(rack)} does not hold`, joinTiles(trades));
    return { kind: 'free-trade', rack, trades };
  },
};

/**
 * Validates a dispute given as JSON (`{"kind": "illegal-exchange", "bagCount": 5, ...}`) and fills in the
 * defaults. Rejects unknown kinds (`UNKNOWN_DISPUTE_KIND`) and impossible or missing facts
 * (`INVALID_DISPUTE`, the message names the field): negative counts, more tiles than a rack holds, a stage
 * that contradicts another fact, a bag of 7 or more for an illegal exchange, unknown fields.
 */
export const parseDispute = (json: unknown): Result<Dispute, RuleError> => {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return err(ruleError('INVALID_DISPUTE', 'A dispute must be a JSON object with a "kind" field.', { value: json }));
  }
  const obj = json as Record<string, unknown>;
  if (!isDisputeKind(obj.kind)) {
    return err(
      ruleError('UNKNOWN_DISPUTE_KIND', `Dispute kind ${JSON.stringify(obj.kind)} is not one of ${DISPUTE_KINDS.join(', ')}.`, {
        field: 'kind',
        value: obj.kind,
        known: [...DISPUTE_KINDS],
      }),
    );
  }
  const facts = new Facts(obj.kind, obj);
  const dispute = PARSERS[obj.kind](facts);
  facts.noExtras();
  if (facts.error) return err(facts.error);
  return ok(typeof obj.description === 'string' ? { ...dispute, description: obj.description } : dispute);
};
