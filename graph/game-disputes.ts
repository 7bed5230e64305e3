import * as z from 'zod';
import type { GameDispute } from '../engine/adjudication/game-disputes.js';
import type { Citation } from '../engine/errors.js';
import type { DisputeFiled, RulingApplied } from '../engine/game/events.js';
import { joinTiles } from '../engine/tiles.js';
import { fileDispute, gameDisputes } from '../service/disputes.js';
import { getGame, type GameSnapshot } from '../service/game-reads.js';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '../service/turns.js';
import { builder } from './builder.js';
import { requirePlayer, requireScope } from './context.js';
import { DisputeFactSourceEnum, DisputeStatusEnum } from './enums.js';
import { CitationType, GAME_ERRORS, resultUnion } from './errors.js';
import { deps, GameType, value } from './game.js';

/**
 * Disputes on a stored game (issue 14): `fileDispute`, and `Game.disputes` — each with its facts (and
 * where each comes from: the log or the claimant), its status, and the ruling applied to the game.
 * Hidden facts (a rack) show only to their seat (engine/adjudication/game-disputes.ts).
 */

type Fact = GameDispute['facts'][number];
type Applied = NonNullable<GameDispute['applied']>;

const DisputeFactValueType = builder.objectRef<Fact>('DisputeFactValue').implement({
  description: 'One fact of a filed dispute, with its source.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The fact’s name, as in the kind’s input (disputeKinds), e.g. `bagCount`.' }),
    value: t.field({ type: 'JSON', nullable: true, description: 'Its value; null when hidden from you.', resolve: (f) => f.value ?? null }),
    source: t.field({ type: DisputeFactSourceEnum, description: 'LOG (read from the game log) or CLAIMANT.', resolve: (f) => f.source }),
    version: t.int({
      nullable: true,
      description: 'For a LOG fact: the game version it was read at.',
      resolve: (f) => f.version ?? null,
    }),
    hidden: t.exposeBoolean('hidden', { description: 'True when the fact is another player’s hidden information (a rack).' }),
  }),
});

const RevealedTilesType = builder.objectRef<{ seat: number; tiles: readonly string[] }>('RevealedTiles').implement({
  description: 'Tiles a ruling showed to both players (tiles shown and returned): only these leave the hidden information.',
  fields: (t) => ({
    seat: t.exposeInt('seat', { description: 'The seat whose tiles they were.' }),
    tiles: t.string({ description: 'The tiles, as a rack (`?` a blank, `[CH]` a digraph).', resolve: (r) => joinTiles(r.tiles) }),
  }),
});

const ScoreChangeType = builder.objectRef<RulingApplied['scoreChanges'][number]>('RulingScoreChange').implement({
  description: 'A score change a ruling made.',
  fields: (t) => ({
    seat: t.exposeInt('seat', { description: 'The seat whose score changed.' }),
    points: t.exposeInt('points', { description: 'Points added (negative: taken).' }),
  }),
});

/** A ruling as the API shows it: the automatic one (not applied yet, or applied as is) or the one applied. */
interface RulingView {
  readonly verdict: string | null;
  readonly code: string;
  readonly explanation: string;
  readonly effects: readonly unknown[];
  readonly citations: readonly Citation[];
  readonly applied: Applied | null;
}

const automaticView = (r: DisputeFiled['ruling']): RulingView => ({
  verdict: r.verdict,
  code: r.ruling,
  explanation: r.explanation,
  effects: r.effects,
  citations: r.citations,
  applied: null,
});

const appliedView = (r: Applied): RulingView => ({
  verdict: r.verdict ?? null,
  code: r.ruling,
  explanation: r.note,
  effects: r.effects ?? [],
  citations: r.citations ?? (r.citation ? [r.citation] : []),
  applied: r,
});

