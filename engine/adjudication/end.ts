import { firstSecondTally } from '../game/forfeits.js';
import type { RuleSet } from '../rules/ruleset.js';
import type { ForfeitOrder, GoingOut, MatchResult, Resignation, ScorelessTurns, TiedGame, TurnRecordKind } from './dispute.js';
import { citeParams, noRule, plural, ruling, type Effect, type Ruling } from './ruling.js';

const trailing = (turns: readonly TurnRecordKind[], counts: (k: TurnRecordKind) => boolean): number => {
  let n = 0;
  for (let i = turns.length - 1; i >= 0 && counts(turns[i]!); i--) n++;
  return n;
};

/**
 * Does a run of turns end the game? `end.scorelessTurns` over `end.scorelessKinds` (WESPA 5.2; NASPA
 * ref. B6.1; Woogles: a 0-point tile play resets) and `end.consecutiveExchangesEach` (seed-003 rule 12b).
 * Either way each player loses the value of their own rack (WESPA 5.2; seed-003 scoring 9).
 */
export const adjudicateScorelessTurns = (d: ScorelessTurns, rs: RuleSet): Ruling => {
  const e = rs.end;
  if (e.scorelessTurns === null && e.consecutiveExchangesEach === null) {
    return noRule(
      `${rs.name} has no rule ending the game on scoreless turns.`,
      citeParams(rs, 'end.scorelessTurns', 'end.consecutiveExchangesEach'),
    );
  }
  const kinds: readonly string[] = e.scorelessKinds;
  const scoreless = e.scorelessTurns === null ? 0 : trailing(d.turns, (k) => kinds.includes(k));
  const exchanges = e.consecutiveExchangesEach === null ? 0 : trailing(d.turns, (k) => k === 'exchange');
  const rackEffects: Effect[] = d.rackValues
    ? [
        { type: 'score-delta', party: 'player', points: -d.rackValues.player },
        { type: 'score-delta', party: 'opponent', points: -d.rackValues.opponent },
      ]
    : [];
  const rackSentence = 'each player loses the value of their own rack';
  if (e.scorelessTurns !== null && scoreless >= e.scorelessTurns) {
    return ruling(
      'GAME_ENDS',
      [{ type: 'game-ends', reason: `${e.scorelessTurns} consecutive scoreless turns` }, ...rackEffects],
      citeParams(rs, 'end.scorelessTurns', 'end.scorelessKinds'),
      `The last ${scoreless} turns were all scoreless (${e.scorelessKinds.join(', ')} count), which ends the game; ${rackSentence}.`,
    );
  }
  if (e.consecutiveExchangesEach !== null && exchanges >= 2 * e.consecutiveExchangesEach) {
    return ruling(
      'GAME_ENDS',
      [{ type: 'game-ends', reason: `both players exchanged ${e.consecutiveExchangesEach} times in a row` }, ...rackEffects],
      citeParams(rs, 'end.consecutiveExchangesEach', 'end.goingOut'),
      `Both players have exchanged ${e.consecutiveExchangesEach} times in a row (${exchanges} exchanges), which ends the game; ${rackSentence}.`,
    );
  }
  const parts: string[] = [];
  if (e.scorelessTurns !== null)
    parts.push(`${scoreless} of the ${e.scorelessTurns} consecutive scoreless turns (${e.scorelessKinds.join(', ')}) that end the game`);
  if (e.consecutiveExchangesEach !== null)
    parts.push(`${exchanges} of the ${2 * e.consecutiveExchangesEach} consecutive exchanges that end the game`);
  return ruling(
    'GAME_CONTINUES',
    [],
    citeParams(rs, 'end.scorelessTurns', 'end.scorelessKinds', 'end.consecutiveExchangesEach'),
    `The run so far has ${parts.join(', and ')}, so the game goes on.`,
  );
};

/** Going out: `end.goingOut` (NASPA ref. B6.5, WESPA 5.1.4(a): 2×; seed-003 scoring 9, WESPA 5.1.4(b): +1×/−1×). */
export const adjudicateGoingOut = (d: GoingOut, rs: RuleSet): Ruling => {
  const v = d.opponentRackValue;
  const cites = citeParams(rs, 'end.goingOut');
  return rs.end.goingOut === 'double-opponent-rack'
    ? ruling(
        'GOING_OUT_BONUS',
        [{ type: 'score-delta', party: 'player', points: 2 * v }],
        cites,
        `The player who went out adds twice the opponent's rack (2 × ${v} = ${2 * v}); the opponent's score is unchanged.`,
      )
    : ruling(
        'GOING_OUT_BONUS',
        [
          { type: 'score-delta', party: 'player', points: v },
          { type: 'score-delta', party: 'opponent', points: -v },
        ],
        cites,
        `The opponent loses the ${v} points left on their rack and the player who went out gains them.`,
      );
};

