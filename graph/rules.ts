import * as z from 'zod';
import { formatAnchor, formatSquare } from '../engine/board.js';
import type { Lexicon } from '../engine/lexicon/lexicon.js';
import type { Placement } from '../engine/board.js';
import { describeParameterType, getParameter, isRuleSetId, PARAMETERS, type Parameter } from '../engine/rules/params.js';
import { PRESETS } from '../engine/rules/presets.js';
import type { RuleSet, RuleSetId } from '../engine/rules/ruleset.js';
import type { ScoredLetter, ScoredWord } from '../engine/scoring.js';
import {
  answerPlay,
  answerWords,
  DEFAULT_RULE_SET,
  MAX_WORDS_PER_CHECK,
  ruleSetFor,
  type PlayAnswer,
  type WordsAnswer,
} from '../service/rules.js';
import { builder } from './builder.js';
import { ChallengeModeEnum, eitherOf, PremiumSquareEnum, RuleSetPresetEnum } from './enums.js';
import { CitationType, resultUnion, RuleViolation, ValidationError, unwrap } from './errors.js';

/**
 * Rule sets, lexicons, and the stateless rule checks: checkPlay, checkWords (adjudicate is disputes.ts).
 * Open to every caller, signed in or not: they read nothing stored.
 */

const RULE_ERRORS = [RuleViolation, ValidationError];

// ---------------------------------------------------------------------------------------------
// Rule sets

interface ParameterValue {
  readonly ruleSet: RuleSet;
  readonly parameter: Parameter;
}

const RuleParameterType = builder.objectRef<ParameterValue>('RuleParameter').implement({
  description: 'One parameter of a rule set, with its value and where that value comes from.',
  fields: (t) => ({
    path: t.string({
      description: 'Dotted path, e.g. `challenge.mode`; overrides use it: {"challenge": {"mode": …}}.',
      resolve: (p) => p.parameter.path,
    }),
    value: t.field({
      type: 'JSON',
      nullable: true,
      description: 'The value under this rule set.',
      resolve: (p) => getParameter(p.ruleSet, p.parameter.path) ?? null,
    }),
    description: t.string({ description: 'What the parameter means, in a sentence.', resolve: (p) => p.parameter.description }),
    allowed: t.string({
      description: 'What an override may set, e.g. `integer 0–100 or null`.',
      resolve: (p) => describeParameterType(p.parameter.type),
    }),
    sources: t.field({
      type: [CitationType],
      description: 'The rules that give this value; empty where an override set it.',
      resolve: (p) => [...(p.ruleSet.sources[p.parameter.path] ?? [])],
    }),
  }),
});

export const RuleSetType = builder.objectRef<RuleSet>('RuleSet').implement({
  description:
    'A rule set: a preset, optionally with overrides (a game’s: fixed when it was created). Every number the rule documents give is a parameter.',
  fields: (t) => ({
    id: t.exposeString('id', {
      description:
        'The preset id as a string: NSA_2008, WESPA, FRIENDLY, MATCH_VARIANT, ONLINE_VOID, or GCG_IMPORT for the rules inferred from an imported record.',
      deprecationReason: 'Use preset (the RuleSetPreset enum; null for GCG_IMPORT).',
    }),
    preset: t.field({
      type: RuleSetPresetEnum,
      nullable: true,
      description: 'The preset the rule set starts from; null for the rules inferred from an imported GCG record (Game.imported).',
      resolve: (rs) => (isRuleSetId(rs.id) ? rs.id : null),
    }),
    name: t.exposeString('name', { description: 'The rule set’s name, e.g. "NSA tournament rules (2008)".' }),
    description: t.exposeString('description', { description: 'What sets the rule set apart, in a few sentences.' }),
    challengeMode: t.string({
      description: 'What a challenge does, in the old spelling: double, single, points-per-word, points-per-turn, void, triple or free.',
      deprecationReason: 'Use challenge (the ChallengeMode enum).',
      resolve: (rs) => rs.challenge.mode,
    }),
    challenge: t.field({
      type: ChallengeModeEnum,
      description: 'What happens when a play is challenged (the parameter challenge.mode).',
      resolve: (rs) => rs.challenge.mode,
    }),
    parameters: t.field({
      type: [RuleParameterType],
      description: 'Every parameter, in display order.',
      resolve: (rs) => PARAMETERS.map((parameter) => ({ ruleSet: rs, parameter })),
    }),
  }),
});

