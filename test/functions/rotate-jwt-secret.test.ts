/** The JWT key's rotation function (functions/rotate-jwt-secret.ts) against a fake Secrets Manager. */
import { describe, expect, it } from 'vitest';
import { rotate, type RotationClient, type RotationEvent } from '../../functions/rotate-jwt-secret.js';

const ID = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:jwt';

/** Versions and their stages, values by version, as Secrets Manager keeps them. */
const fakeManager = (rotationEnabled = true) => {
  const versions: Record<string, string[]> = { v1: ['AWSCURRENT'] };
  const values: Record<string, string> = { v1: 'old-key' };
  let keys = 0;
  const client: RotationClient = {
    describe: async () => ({ rotationEnabled, versions: structuredClone(versions) }),
    hasPendingValue: async (_id, token) => token in values && versions[token]?.includes('AWSPENDING') === true,
    randomKey: async () => `new-key-${++keys}`,
    putPending: async (_id, token, value) => {
      values[token] = value;
      versions[token] = ['AWSPENDING'];
    },
    moveCurrent: async (_id, to, from) => {
      for (const stages of Object.values(versions)) stages.splice(0, stages.length, ...stages.filter((s) => s !== 'AWSPREVIOUS'));
      if (from) versions[from] = ['AWSPREVIOUS'];
      versions[to] = ['AWSCURRENT'];
    },
  };
  // What Secrets Manager does before calling the function: a new version id, staged AWSPENDING.
  const start = (token: string) => {
    versions[token] = ['AWSPENDING'];
  };
  return { client, versions, values, start, keys: () => keys };
};

const step = (Step: RotationEvent['Step'], token = 'v2'): RotationEvent => ({ SecretId: ID, ClientRequestToken: token, Step });
const quiet = () => undefined;

describe('rotating the JWT key', () => {
  it('runs the four steps: a new random key becomes current, the old one previous', async () => {
    const m = fakeManager();
    m.start('v2');
    for (const s of ['createSecret', 'setSecret', 'testSecret', 'finishSecret'] as const) await rotate(m.client, step(s), quiet);
    expect(m.versions).toEqual({ v1: ['AWSPREVIOUS'], v2: ['AWSCURRENT'] });
    expect(m.values['v2']).toBe('new-key-1');
  });

  it('is safe to retry: createSecret keeps the first key, finishSecret does nothing the second time', async () => {
    const m = fakeManager();
    m.start('v2');
    await rotate(m.client, step('createSecret'), quiet);
    await rotate(m.client, step('createSecret'), quiet);
    expect(m.keys()).toBe(1);
    await rotate(m.client, step('finishSecret'), quiet);
    await rotate(m.client, step('finishSecret'), quiet);
    expect(m.versions).toEqual({ v1: ['AWSPREVIOUS'], v2: ['AWSCURRENT'] });
  });

  it.each([
    ['rotation is not enabled', false, 'v2', /does not have rotation enabled/],
    ['the version is unknown', true, 'v9', /has no version v9/],
  ])('refuses when %s', async (_, enabled, token, message) => {
    const m = fakeManager(enabled);
    m.start('v2');
    await expect(rotate(m.client, step('createSecret', token), quiet)).rejects.toThrow(message);
  });
});