/** Resignation: `end.resignation` (WESPA 5.7: emergency only, margin max(m, lead + m); Woogles: immediate loss). */
export const adjudicateResignation = (d: Resignation, rs: RuleSet): Ruling => {
  const e = rs.end;
  const cites = citeParams(rs, 'end.resignation', 'end.resignationMinMargin');
  switch (e.resignation) {
    case 'none':
      return noRule(`${rs.name} has no resignation rule.`, citeParams(rs, 'end.resignation'));
    case 'immediate-loss':
      return ruling(
        'GAME_RESIGNED',
        [{ type: 'game-forfeited', loser: 'player', margin: null }],
        cites,
        'Resigning ends the game at once as a loss for the player; the scores stand and any overtime already used is charged.',
      );
    case 'wespa-5.7': {
      if (!d.emergency) {
        return ruling(
          'DIRECTOR_DISCRETION',
          [{ type: 'result-slip', action: 'director-decides' }],
          cites,
          'Resigning is allowed only in an emergency; for an improper resignation the director sets the margin.',
        );
      }
      const lead = d.scores.opponent - d.scores.player;
      const margin = Math.max(e.resignationMinMargin, lead + e.resignationMinMargin);
      return ruling(
        'RESIGNATION_SCORED',
        [{ type: 'game-forfeited', loser: 'player', margin }],
        cites,
        `The resignation is recorded as a loss by the larger of ${e.resignationMinMargin} and the opponent's lead (${lead}) plus ${e.resignationMinMargin}: ${margin} points.`,
      );
    }
  }
};

/** Firsts and seconds for forfeited games: `tournament.forfeitFirstSecond` (seed-001 §4). */
export const adjudicateForfeitOrder = (d: ForfeitOrder, rs: RuleSet): Ruling => {
  const cites = citeParams(rs, 'tournament.forfeitFirstSecond');
  if (rs.tournament.forfeitFirstSecond === 'none')
    return noRule(`${rs.name} has no rule assigning firsts and seconds for forfeited games.`, cites);
  const games = [...d.games].sort((a, b) => a.round - b.round);
  const { positions } = firstSecondTally(
    rs.tournament.forfeitFirstSecond,
    games.map((g) => ({ kind: 'unplayed', role: g.role })),
  );
  const effects: Effect[] = games.map((g, i) => ({ type: 'first-second', round: g.round, position: positions[i]! }));
  return ruling(
    'FIRSTS_ASSIGNED',
    effects,
    cites,
    'A player who forfeits a game before it begins counts as going first for that game, second for the next forfeited game, first for the third, and so on; opponents of those games and players with byes get neither.',
  );
};

/** A tied final score: `end.tieBreak` (seed-003 scoring 10: the score before end-of-game adjustments decides). */
export const adjudicateTiedGame = (d: TiedGame, rs: RuleSet): Ruling => {
  const cites = citeParams(rs, 'end.tieBreak');
  const pre = d.scoresBeforeAdjustments;
  if (rs.end.tieBreak === 'score-before-adjustments' && pre.player !== pre.opponent) {
    const winner = pre.player > pre.opponent ? 'player' : 'opponent';
    return ruling(
      'TIE_BROKEN',
      [{ type: 'winner', party: winner }],
      cites,
      `The tie is broken on the score before unplayed tiles were counted (${pre.player}–${pre.opponent}), so the ${winner} wins.`,
    );
  }
  return ruling(
    'TIE_STANDS',
    [{ type: 'winner', party: 'tie' }],
    cites,
    rs.end.tieBreak === 'none'
      ? 'These rules have no tie-break, so the game is a tie.'
      : 'The scores before adjustments are tied as well, so the game is a tie.',
  );
};

/** The match: `match.games` games decided by `match.decidedBy` (seed-003 rule 1, scoring 11). */
export const adjudicateMatchResult = (d: MatchResult, rs: RuleSet): Ruling => {
  const m = rs.match;
  if (m.games === null) return noRule(`${rs.name} plays single games, not matches.`, citeParams(rs, 'match.games'));
  const player = d.games.reduce((n, g) => n + g.player, 0);
  const opponent = d.games.reduce((n, g) => n + g.opponent, 0);
  const cites = citeParams(rs, 'match.games', 'match.decidedBy');
  if (player === opponent)
    return ruling(
      'MATCH_TIED',
      [{ type: 'winner', party: 'tie' }],
      cites,
      `Combined points over the ${plural(d.games.length, 'game')} are equal (${player}–${opponent}), so the match is a tie.`,
    );
  const winner = player > opponent ? 'player' : 'opponent';
  return ruling(
    'MATCH_DECIDED',
    [{ type: 'winner', party: winner }],
    cites,
    `The match goes to the ${winner} on combined points over the ${plural(d.games.length, 'game')} (${player}–${opponent}).`,
  );
};