builder.queryFields((t) => ({
  ruleSets: t.field({
    type: [RuleSetType],
    description: 'The five presets with every parameter, its value and its sources.',
    resolve: () => Object.values(PRESETS),
  }),
  ruleSet: t.field({
    type: RuleSetType,
    description: 'One preset, with overrides applied and checked (`{"challenge": {"points": 10}}`).',
    errors: { types: RULE_ERRORS, directResult: true, union: resultUnion('RuleSetResult', 'RuleSet') },
    args: {
      preset: t.arg({ type: RuleSetPresetEnum, required: false, description: 'The preset. Required (or the deprecated id).' }),
      id: t.arg.string({
        required: false,
        description: 'The preset id as a string.',
        deprecationReason: 'Use preset (the RuleSetPreset enum).',
      }),
      overrides: t.arg({
        type: 'JSON',
        required: false,
        description:
          'Overrides, nested like the rule set: {"challenge": {"mode": "single"}} (paths and allowed values: RuleSet.parameters).',
      }),
    },
    resolve: (_root, args) =>
      unwrap(ruleSetFor(eitherOf({ field: 'preset', value: args.preset }, { field: 'id', value: args.id }, true)!, args.overrides)),
  }),
}));

// ---------------------------------------------------------------------------------------------
// Lexicons

export const LexiconType = builder.objectRef<Lexicon>('Lexicon').implement({
  description: 'A word list loaded on this server, identified by name and content hash.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The name requests use to choose it, e.g. SOWPODS.' }),
    hash: t.exposeString('hash', { description: '`sha256:` + hex of the normalised word list; a game records it.' }),
    wordCount: t.exposeInt('wordCount', { description: 'How many words the list holds.' }),
    isDefault: t.boolean({
      description: 'Used when a request names no lexicon.',
      resolve: (l, _args, ctx) => ctx.lexicons.defaultName === l.name,
    }),
  }),
});

builder.queryField('lexicons', (t) =>
  t.field({
    type: [LexiconType],
    description: 'The lexicons loaded on this server.',
    resolve: (_root, _args, ctx) => [...ctx.lexicons.all],
  }),
);

// ---------------------------------------------------------------------------------------------
// checkPlay

type Premium = 'DLS' | 'TLS' | 'QLS' | 'DWS' | 'TWS' | 'QWS';
const PREMIUM_NAMES: Readonly<Record<string, Premium>> = { l2: 'DLS', l3: 'TLS', l4: 'QLS', w2: 'DWS', w3: 'TWS', w4: 'QWS' };
const premiumOf = (l: ScoredLetter): Premium | null =>
  PREMIUM_NAMES[l.letterMultiplier > 1 ? `l${l.letterMultiplier}` : `w${l.wordMultiplier}`] ?? null;

const ScoredLetterType = builder.objectRef<ScoredLetter>('ScoredLetter').implement({
  description: 'One square of a scored word, with the arithmetic (seed-003 scoring 2–6).',
  fields: (t) => ({
    square: t.string({ description: 'The square in notation, e.g. `H8`.', resolve: (l) => formatSquare(l) }),
    letter: t.exposeString('letter', { description: 'The letter, uppercase (a blank’s chosen letter); a digraph is two letters.' }),
    blank: t.exposeBoolean('blank', { description: 'The tile is a blank (face value 0).' }),
    newlyPlaced: t.exposeBoolean('newlyPlaced', { description: 'Placed by this play: only such squares take premiums (scoring 5).' }),
    face: t.exposeInt('face', { description: 'Face value; 0 for a blank (scoring 6).' }),
    premium: t.string({
      nullable: true,
      description: 'The premium square used by this play as a string: DLS, TLS, QLS, DWS, TWS, QWS; null when none.',
      deprecationReason: 'Use premiumSquare (the PremiumSquare enum).',
      resolve: premiumOf,
    }),
    premiumSquare: t.field({
      type: PremiumSquareEnum,
      nullable: true,
      description: 'The premium square this play used; null when none (a square already covered counts as plain).',
      resolve: premiumOf,
    }),
    letterMultiplier: t.exposeInt('letterMultiplier', { description: 'The letter premium applied: 1, 2, 3 or 4.' }),
    wordMultiplier: t.exposeInt('wordMultiplier', { description: 'The word premium of this square: 1, 2, 3 or 4.' }),
    value: t.exposeInt('value', { description: 'What the tile scores in the word: face × letterMultiplier.' }),
  }),
});

