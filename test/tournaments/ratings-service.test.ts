/**
 * A division's rating system through the service (issue 33, item 2), on PGlite and on Postgres: kept in the
 * division's spec (default glicko2), and an unknown name refused as BAD_INPUT naming the field, whether the
 * division comes with a new tournament or as an `add-division` command, with nothing written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTournament } from '../../service/tournaments.js';
import type { PlayerRow } from '../../store/players.js';
import { command, openSuite, STORE_TARGETS, value, written, type Suite } from './fixture.js';

describe.each(STORE_TARGETS)('a division’s rating system in the service on $kind', (target) => {
  let s: Suite;
  let td: PlayerRow;
  let eventId: string;

  beforeAll(async () => {
    s = await openSuite(target);
    td = await s.player('ratingtd');
    eventId = await s.organization('Rated Saturday 2027', [td]);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('defaults to glicko2, keeps naspa, refuses another name by field and writes nothing', async () => {
    const before = await written(s);
    const bad = await createTournament(s.deps, td.id, {
      organizationId: eventId,
      name: 'X',
      divisions: [{ name: 'A', rounds: 2, ratingSystem: 'elo' }],
    });
    expect(bad.ok ? null : [bad.error.code, bad.error.details?.['field']]).toEqual(['BAD_INPUT', 'divisions[0].ratingSystem']);
    expect(await written(s)).toEqual(before);

    const view = value(
      await createTournament(s.deps, td.id, {
        organizationId: eventId,
        name: 'Rated',
        divisions: [
          { name: 'A', rounds: 2 },
          { name: 'N', rounds: 2, ratingSystem: 'naspa' },
        ],
      }),
    );
    expect(view.state.divisions.map((d) => d.spec.ratingSystem)).toEqual(['glicko2', 'naspa']);

    const after = await written(s);
    const spec = { ...view.state.divisions[0]!.spec, name: 'Z', ratingSystem: 'elo' };
    const refused = await command(s, td, view.id, { type: 'add-division', spec });
    expect(refused.ok ? null : [refused.error.code, refused.error.details?.['field']]).toEqual(['BAD_INPUT', 'spec.ratingSystem']);
    expect(await written(s)).toEqual(after);
    const added = value(await command(s, td, view.id, { type: 'add-division', spec: { ...spec, ratingSystem: 'naspa' } }));
    expect(added.state.divisions.map((d) => [d.spec.name, d.spec.ratingSystem])).toContainEqual(['Z', 'naspa']);
  });
});
