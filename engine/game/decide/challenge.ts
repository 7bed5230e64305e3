import { cite } from '../../errors.js';
import type { Lexicon } from '../../lexicon/lexicon.js';
import { ok, type Result } from '../../result.js';
import { CHALLENGE_EFFECTS, challengePoints } from '../challenge.js';
import { other, type GameEvent, type Seat } from '../events.js';
import type { GameState, PendingPlay } from '../state.js';
import { Batch, fail, finish } from './batch.js';
import type { CommandHandler } from './command.js';

/** The challenge command and the events a judged challenge causes under each challenge mode. */

/**
 * The events of a judged challenge against the pending play (CHALLENGE_EFFECTS per mode). Invalid:
 * tiles drawn after the play are shown and returned (seed-001 §2) and the play is withdrawn; under
 * `triple` its player loses. Valid: the challenger loses the turn (double), the challenged player
 * gets points (points modes), the challenger loses the game (triple), or nothing (single, free).
 */
export const challengeEvents = (
  s: GameState,
  challenger: Seat,
  words: readonly { word: string; valid: boolean | null }[],
  valid: boolean,
  seed: string | null,
): GameEvent[] => {
  const rules = s.rules;
  const effect = CHALLENGE_EFFECTS[rules.challenge.mode];
  const player = other(challenger);
  const out: GameEvent[] = [{ type: 'challenge', seat: challenger, words, valid }];
  const revealed = s.bagKind === 'seeded' ? seed : null;
  const p = s.pending;
  if (!valid) {
    if (p && (p.drawn.length > 0 || p.drawnHidden > 0)) {
      out.push({ type: 'tiles-returned', seat: player, tiles: p.drawn, from: 'rack', ...(p.drawnHidden ? { hidden: p.drawnHidden } : {}) });
    }
    out.push({ type: 'phony-withdrawn', seat: player, score: p?.score ?? 0 });
    if (effect.invalidLosesGame) out.push({ type: 'game-ended', reason: 'challenge-lost', adjustments: [], loser: player, seed: revealed });
    return out;
  }
  switch (effect.validCost) {
    case 'turn':
      out.push({ type: 'turn-lost', seat: challenger, reason: 'lost-challenge' });
      break;
    case 'points': {
      const pts = challengePoints(rules.challenge.mode, rules.challenge.points, words.length);
      out.push(
        rules.challenge.pointsRecipient === 'challenged-player'
          ? { type: 'challenge-points', seat: player, points: pts }
          : { type: 'challenge-points', seat: challenger, points: -pts },
      );
      break;
    }
    case 'game':
      out.push({ type: 'game-ended', reason: 'challenge-lost', adjustments: [], loser: challenger, seed: revealed });
      break;
    case 'nothing':
      break;
  }
  return out;
};

/** The opponent's play that `seat` may still challenge (seed-001 §8: until the next turn starts). */
const challengeablePlay = (state: GameState, seat: Seat): Result<PendingPlay> => {
  const rules = state.rules;
  const p = state.pending;
  if (!CHALLENGE_EFFECTS[rules.challenge.mode].challengeable)
    return fail('NO_CHALLENGES', `Under ${rules.name} plays cannot be challenged: invalid words are rejected when played.`, {
      mode: rules.challenge.mode,
    });
  if (state.status === 'ended') return fail('GAME_OVER', 'The game is over.', { seat });
  if (!p || p.seat !== other(seat) || p.challenged || state.turn !== seat) {
    return fail(
      'NO_PLAY_TO_CHALLENGE',
      'There is no play of the opponent that can still be challenged: a play can be challenged until the next turn starts.',
      { seat },
      cite('seed-001', '§8'),
    );
  }
  return ok(p);
};

/** The challenged words judged by the lexicon, each once; every one must be a word the play formed. */
const judgeWords = (p: PendingPlay, chosen: readonly string[], lexicon: Lexicon): Result<{ word: string; valid: boolean }[]> => {
  const formed = p.words.map((w) => w.word);
  const notFormed = chosen.filter((w) => !formed.includes(w.toUpperCase()));
  if (chosen.length === 0 || notFormed.length > 0) {
    return fail(
      'NOT_FORMED',
      `The play ${p.move} formed ${formed.join(', ')}; ${notFormed.join(', ') || 'no word'} cannot be challenged.`,
      {
        formed,
        words: chosen,
      },
    );
  }
  return ok([...new Set(chosen.map((w) => w.toUpperCase()))].map((word) => ({ word, valid: lexicon.has(word) })));
};

/** A challenge of the opponent's last play (default: every word it formed), judged by the game's lexicon. */
export const decideChallenge: CommandHandler<'challenge'> = (state, { seat, words }, ctx) => {
  const p = challengeablePlay(state, seat);
  if (!p.ok) return p;
  if (!ctx.lexicon) return fail('LEXICON_REQUIRED', "A challenge needs the game's lexicon to judge the words.", { seat });
  const judged = judgeWords(p.value, words ?? p.value.words.map((w) => w.word), ctx.lexicon);
  if (!judged.ok) return judged;
  const b = new Batch(state, ctx.now);
  const r = b.pushAll(
    challengeEvents(
      state,
      seat,
      judged.value,
      judged.value.every((w) => w.valid),
      ctx.seed,
    ),
  );
  if (!r.ok) return r;
  return finish(b, ctx.seed);
};
