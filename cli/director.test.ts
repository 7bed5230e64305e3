import { describe, expect, it } from 'vitest';
import { roleFor } from './director.js';
import { recordingIo } from './io.js';
import { run } from './director.js';

describe('arbiter director', () => {
  it('reads grant, grant --admin and revoke; anything else is a usage error', async () => {
    expect(roleFor(['grant', 'eve'])).toEqual({ handle: 'eve', role: 'director' });
    expect(roleFor(['grant', 'eve', '--admin'])).toEqual({ handle: 'eve', role: 'admin' });
    expect(roleFor(['revoke', 'eve'])).toEqual({ handle: 'eve', role: 'player' });
    expect(roleFor(['revoke', 'eve', '--admin'])).toBeNull();
    expect(roleFor(['grant'])).toBeNull();
    const io = recordingIo();
    expect(await run(['promote', 'eve'], io)).toBe(2);
    expect(io.stderr.join('\n')).toMatch(/usage: arbiter director/);
  });
});
