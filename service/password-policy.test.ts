import { describe, expect, it } from 'vitest';
import { checkNewPassword, commonPasswords } from './password-policy.js';

describe('the password policy', () => {
  it('counts characters as a person does (code points after NFC), from 8 to 200', async () => {
    expect((await checkNewPassword('seven77', 'input.newPassword')).ok).toBe(false);
    expect((await checkNewPassword('eight888x', 'f')).ok).toBe(true);
    // Seven emoji are 14 UTF-16 units but seven characters: too short.
    const short = await checkNewPassword('🂡🂢🂣🂤🂥🂦🂧', 'input.password');
    expect(short).toMatchObject({ ok: false, error: { code: 'PASSWORD_TOO_SHORT', details: { field: 'input.password', minLength: 8 } } });
    // "é" composed or decomposed is one character either way.
    expect((await checkNewPassword('cafe\u0301-bar', 'f')).ok).toBe(true);
    expect((await checkNewPassword('y'.repeat(200), 'f')).ok).toBe(true);
    expect(await checkNewPassword('y'.repeat(201), 'f')).toMatchObject({ ok: false, error: { code: 'PASSWORD_TOO_LONG' } });
  });

  it('refuses the common passwords whatever their case, and lets a passphrase through', async () => {
    const list = await commonPasswords();
    expect(list.size).toBeGreaterThan(40_000);
    for (const p of ['password', 'PassWord123', 'iloveyou1', 'qwertyuiop', 'trustno1']) {
      expect(await checkNewPassword(p, 'input.newPassword'), p).toMatchObject({
        ok: false,
        error: { code: 'PASSWORD_TOO_COMMON', details: { field: 'input.newPassword' } },
      });
    }
    for (const p of ['correct horse battery', 'alice-demo-1', 'bob-demo-1']) expect((await checkNewPassword(p, 'f')).ok, p).toBe(true);
  });

  it('loads the list once', async () => {
    expect(await commonPasswords()).toBe(await commonPasswords());
  });
});