const DisputeRulingType = builder.objectRef<RulingView>('DisputeRuling').implement({
  description: 'A ruling on a filed dispute: the rule set’s automatic one, or the one applied to the game (a `ruling-applied` event).',
  fields: (t) => ({
    verdict: t.string({
      nullable: true,
      description: 'ALLOWED, FORBIDDEN, NO_RULE or DIRECTOR_DECIDES (see Verdict).',
      resolve: (r) => r.verdict,
    }),
    code: t.exposeString('code', { description: 'The ruling code (see RulingCode).' }),
    explanation: t.exposeString('explanation', { description: 'The ruling in plain words (a director’s note when a director ruled).' }),
    effects: t.field({ type: ['JSON'], description: 'Its effects, as `adjudicate` states them.', resolve: (r) => [...r.effects] }),
    citations: t.field({ type: [CitationType], description: 'The rules relied on.', resolve: (r): Citation[] => [...r.citations] }),
    version: t.int({
      nullable: true,
      description: 'The game version of its ruling-applied event; null for an automatic ruling not applied.',
      resolve: (r) => r.applied?.version ?? null,
    }),
    scoreChanges: t.field({
      type: [ScoreChangeType],
      description: 'Score corrections it made to the game.',
      resolve: (r) => [...(r.applied?.scoreChanges ?? [])],
    }),
    revealedTiles: t.field({
      type: [RevealedTilesType],
      description: 'Tiles it showed to both players.',
      resolve: (r) => [...(r.applied?.revealed ?? [])],
    }),
    directorId: t.string({
      nullable: true,
      description: 'The director who ruled; null for the automatic ruling.',
      resolve: (r) => r.applied?.by ?? null,
    }),
  }),
});

export const GameDisputeType = builder.objectRef<GameDispute>('GameDispute').implement({
  description: 'A dispute filed on this game (fileDispute): its facts with their sources, its status and ruling.',
  fields: (t) => ({
    number: t.exposeInt('number', { description: 'Its number in the game: 1, 2, …' }),
    kind: t.exposeString('kind', { description: 'Its kind, e.g. `overtime` (disputeKinds).' }),
    status: t.field({
      type: DisputeStatusEnum,
      description: 'OPEN (a director is to rule), APPEALED (a director is to rule on the appeal) or RULED.',
      resolve: (d) => d.status,
    }),
    filedAtVersion: t.exposeInt('filedAt', { description: 'The game version of its dispute-filed event.' }),
    concernsVersion: t.exposeInt('concerns', { description: 'The game version of the act in dispute.' }),
    disputedSeat: t.exposeInt('player', { description: 'The seat whose act is disputed (the kind’s `player`).' }),
    claimantSeat: t.int({
      nullable: true,
      description: 'The seat that filed it; null when a director did.',
      resolve: (d) => d.claimantSeat,
    }),
    facts: t.field({
      type: [DisputeFactValueType],
      description: 'Every fact it was ruled on, with its source.',
      resolve: (d) => [...d.facts],
    }),
    automaticRuling: t.field({
      type: DisputeRulingType,
      description: 'What the rule set ruled by itself.',
      resolve: (d) => automaticView(d.automatic),
    }),
    ruling: t.field({
      type: DisputeRulingType,
      nullable: true,
      description: 'The ruling applied to the game; null while the dispute is open.',
      resolve: (d) => (d.applied ? appliedView(d.applied) : null),
    }),
    note: t.string({ nullable: true, description: 'The claimant’s note.', resolve: (d) => d.note }),
    appealedBySeat: t.int({
      nullable: true,
      description: 'The seat that appealed its automatic ruling (appealDispute); null when not appealed.',
      resolve: (d) => d.appealed?.seat ?? null,
    }),
    appealedAtVersion: t.int({
      nullable: true,
      description: 'The game version of its dispute-appealed event; null when not appealed.',
      resolve: (d) => d.appealed?.version ?? null,
    }),
  }),
});

builder.objectFields(GameType, (t) => ({
  disputes: t.field({
    type: [GameDisputeType],
    description: 'The disputes filed on this game, oldest first, as you may see them (another player’s rack stays hidden).',
    resolve: async (g: GameSnapshot, _args, ctx) => value(await gameDisputes(deps(ctx), g.id, g.mySeat, g.version)),
  }),
}));