export const ScoredWordType = builder.objectRef<ScoredWord>('ScoredWord').implement({
  description: 'A word formed by the play (seed-003 scoring 1–7).',
  fields: (t) => ({
    word: t.exposeString('word', { description: 'The word, uppercase (blanks as their letters).' }),
    main: t.exposeBoolean('main', { description: 'The word along the play’s direction; the others are cross words.' }),
    start: t.string({
      description: 'Where the word starts, as notation writes it (`8H` across, `H8` down).',
      resolve: (w) => formatAnchor(w.start),
    }),
    letters: t.field({
      type: [ScoredLetterType],
      description: 'Its squares, in reading order, with the arithmetic.',
      resolve: (w) => [...w.letters],
    }),
    letterSum: t.exposeInt('letterSum', { description: 'Sum of letter values after letter premiums.' }),
    wordMultiplier: t.exposeInt('wordMultiplier', { description: 'Product of the word premiums covered.' }),
    score: t.exposeInt('score', { description: 'The word’s score: letterSum × wordMultiplier.' }),
    valid: t.boolean({ nullable: true, description: 'Whether the lexicon has the word; null when not judged.', resolve: (w) => w.valid }),
  }),
});

const PlacementType = builder.objectRef<Placement>('Placement').implement({
  description: 'A tile a play puts down.',
  fields: (t) => ({
    square: t.string({ description: 'The square in notation, e.g. `H8`.', resolve: (p) => formatSquare(p) }),
    letter: t.exposeString('letter', { description: 'The letter, uppercase (a blank’s chosen letter).' }),
    blank: t.exposeBoolean('blank', { description: 'The tile is a blank.' }),
  }),
});

const ScoredPlayType = builder.objectRef<PlayAnswer>('ScoredPlay').implement({
  description: 'A legal play and its score, with the breakdown.',
  fields: (t) => ({
    move: t.string({ description: 'The play in canonical notation.', resolve: (a) => a.notation }),
    score: t.int({ description: 'Word scores plus the bingo bonus (seed-003 scoring 1, 7, 8).', resolve: (a) => a.play.score }),
    bingo: t.boolean({ description: 'The play uses a whole rack (seven tiles on the standard board).', resolve: (a) => a.play.bingo }),
    bingoBonus: t.int({
      description: 'The bingo bonus included in score (board.bingoBonus); 0 for other plays.',
      resolve: (a) => a.play.bingoBonus,
    }),
    words: t.field({ type: [ScoredWordType], description: 'Main word first, then the cross words.', resolve: (a) => [...a.play.words] }),
    placements: t.field({
      type: [PlacementType],
      description: 'Tiles put down, in order along the word.',
      resolve: (a) => [...a.play.placements],
    }),
    phonies: t.stringList({
      description: 'Words not in the lexicon (only where the rule set lets a phony stand until challenged).',
      resolve: (a) => [...a.play.phonies],
    }),
    phoniesAllowed: t.boolean({
      description: 'The rule set lets a phony stand until challenged (any challenge mode but void).',
      resolve: (a) => a.phoniesAllowed,
    }),
    rackAfter: t.string({
      nullable: true,
      description: 'The rack minus the tiles used; null when no rack was given.',
      resolve: (a) => a.rackAfter,
    }),
    ruleSet: t.string({
      description: 'The preset id judged under, as a string.',
      deprecationReason: 'Use preset (the RuleSetPreset enum).',
      resolve: (a) => a.ruleSet.id,
    }),
    preset: t.field({ type: RuleSetPresetEnum, description: 'The preset judged under.', resolve: (a) => a.ruleSet.id as RuleSetId }),
    lexicon: t.field({ type: LexiconType, description: 'The lexicon the words were judged by.', resolve: (a) => a.lexicon }),
  }),
});

