import * as z from 'zod';
import { MAX_UPLOAD_BYTES, UNSPELLABLE_SHOWN } from '../engine/lexicon/upload.js';
import { uploadLexicon, type LexiconUploadResult } from '../service/lexicon-uploads.js';
import { builder } from './builder.js';
import { requireScope } from './context.js';
import { AUTH_ERRORS, INPUT_ERRORS, RateLimitedError, resultUnion, RuleViolation, unwrap } from './errors.js';
import { deps } from './game.js';
import { enforceRateLimit } from './rate-limit.js';
import { LexiconType } from './rules.js';

/** Word lists uploaded through the API (issue 21; docs/lexicons.md#uploading-a-word-list). */

const UploadLexiconInput = builder.inputType('UploadLexiconInput', {
  description: 'A word list to upload: its name, the tile set that spells it, and the words.',
  fields: (t) => ({
    name: t.string({
      description:
        'The name games will use (1–64 of A–Z, 0–9, _ and -; case-insensitive). A name of this server’s own lexicons, or another player’s upload, is refused.',
      validate: z.string().max(64),
    }),
    tileSet: t.string({ description: 'The tile set (distribution id) its words are spelled with: english, spanish … (engine/tiles.ts).' }),
    words: t.string({
      description: `The list, one word a line (blank lines and # comments ignored), at most ${MAX_UPLOAD_BYTES} bytes; normalised to NFC and upper case. Over GraphQL the request body is capped lower: send big lists to POST /v1/lexicons as text/plain.`,
    }),
  }),
});

const LexiconUploadType = builder.objectRef<LexiconUploadResult>('LexiconUpload').implement({
  description: 'An uploaded word list, stored and ready for new games (createGame with lexicon: its name).',
  fields: (t) => ({
    lexicon: t.field({ type: LexiconType, description: 'The lexicon: its name, content hash and word count.', resolve: (u) => u.lexicon }),
    tileSet: t.exposeString('tileSet', { description: 'The tile set its words were spelled with.' }),
    created: t.exposeBoolean('created', {
      description: 'False when this very list was already uploaded under this name (nothing changed).',
    }),
    unspellableCount: t.exposeInt('unspellableCount', {
      description:
        'How many words the tile set cannot spell: they stay in the list (its hash is the whole list’s) but can never be played.',
    }),
    unspellable: t.exposeStringList('unspellable', { description: `The first ${UNSPELLABLE_SHOWN} of those words, in list order.` }),
  }),
});

builder.mutationField('uploadLexicon', (t) =>
  t.field({
    type: LexiconUploadType,
    description:
      'Uploads a word list (needs the lexicons:manage scope): normalised, spelled in the tile set’s tiles (digraphs included), content-hashed and stored. Unspellable words are reported, not dropped.',
    authScopes: { scope: 'lexicons:manage' },
    errors: {
      types: [RuleViolation, ...AUTH_ERRORS, ...INPUT_ERRORS, RateLimitedError],
      directResult: true,
      union: resultUnion('UploadLexiconResult', 'LexiconUpload'),
    },
    args: { input: t.arg({ type: UploadLexiconInput, required: true, description: 'The list and its name and tile set.' }) },
    resolve: async (_root, { input }, ctx) => {
      const me = requireScope(ctx, 'lexicons:manage');
      await enforceRateLimit(ctx, 'lexiconUpload');
      return unwrap(await uploadLexicon(deps(ctx), me.player.id, input));
    },
  }),
);