const DisputeClaimInput = builder.inputType('DisputeClaimInput', {
  description: 'What is disputed: the kind, the act (version) it concerns, and only the facts the log cannot know.',
  fields: (t) => ({
    kind: t.string({ description: 'The dispute kind, e.g. `overtime`, `exchange-count-mismatch` (disputeKinds).' }),
    concerns: t.int({
      description:
        'The game version (event number) of the act in dispute: the `event` of its line in Game.history (GET /v1/games/{id}/turns).',
    }),
    player: t.int({
      required: false,
      description: 'The seat whose act is disputed, when the event at `concerns` is no seat’s act; else it must be that event’s seat.',
      validate: z.number().int().min(0).max(1),
    }),
    facts: t.field({
      type: 'JSON',
      required: false,
      description:
        'The facts only the table knows, by the kind’s fact names, e.g. {"secondsOver": 125}. Facts the log holds are taken from it; a different value is FACTS_CONTRADICT_LOG.',
    }),
    note: t.string({ required: false, description: 'A note for the record (at most 500 characters).', validate: z.string().max(500) }),
  }),
});

const FileDisputeInput = builder.inputType('FileDisputeInput', {
  description: 'A dispute on a stored game: the game, the version you decided on, a key that makes retries safe, and the claim.',
  fields: (t) => ({
    gameId: t.id({ description: 'The game’s id.' }),
    expectedVersion: t.int({
      description: 'The `version` of the game you decided on; a turn or dispute in between gives STALE_VERSION.',
      validate: z.number().int().min(0),
    }),
    idempotencyKey: t.string({
      description: 'A fresh random string per new request; the same one on a retry.',
      validate: z.string().trim().min(1).max(MAX_IDEMPOTENCY_KEY_LENGTH),
    }),
    dispute: t.field({ type: DisputeClaimInput, description: 'What is disputed.' }),
  }),
});

export const FiledDisputeType = builder.objectRef<{ dispute: GameDispute; game: GameSnapshot }>('FiledDispute').implement({
  description: 'A dispute just filed: the dispute as you see it, and the game after it.',
  fields: (t) => ({
    dispute: t.field({ type: GameDisputeType, description: 'The dispute, with its ruling if one was applied.', resolve: (r) => r.dispute }),
    game: t.field({ type: GameType, description: 'The game after the dispute’s events.', resolve: (r) => r.game }),
  }),
});

builder.mutationField('fileDispute', (t) =>
  t.field({
    type: FiledDisputeType,
    description:
      'Files a dispute on a stored game as a seated player: facts the log holds are read from it, the game’s rule set rules, and the ruling is applied to the game in the same transaction as a turn (docs/adjudication.md).',
    authScopes: { scope: 'games:play' },
    errors: { types: GAME_ERRORS, directResult: true, union: resultUnion('FileDisputeResult', 'FiledDispute') },
    args: { input: t.arg({ type: FileDisputeInput, required: true, description: 'The dispute.' }) },
    resolve: async (_root, { input }, ctx) => {
      const me = requirePlayer(ctx).player.id;
      requireScope(ctx, 'games:play');
      const d = deps(ctx);
      const claim = input.dispute;
      const facts =
        claim.facts && typeof claim.facts === 'object' && !Array.isArray(claim.facts) ? (claim.facts as Record<string, unknown>) : {};
      const receipt = value(
        await fileDispute(d, me, {
          gameId: String(input.gameId),
          expectedVersion: input.expectedVersion,
          idempotencyKey: input.idempotencyKey,
          kind: claim.kind,
          concerns: claim.concerns,
          player: (claim.player ?? null) as 0 | 1 | null,
          facts,
          ...(claim.note ? { note: claim.note } : {}),
        }),
      );
      const game = value(await getGame(d, me, receipt.gameId, { atVersion: receipt.version }));
      const disputes = value(await gameDisputes(d, receipt.gameId, game.mySeat, receipt.version));
      return { dispute: disputes.find((x) => x.number === receipt.dispute)!, game };
    },
  }),
);
