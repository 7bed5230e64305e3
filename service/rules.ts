import { adjudicate, parseDispute, type Ruling } from '../engine/adjudication/index.js';
import { LAYOUTS, emptyBoard } from '../engine/board.js';
import { parseBoardRows } from '../engine/board-text.js';
import { cite, ruleError, type RuleError } from '../engine/errors.js';
import { CHALLENGE_EFFECTS } from '../engine/game/challenge.js';
import type { Lexicon } from '../engine/lexicon/lexicon.js';
import { formatMove, parseMove, parseRack } from '../engine/move.js';
import { checkPlay, type ScoredPlay } from '../engine/placement.js';
import { err, ok, type Result } from '../engine/result.js';
import { resolveRuleSet } from '../engine/rules/params.js';
import type { RuleSet } from '../engine/rules/ruleset.js';
import { DISTRIBUTIONS, joinTiles } from '../engine/tiles.js';
import type { LexiconRegistry } from './lexicons.js';

/**
 * The stateless rule checks behind the API's `checkPlay`, `checkWords` and `adjudicate`: parse the
 * request's text, pick the rule set and lexicon, ask the engine. No database.
 */

/** The preset used when a request names none. */
export const DEFAULT_RULE_SET = 'NSA_2008';

/** Rule set by preset id with optional overrides (`{"challenge": {"points": 10}}`). */
export const ruleSetFor = (id: string | null | undefined, overrides: unknown): Result<RuleSet, RuleError> =>
  resolveRuleSet(
    id ?? DEFAULT_RULE_SET,
    overrides === null || overrides === undefined ? undefined : (overrides as Record<string, unknown>),
  );

const lexiconFor = (lexicons: LexiconRegistry, name: string | null | undefined): Result<Lexicon, RuleError> => {
  const chosen = name ?? lexicons.defaultName;
  if (chosen === null) return err(ruleError('LEXICON_NOT_FOUND', 'No lexicon is loaded on this server: run `npm run lexicons`.', {}));
  return lexicons.get(chosen);
};

export interface PlayQuestion {
  /** Rows of text (see `parseBoardRows`); null or omitted = the empty board. */
  readonly board?: readonly string[] | null;
  /** The mover's tiles (`AEINRST`, `?` blank, `[CH]`); null = not checked. */
  readonly rack?: string | null;
  /** `8H WORD` (across) or `H8 WORD` (down). */
  readonly move: string;
  readonly ruleSet?: string | null;
  readonly overrides?: unknown;
  readonly lexicon?: string | null;
}

export interface PlayAnswer {
  readonly play: ScoredPlay;
  readonly ruleSet: RuleSet;
  readonly lexicon: Lexicon;
  /** The rule set lets a phony stand until challenged, so phonies are listed rather than refused. */
  readonly phoniesAllowed: boolean;
  /** The move in canonical notation. */
  readonly notation: string;
  readonly rackAfter: string | null;
}

/**
 * Is this play legal on this board with this rack, and what does it score? Words are judged as the
 * rule set's challenge mode says (seed-003 rules 5 and 9): where a play can be challenged a phony is
 * accepted and listed in `phonies`; where it cannot (`void`), it is refused with INVALID_WORDS.
 *
 * Errors: the rule set's and lexicon's, `BAD_BOARD`, the notation's (`BAD_MOVE`, `BAD_COORDINATE`,
 * `BAD_WORD`, `BAD_RACK`), `NOT_A_PLAY` for an exchange or pass, `RACK_TOO_BIG`, and every code of
 * the engine's `checkPlay`.
 */
export const answerPlay = (lexicons: LexiconRegistry, q: PlayQuestion): Result<PlayAnswer, RuleError> => {
  const ruleSet = ruleSetFor(q.ruleSet, q.overrides);
  if (!ruleSet.ok) return ruleSet;
  const rs = ruleSet.value;
  const lexicon = lexiconFor(lexicons, q.lexicon);
  if (!lexicon.ok) return lexicon;
  const layout = LAYOUTS[rs.board.layout]!;
  const distribution = DISTRIBUTIONS[rs.board.distribution]!;
  const board = q.board ? parseBoardRows(q.board, layout, distribution) : ok(emptyBoard(layout));
  if (!board.ok) return board;
  const move = parseMove(q.move);
  if (!move.ok) return move;
  if (move.value.kind !== 'play') {
    return err(
      ruleError(
        'NOT_A_PLAY',
        `"${q.move}" is ${move.value.kind === 'pass' ? 'a pass' : 'an exchange'}; checkPlay judges plays such as "8H WORD".`,
        { move: q.move },
        cite('gcg', '§3 event lines'),
      ),
    );
  }
  let rack: string[] | undefined;
  if (q.rack !== null && q.rack !== undefined) {
    const parsed = parseRack(q.rack);
    if (!parsed.ok) return parsed;
    if (parsed.value.length > rs.board.rackSize) {
      return err(
        ruleError(
          'RACK_TOO_BIG',
          `The rack "${q.rack}" holds ${parsed.value.length} tiles; under ${rs.name} a rack holds at most ${rs.board.rackSize}.`,
          { rack: q.rack, tiles: parsed.value.length, rackSize: rs.board.rackSize },
          cite('seed-003', 'rule 2'),
        ),
      );
    }
    rack = parsed.value;
  }
  const phoniesAllowed = CHALLENGE_EFFECTS[rs.challenge.mode].challengeable;
  const checked = checkPlay(
    {
      board: board.value,
      distribution,
      ...(rack ? { rack } : {}),
      lexicon: lexicon.value,
      requireValidWords: !phoniesAllowed,
      bingoBonus: rs.board.bingoBonus,
      rackSize: rs.board.rackSize,
    },
    move.value,
  );
  if (!checked.ok) return checked;
  return ok({
    play: checked.value,
    ruleSet: rs,
    lexicon: lexicon.value,
    phoniesAllowed,
    notation: formatMove(move.value),
    rackAfter: checked.value.rackAfter ? joinTiles(checked.value.rackAfter) : null,
  });
};

export const MAX_WORDS_PER_CHECK = 100;

export interface WordsAnswer {
  readonly lexicon: Lexicon;
  readonly results: readonly { readonly word: string; readonly valid: boolean }[];
}

/** Which of `words` the lexicon has (compared uppercase, as lexicons store them). */
export const answerWords = (
  lexicons: LexiconRegistry,
  words: readonly string[],
  lexiconName?: string | null,
): Result<WordsAnswer, RuleError> => {
  const lexicon = lexiconFor(lexicons, lexiconName);
  if (!lexicon.ok) return lexicon;
  const results = words.map((w) => {
    const word = w.trim().toUpperCase();
    return { word, valid: lexicon.value.has(word) };
  });
  return ok({ lexicon: lexicon.value, results });
};

/** A dispute given as JSON, ruled on under a preset with overrides. Errors: the rule set's, `INVALID_DISPUTE`, `UNKNOWN_DISPUTE_KIND`. */
export const answerDispute = (
  dispute: unknown,
  ruleSetId?: string | null,
  overrides?: unknown,
): Result<{ readonly ruling: Ruling; readonly ruleSet: RuleSet }, RuleError> => {
  const ruleSet = ruleSetFor(ruleSetId, overrides);
  if (!ruleSet.ok) return ruleSet;
  const parsed = parseDispute(dispute);
  if (!parsed.ok) return parsed;
  const ruling = adjudicate(parsed.value, ruleSet.value);
  if (!ruling.ok) return ruling;
  return ok({ ruling: ruling.value, ruleSet: ruleSet.value });
};
