import { z } from 'zod';
import { formatAnchor, formatSquare } from '../engine/board.js';
import type { Lexicon } from '../engine/lexicon/lexicon.js';
import type { Placement } from '../engine/board.js';
import { describeParameterType, getParameter, PARAMETERS, type Parameter } from '../engine/rules/params.js';
import { PRESETS } from '../engine/rules/presets.js';
import type { RuleSet } from '../engine/rules/ruleset.js';
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
import { CitationType, RuleViolation, ValidationError, unwrap } from './errors.js';

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
    description: t.string({ resolve: (p) => p.parameter.description }),
    allowed: t.string({
      description: 'What an override may set, e.g. `integer 0–100 or null`.',
      resolve: (p) => describeParameterType(p.parameter.type),
    }),
    sources: t.field({
      type: [CitationType],
      description: 'The rules that give this value.',
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
        'Preset id: NSA_2008, WESPA, FRIENDLY, MATCH_VARIANT, ONLINE_VOID (GCG_IMPORT for an imported record: rules inferred from it).',
    }),
    name: t.exposeString('name'),
    description: t.exposeString('description'),
    challengeMode: t.string({
      description: 'double, single, points-per-word, points-per-turn, void, triple or free.',
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
    errors: { types: RULE_ERRORS, directResult: true, union: { name: 'RuleSetResult' } },
    args: {
      id: t.arg.string({ required: true, description: 'Preset id.' }),
      overrides: t.arg({ type: 'JSON', required: false, description: 'Nested like the rule set: {"challenge": {"mode": "single"}}.' }),
    },
    resolve: (_root, args) => unwrap(ruleSetFor(args.id, args.overrides)),
  }),
}));

// ---------------------------------------------------------------------------------------------
// Lexicons