const CheckPlayInput = builder.inputType('CheckPlayInput', {
  description:
    'A play to judge: the move in GCG notation, optionally the board before it and the rack (board format in docs/api.md, checkPlay).',
  fields: (t) => ({
    board: t.stringList({
      required: false,
      description:
        'The position, one string per row from row 1: uppercase letter = tile, lowercase = blank, "." = empty, [CH] = digraph tile; spaces ignored. 15 rows of 15 squares on the standard board. Omit for the empty board.',
    }),
    rack: t.string({
      required: false,
      description: 'The mover’s tiles: AEINRST, ? for a blank. Omit to skip the rack check.',
      validate: z.string().max(40),
    }),
    move: t.string({
      description: '`8H WORD` across or `H8 WORD` down; lowercase = blank, "." = a tile already on the board.',
      validate: z.string().min(1).max(80),
    }),
    preset: t.field({ type: RuleSetPresetEnum, required: false, description: `The rule-set preset (default ${DEFAULT_RULE_SET}).` }),
    ruleSet: t.string({
      required: false,
      description: 'The preset id as a string.',
      deprecationReason: 'Use preset (the RuleSetPreset enum).',
    }),
    overrides: t.field({ type: 'JSON', required: false, description: 'Rule-set overrides, nested: {"board": {"bingoBonus": 35}}.' }),
    lexicon: t.string({ required: false, description: 'Lexicon name (default: the server’s default, see `lexicons`).' }),
  }),
});

builder.queryField('checkPlay', (t) =>
  t.field({
    type: ScoredPlayType,
    description:
      'Is this play legal on this board with this rack, and what does it score? A RuleViolation names the square, tile or word at fault and cites the rule.',
    errors: { types: RULE_ERRORS, directResult: true, union: resultUnion('CheckPlayResult', 'ScoredPlay') },
    args: { input: t.arg({ type: CheckPlayInput, required: true, description: 'The play, and what to judge it against.' }) },
    resolve: (_root, { input }, ctx) =>
      unwrap(
        answerPlay(ctx.lexicons, {
          ...input,
          ruleSet: eitherOf({ field: 'input.preset', value: input.preset }, { field: 'input.ruleSet', value: input.ruleSet }),
        }),
      ),
  }),
);

// ---------------------------------------------------------------------------------------------
// checkWords

const WordValidityType = builder.objectRef<WordsAnswer['results'][number]>('WordValidity').implement({
  description: 'Whether the lexicon has one word.',
  fields: (t) => ({
    word: t.exposeString('word', { description: 'The word as judged (uppercase).' }),
    valid: t.exposeBoolean('valid', { description: 'The lexicon has the word.' }),
  }),
});

const WordCheckType = builder.objectRef<WordsAnswer>('WordCheck').implement({
  description: 'Which of the words asked the lexicon has.',
  fields: (t) => ({
    lexicon: t.field({ type: LexiconType, description: 'The lexicon the words were judged by.', resolve: (a) => a.lexicon }),
    results: t.field({ type: [WordValidityType], description: 'One per word asked, in order.', resolve: (a) => [...a.results] }),
    allValid: t.boolean({ description: 'Every word asked is valid.', resolve: (a) => a.results.every((r) => r.valid) }),
  }),
});

builder.queryField('checkWords', (t) =>
  t.field({
    type: WordCheckType,
    description: `Which of these words the lexicon has (at most ${MAX_WORDS_PER_CHECK} per request).`,
    errors: { types: RULE_ERRORS, directResult: true, union: resultUnion('CheckWordsResult', 'WordCheck') },
    args: {
      words: t.arg.stringList({
        required: true,
        description: `The words, 1 to ${MAX_WORDS_PER_CHECK}, each 1–64 letters (any case).`,
        validate: z
          .array(z.string().trim().min(1, 'A word is empty.').max(64))
          .min(1, 'Give at least one word.')
          .max(MAX_WORDS_PER_CHECK, `At most ${MAX_WORDS_PER_CHECK} words per request.`),
      }),
      lexicon: t.arg.string({ required: false, description: 'Lexicon name (default: the server’s default).' }),
    },
    resolve: (_root, args, ctx) => unwrap(answerWords(ctx.lexicons, args.words, args.lexicon)),
  }),
);
