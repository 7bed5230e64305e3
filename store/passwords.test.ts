import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './passwords.js';

const FAST = { N: 1024, r: 8, p: 1 };

describe('passwords', () => {
  it('stores scheme, parameters, salt and hash, and verifies only the right password', async () => {
    const stored = await hashPassword('correct horse', FAST);
    expect(stored).toMatch(/^scrypt\$N=1024,r=8,p=1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    expect(await verifyPassword('correct horse', stored)).toBe(true);
    expect(await verifyPassword('correct horsE', stored)).toBe(false);
  });

  it('salts each hash', async () => {
    expect(await hashPassword('same', FAST)).not.toBe(await hashPassword('same', FAST));
  });

  it('treats composed and decomposed accents as the same password', async () => {
    const stored = await hashPassword('caf\u00e9', FAST);
    expect(await verifyPassword('cafe\u0301', stored)).toBe(true);
  });

  it.each(['', 'bcrypt$x', 'scrypt$N=1024,r=8,p=1$c2FsdA==$c2hvcnQ='])('rejects the malformed hash %j', async (stored) => {
    expect(await verifyPassword('anything', stored)).toBe(false);
  });
});
