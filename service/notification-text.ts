import type { NotificationKind } from './notification-channels.js';

/**
 * The words of a notification, from the outbox payload and what the notifier looked up (the opponent's
 * display name, the tournament's name). Only public facts: the payloads carry no racks and no bag, and
 * nothing here reads them. Plain text: the channels escape or format it.
 */

export interface TextInput {
  readonly kind: NotificationKind;
  readonly payload: Readonly<Record<string, unknown>>;
  /** The recipient's seat in the game; null for tournament kinds (or a recipient who is not seated). */
  readonly seat: number | null;
  /** The other seat's display name; null when unknown or for tournament kinds. */
  readonly opponent: string | null;
  readonly tournament: string | null;
  /** The recipient's zone, for times in the text. */
  readonly timeZone: string;
}

export interface NoticeText {
  readonly title: string;
  readonly body: string;
}

/** "Mon 30 Nov, 14:05 (Europe/Paris)": a time the reader can act on without converting it. */
export const localTime = (iso: string, zone: string): string => {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const text = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(at);
  return `${text} (${zone})`;
};

const str = (x: unknown): string | null => (typeof x === 'string' && x !== '' ? x : null);
const num = (x: unknown): number | null => (typeof x === 'number' && Number.isFinite(x) ? x : null);

const gameEndedBody = (t: TextInput, against: string): string => {
  const scores = Array.isArray(t.payload['scores']) ? (t.payload['scores'] as unknown[]).map(num) : [];
  const mine = t.seat === null ? null : (scores[t.seat] ?? null);
  const theirs = t.seat === null ? null : (scores[1 - t.seat] ?? null);
  const score = mine !== null && theirs !== null ? ` ${mine}–${theirs}` : '';
  const winner = num(t.payload['winnerSeat']);
  const reason = str(t.payload['reason']);
  const how = reason === null ? '' : ` (${reason.replace(/-/g, ' ')})`;
  if (winner === null) return `Your game ${against} ended in a draw${score}${how}.`;
  if (t.seat === null) return `Your game ${against} is over${score}${how}.`;
  return `You ${winner === t.seat ? 'won' : 'lost'} your game ${against}${score}${how}.`;
};

const yourTurnText = (t: TextInput, against: string): NoticeText => {
  const deadline = str(t.payload['deadlineAt']);
  const by = deadline === null ? '' : ` Your time runs out ${localTime(deadline, t.timeZone)}.`;
  if (t.payload['paused'] === true) {
    const until = str(t.payload['pausedUntil']);
    return {
      title: `Your game ${against} is paused`,
      body: `The clock of your game ${against} stands still${until === null ? '' : ` until ${localTime(until, t.timeZone)}`}.${by}`,
    };
  }
  return { title: `Your move ${against}`, body: `It is your turn in your game ${against}.${by}` };
};

const gameText = (t: TextInput): NoticeText => {
  const against = t.opponent === null ? '' : `against ${t.opponent}`;
  const p = t.payload;
  switch (t.kind) {
    case 'your-turn':
      return yourTurnText(t, against);
    case 'game-started':
      return { title: `New game ${against}`, body: `A game ${against} has started. Open it to see your rack.` };
    case 'game-ended':
      return { title: `Your game ${against} is over`, body: gameEndedBody(t, against) };
    case 'deadline-near': {
      const deadline = str(p['deadlineAt']);
      return {
        title: `Your time ${against} runs out soon`,
        body: `Move before ${deadline === null ? 'your deadline' : localTime(deadline, t.timeZone)}, or you lose the game ${against} on time.`,
      };
    }
    case 'challenge-resolved': {
      const words = Array.isArray(p['words']) ? (p['words'] as unknown[]).filter((w) => typeof w === 'string').join(', ') : '';
      const stood = p['valid'] === true;
      const what = words === '' ? 'The challenged play' : words;
      return {
        title: `Challenge ${against}`,
        body: `${what} ${stood ? 'stood: the challenge failed' : 'came off the board: the challenge succeeded'}.`,
      };
    }
    case 'dispute-filed':
      return { title: `Dispute ${against}`, body: `A dispute was filed in your game ${against}; a director will rule on it.` };
    case 'dispute-ruled':
      return { title: `Ruling ${against}`, body: `The dispute in your game ${against} has been ruled on.` };
    default:
      return { title: `News ${against}`, body: `Something happened in your game ${against}.` };
  }
};

