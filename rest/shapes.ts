import { LEAVES, type Shape } from './shape.js';

/**
 * What each REST resource shows (see rest/shape.ts: every leaf field, and the object fields named
 * here). A list answers lean items (`…Summary`) so that a page stays inside the query cost limit;
 * the full resource is one GET away.
 */

const PLAYER: Shape = LEAVES;

/** A game's rule set: the preset and every parameter's value (overrides included), without the sources. */
const GAME_RULE_SET: Shape = { name: 'GameRuleSet', expand: { parameters: { name: 'GameRuleParameter' } } };

const WORD: Shape = { name: 'WordScore' };
const SCORED_WORD: Shape = { expand: { letters: LEAVES } };

/** A score-sheet line: its words without the letter-by-letter breakdown. */
export const MOVE: Shape = { name: 'Move', expand: { words: WORD } };

/** A club or event with its directors' handles. */
export const ORGANIZATION: Shape = LEAVES;

export const GAME: Shape = {
  omit: ['boardSvg'],
  expand: {
    organization: ORGANIZATION,
    ruleSet: GAME_RULE_SET,
    lexicon: LEAVES,
    timeControl: LEAVES,
    seats: { expand: { player: PLAYER, ratingChange: LEAVES } },
    board: { expand: { tiles: LEAVES } },
    unseenTiles: LEAVES,
    pause: LEAVES,
    lastMove: { name: 'LastMove', expand: { words: SCORED_WORD } },
    history: MOVE,
    result: { expand: { adjustments: LEAVES } },
  },
};

/** A game in a list: who plays, whose turn, the clock and the scores; no board, racks or history. */
export const GAME_SUMMARY: Shape = {
  name: 'GameSummary',
  // Each game's CGP line is one more read of its log: one GET of the game away, like the board.
  omit: ['cgp'],
  expand: {
    ruleSet: { name: 'RuleSetSummary' },
    lexicon: LEAVES,
    timeControl: LEAVES,
    seats: { expand: { player: PLAYER, ratingChange: LEAVES } },
    result: { name: 'GameOutcomeSummary' },
  },
};

const MATCH_PLAYERS = { expand: { player: PLAYER, firstSecond: LEAVES } };
const MATCH_RESULT = { expand: { winner: PLAYER } };

export const MATCH: Shape = {
  expand: {
    players: MATCH_PLAYERS,
    games: { expand: { game: GAME_SUMMARY } },
    result: MATCH_RESULT,
  },
};

export const MATCH_SUMMARY: Shape = { name: 'MatchSummary', expand: { players: MATCH_PLAYERS, result: MATCH_RESULT } };

export const AUTH: Shape = { name: 'Session', expand: { player: PLAYER } };
export const API_KEY: Shape = LEAVES;
export const ROLE_GRANT: Shape = { expand: { organization: ORGANIZATION } };
export const NEW_API_KEY: Shape = { expand: { apiKey: API_KEY } };
export const WEBHOOK: Shape = LEAVES;
export const NEW_WEBHOOK: Shape = { expand: { subscription: WEBHOOK } };
export const DELIVERY: Shape = { expand: { log: LEAVES } };

const CITATION: Shape = LEAVES;
export const RULE_SET: Shape = { expand: { parameters: { expand: { sources: CITATION } } } };
export const LEXICON: Shape = LEAVES;
export const TILE_SET: Shape = { expand: { tiles: LEAVES } };
export const LAYOUT: Shape = LEAVES;
export const LEXICON_UPLOAD: Shape = { expand: { lexicon: LEXICON } };
export const SCORED_PLAY: Shape = { expand: { lexicon: LEXICON, placements: LEAVES, words: SCORED_WORD } };
export const WORD_CHECK: Shape = { expand: { lexicon: LEXICON, results: LEAVES } };
export const RULING: Shape = { expand: { citations: CITATION } };
export const DISPUTE_KIND: Shape = { expand: { facts: LEAVES } };

/** A dispute filed on a game: its facts with their sources, its automatic ruling and the ruling applied. */
const DISPUTE_RULING: Shape = { expand: { citations: LEAVES, scoreChanges: LEAVES, revealedTiles: LEAVES } };
export const DISPUTE: Shape = {
  name: 'GameDispute',
  expand: { facts: LEAVES, automaticRuling: DISPUTE_RULING, ruling: DISPUTE_RULING },
};

/** fileDispute's answer: the dispute and the game after it. */
export const FILED_DISPUTE: Shape = { expand: { dispute: DISPUTE, game: GAME } };

/** Tournaments (issue 30): the tournament with its divisions' players, plans and rounds (pairings are the round's resource). */
const TOURNAMENT_ACTOR: Shape = LEAVES;
/** A division's leaves less its two files (their own routes: `….t`, `…/standings.csv`), which cost a read each. */
const DIVISION_OMIT = ['tshFile', 'standingsCsv'];
const DIVISION_SUMMARY: Shape = {
  name: 'DivisionSummary',
  omit: DIVISION_OMIT,
  expand: { entrants: LEAVES, plans: LEAVES, timeControl: LEAVES, rounds: { name: 'RoundSummary' } },
};
export const TOURNAMENT: Shape = {
  expand: { organization: ORGANIZATION, createdBy: TOURNAMENT_ACTOR, myEntrants: LEAVES, divisions: DIVISION_SUMMARY },
};
export const TOURNAMENT_SUMMARY: Shape = LEAVES;
/** A division after a player was added or withdrawn: its players and plans. */
export const DIVISION: Shape = { omit: DIVISION_OMIT, expand: { entrants: LEAVES, plans: LEAVES, timeControl: LEAVES } };
/** A round: its pairings with their slips (every change with who and why, the ruling and its citations; the disputes), byes and pairing history. */
export const ROUND: Shape = {
  expand: {
    pairings: {
      expand: {
        slip: {
          expand: {
            changes: { expand: { by: TOURNAMENT_ACTOR, ruling: { expand: { citations: LEAVES } } } },
            disputes: { expand: { by: TOURNAMENT_ACTOR } },
          },
        },
      },
    },
    byes: LEAVES,
    prePaired: LEAVES,
    history: { expand: { by: TOURNAMENT_ACTOR } },
    lateClocks: LEAVES,
  },
};
export const STANDING: Shape = LEAVES;
export const CROSSTABLE_ROW: Shape = { expand: { cells: LEAVES } };
