/**
 * `Db.prisma` as a stand-in made on first use (store/prisma-client.ts), over a fake client: nothing is made
 * until a call, a call before the client exists reaches it with its arguments and `this`, a failed making is
 * tried again, and closing disconnects only a client that was made.
 */
import { describe, expect, it } from 'vitest';
import type { PrismaClient } from '../../generated/prisma/client.js';
import { lazyPrisma } from '../../store/prisma-client.js';

const fakeClient = () => {
  const calls: unknown[][] = [];
  const client = {
    player: {
      rows: ['ann'],
      findMany(this: { rows: string[] }, args: unknown) {
        calls.push(['player.findMany', args]);
        return Promise.resolve(this.rows);
      },
    },
    $queryRaw(strings: TemplateStringsArray, ...values: unknown[]) {
      calls.push(['$queryRaw', strings.join('?'), ...values]);
      return Promise.resolve([{ one: 1 }]);
    },
  };
  return { client: client as unknown as PrismaClient, calls };
};

describe('lazyPrisma', () => {
  it('makes nothing until the first call, then passes calls (templates too) to the one client it made', async () => {
    const fake = fakeClient();
    let made = 0;
    const lazy = lazyPrisma(async () => {
      made += 1;
      return fake.client;
    });
    const delegate = lazy.client.player; // reaching a member calls nothing
    expect(made).toBe(0);
    expect(await lazy.made()).toBeNull();
    expect(await delegate.findMany({ where: { handle: 'ann' } })).toEqual(['ann']);
    expect(await lazy.client.$queryRaw`SELECT ${1} AS one`).toEqual([{ one: 1 }]);
    expect(made).toBe(1);
    expect(fake.calls).toEqual([
      ['player.findMany', { where: { handle: 'ann' } }],
      ['$queryRaw', 'SELECT ? AS one', 1],
    ]);
    // Once made, members are the client's own.
    expect(lazy.client.player).toBe((fake.client as unknown as { player: unknown }).player);
    expect(await lazy.made()).toBe(fake.client);
  });

  it('tries a failed making again on the next call', async () => {
    const fake = fakeClient();
    let attempts = 0;
    const lazy = lazyPrisma(async () => {
      attempts += 1;
      if (attempts === 1) throw new Error('chunk not found');
      return fake.client;
    });
    await expect(lazy.client.player.findMany()).rejects.toThrow('chunk not found');
    expect(await lazy.made()).toBeNull();
    expect(await lazy.client.player.findMany()).toEqual(['ann']);
    expect(attempts).toBe(2);
  });

  it('is not a thenable: awaiting the stand-in makes nothing', async () => {
    let made = 0;
    const lazy = lazyPrisma(async () => {
      made += 1;
      return fakeClient().client;
    });
    expect(await Promise.resolve(lazy.client)).toBe(lazy.client);
    expect(made).toBe(0);
  });
});