const LexiconType = builder.objectRef<Lexicon>('Lexicon').implement({
  description: 'A word list loaded on this server, identified by name and content hash.',
  fields: (t) => ({
    name: t.exposeString('name'),
    hash: t.exposeString('hash', { description: '`sha256:` + hex of the normalised word list; a game records it.' }),
    wordCount: t.exposeInt('wordCount'),
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

const PREMIUM_NAMES: Readonly<Record<string, string>> = { l2: 'DLS', l3: 'TLS', l4: 'QLS', w2: 'DWS', w3: 'TWS', w4: 'QWS' };

const ScoredLetterType = builder.objectRef<ScoredLetter>('ScoredLetter').implement({
  description: 'One square of a scored word, with the arithmetic (seed-003 scoring 2–6).',
  fields: (t) => ({
    square: t.string({ description: 'e.g. `H8`.', resolve: (l) => formatSquare(l) }),
    letter: t.exposeString('letter'),
    blank: t.exposeBoolean('blank'),
    newlyPlaced: t.exposeBoolean('newlyPlaced', { description: 'Placed by this play: only such squares take premiums (scoring 5).' }),
    face: t.exposeInt('face', { description: 'Face value; 0 for a blank (scoring 6).' }),
    premium: t.string({
      nullable: true,
      description: 'The premium square used by this play: DLS, TLS, QLS, DWS, TWS, QWS; null when none.',
      resolve: (l) => PREMIUM_NAMES[l.letterMultiplier > 1 ? `l${l.letterMultiplier}` : `w${l.wordMultiplier}`] ?? null,
    }),
    letterMultiplier: t.exposeInt('letterMultiplier'),
    wordMultiplier: t.exposeInt('wordMultiplier'),
    value: t.exposeInt('value', { description: 'face × letterMultiplier.' }),
  }),
});

export const ScoredWordType = builder.objectRef<ScoredWord>('ScoredWord').implement({
  description: 'A word formed by the play (seed-003 scoring 1–7).',
  fields: (t) => ({
    word: t.exposeString('word'),
    main: t.exposeBoolean('main', { description: 'The word along the play’s direction; the others are cross words.' }),
    start: t.string({
      description: 'Where the word starts, as notation writes it (`8H` across, `H8` down).',
      resolve: (w) => formatAnchor(w.start),
    }),
    letters: t.field({ type: [ScoredLetterType], resolve: (w) => [...w.letters] }),
    letterSum: t.exposeInt('letterSum', { description: 'Sum of letter values after letter premiums.' }),
    wordMultiplier: t.exposeInt('wordMultiplier', { description: 'Product of the word premiums covered.' }),
    score: t.exposeInt('score', { description: 'letterSum × wordMultiplier.' }),
    valid: t.boolean({ nullable: true, description: 'Whether the lexicon has the word; null when not judged.', resolve: (w) => w.valid }),
  }),
});

const PlacementType = builder.objectRef<Placement>('Placement').implement({
  fields: (t) => ({
    square: t.string({ resolve: (p) => formatSquare(p) }),
    letter: t.exposeString('letter'),
    blank: t.exposeBoolean('blank'),
  }),
});

const ScoredPlayType = builder.objectRef<PlayAnswer>('ScoredPlay').implement({
  description: 'A legal play and its score, with the breakdown.',
  fields: (t) => ({
    move: t.string({ description: 'The play in canonical notation.', resolve: (a) => a.notation }),
    score: t.int({ description: 'Word scores plus the bingo bonus (seed-003 scoring 1, 7, 8).', resolve: (a) => a.play.score }),
    bingo: t.boolean({ resolve: (a) => a.play.bingo }),
    bingoBonus: t.int({ resolve: (a) => a.play.bingoBonus }),
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
    ruleSet: t.string({ description: 'The preset id judged under.', resolve: (a) => a.ruleSet.id }),
    lexicon: t.field({ type: LexiconType, resolve: (a) => a.lexicon }),
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
    ruleSet: t.string({ required: false, description: `Preset id (default ${DEFAULT_RULE_SET}).` }),
    overrides: t.field({ type: 'JSON', required: false, description: 'Rule-set overrides, nested: {"board": {"bingoBonus": 35}}.' }),
    lexicon: t.string({ required: false, description: 'Lexicon name (default: the server’s default, see `lexicons`).' }),
  }),
});

builder.queryField('checkPlay', (t) =>
  t.field({
    type: ScoredPlayType,
    description:
      'Is this play legal on this board with this rack, and what does it score? A RuleViolation names the square, tile or word at fault and cites the rule.',
    errors: { types: RULE_ERRORS, directResult: true, union: { name: 'CheckPlayResult' } },
    args: { input: t.arg({ type: CheckPlayInput, required: true }) },
    resolve: (_root, { input }, ctx) => unwrap(answerPlay(ctx.lexicons, input)),
  }),
);

// ---------------------------------------------------------------------------------------------
// checkWords

const WordValidityType = builder.objectRef<WordsAnswer['results'][number]>('WordValidity').implement({
  fields: (t) => ({
    word: t.exposeString('word', { description: 'The word as judged (uppercase).' }),
    valid: t.exposeBoolean('valid'),
  }),
});

const WordCheckType = builder.objectRef<WordsAnswer>('WordCheck').implement({
  fields: (t) => ({
    lexicon: t.field({ type: LexiconType, resolve: (a) => a.lexicon }),
    results: t.field({ type: [WordValidityType], description: 'One per word asked, in order.', resolve: (a) => [...a.results] }),
    allValid: t.boolean({ resolve: (a) => a.results.every((r) => r.valid) }),
  }),
});

builder.queryField('checkWords', (t) =>
  t.field({
    type: WordCheckType,
    description: `Which of these words the lexicon has (at most ${MAX_WORDS_PER_CHECK} per request).`,
    errors: { types: RULE_ERRORS, directResult: true, union: { name: 'CheckWordsResult' } },
    args: {
      words: t.arg.stringList({
        required: true,
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
