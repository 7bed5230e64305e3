import { describe, expect, it } from 'vitest';
import { organizationCommandFor, roleFor } from './director.js';
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

describe('arbiter director for clubs and events', () => {
  it('reads create, list, and grant/revoke with --club or --event; a missing name is no such command', () => {
    expect(organizationCommandFor(['create', '--club', 'Riverside'])).toEqual({ kind: 'create', org: 'club', name: 'Riverside' });
    expect(organizationCommandFor(['list'])).toEqual({ kind: 'list' });
    expect(organizationCommandFor(['grant', 'dee', '--event', 'Nationals 2026'])).toEqual({
      kind: 'grant',
      handle: 'dee',
      grant: true,
      org: 'event',
      name: 'Nationals 2026',
    });
    expect(organizationCommandFor(['revoke', 'dee', '--club', 'Riverside'])).toMatchObject({ kind: 'grant', grant: false, org: 'club' });
    expect(organizationCommandFor(['grant', 'dee', '--club'])).toBeNull();
    expect(organizationCommandFor(['create', '--team', 'X'])).toBeNull();
    // The global forms are not organization commands.
    expect(organizationCommandFor(['grant', 'dee', '--admin'])).toBeNull();
    expect(organizationCommandFor(['grant', 'dee'])).toBeNull();
  });
});
