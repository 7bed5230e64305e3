/**
 * What a push says (service/push-channel.ts `pushPayload`): one notice as it is, several summed up in one
 * message, and never more than a push service carries — 4096 bytes a record with the encryption's 103
 * bytes of overhead (RFC 8291 §4, RFC 8188), whatever the length or script of the titles.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Notice } from '../../service/notification-channels.js';
import { pushPayload } from '../../service/push-channel.js';

const notice = (gameId: string | null, title: string, body = 'x'): Notice => ({
  id: randomUUID(),
  playerId: randomUUID(),
  kind: gameId ? 'your-turn' : 'round-paired',
  gameId,
  tournamentId: gameId ? null : randomUUID(),
  version: 1,
  title,
  body,
  url: gameId ? `https://arbiter.example.org/play#game=${gameId}` : 'https://arbiter.example.org/tournaments/t',
  at: new Date(0),
});

describe('pushPayload', () => {
  it('several notices about one game keep the game’s link and tag', () => {
    const g = randomUUID();
    const p = pushPayload([notice(g, 'Your move'), notice(g, 'Alice challenged')]);
    expect(p).toMatchObject({
      title: '2 updates: Alice challenged',
      url: `https://arbiter.example.org/play#game=${g}`,
      gameId: g,
      tag: `game-${g}`,
      kind: 'your-turn',
    });
  });

  it('stays within a push record however long and wide the text is', () => {
    const wide = '鷹'.repeat(5000); // 3 bytes each in UTF-8
    const one = pushPayload([notice(randomUUID(), wide, wide)]);
    const many = pushPayload(Array.from({ length: 40 }, () => notice(randomUUID(), wide, wide)));
    for (const p of [one, many]) expect(Buffer.byteLength(JSON.stringify(p))).toBeLessThanOrEqual(4096 - 103);
    expect(many.url).toBe('https://arbiter.example.org/play#games');
    expect(one.body.endsWith('…')).toBe(true);
  });
});