const tournamentText = (t: TextInput): NoticeText => {
  const name = t.tournament ?? 'your tournament';
  const round = num(t.payload['round']);
  const ofRound = round === null ? '' : `Round ${round} of `;
  switch (t.kind) {
    case 'round-paired':
      return { title: `${ofRound}${name} is paired`, body: `${ofRound}${name} has been paired: open it to see your opponent.` };
    case 'result-recorded':
      return { title: `Result recorded in ${name}`, body: `A result of ${ofRound.toLowerCase()}${name} has been recorded.` };
    case 'slip-submitted':
      return { title: `Tally slip in ${name}`, body: `A tally slip of ${ofRound.toLowerCase()}${name} has been submitted.` };
    default:
      return { title: `Standings of ${name}`, body: `The standings of ${name} have changed.` };
  }
};

const TOURNAMENT_KINDS: readonly NotificationKind[] = ['round-paired', 'result-recorded', 'slip-submitted', 'standings-changed'];
const LOBBY_KINDS: readonly NotificationKind[] = [
  'challenge-received',
  'challenge-answered',
  'seek-accepted',
  'pairing-found',
  'robot-offered',
];

/** The lobby's notices (docs/lobby.md#announcements): `from` is the other player's public handle. */
const lobbyText = (t: TextInput): NoticeText => {
  const from = str(t.payload['from']);
  const who = from ?? 'A player';
  switch (t.kind) {
    case 'challenge-received': {
      const rematch = str(t.payload['rematchOf']) !== null;
      return rematch
        ? { title: `${who} asks for a rematch`, body: `${who} asks for a rematch: accept or decline it.` }
        : { title: `${who} challenges you`, body: `${who} challenged you to a game: accept or decline it.` };
    }
    case 'challenge-answered': {
      const answer = str(t.payload['answer']) ?? 'answered';
      const whose = answer === 'withdrawn' ? `${who}’s challenge` : `Your challenge to ${from ?? 'your opponent'}`;
      const more = answer === 'accepted' ? ': the game has started.' : '.';
      return { title: `${whose} was ${answer}`, body: `${whose} was ${answer}${more}` };
    }
    case 'seek-accepted':
      return { title: `${who} accepted your seek`, body: `${who} accepted your seek: the game has started.` };
    case 'robot-offered':
      return {
        title: 'No opponent found: play a robot?',
        body: 'Nobody was paired with you in time: you may play a casual game against a robot.',
      };
    default:
      return { title: `Opponent found: ${who}`, body: `Your pairing request found ${from ?? 'an opponent'}: the game has started.` };
  }
};

/** The title and body of a notification for one recipient. */
export const noticeText = (t: TextInput): NoticeText => {
  const text = TOURNAMENT_KINDS.includes(t.kind) ? tournamentText(t) : LOBBY_KINDS.includes(t.kind) ? lobbyText(t) : gameText(t);
  // An unnamed opponent leaves a double space ("Your move ") behind; tidy it rather than special-case each line.
  return {
    title: text.title.replace(/\s+/g, ' ').trim(),
    body: text.body
      .replace(/\s+/g, ' ')
      .replace(/ ([.,;:])/g, '$1')
      .trim(),
  };
};

/** The page a notification links to: the play page's game, or the tournament's standings page. */
export const noticeUrl = (base: string, gameId: string | null, tournamentId: string | null): string => {
  const root = base.replace(/\/+$/, '');
  if (gameId !== null) return `${root}/play#game=${gameId}`;
  if (tournamentId !== null) return `${root}/tournaments/${tournamentId}`;
  return `${root}/play`;
};
