/**
 * The `arbiter` command. Each subcommand lives in its own module and exports
 * `run(args, io): Promise<number>` returning the exit code.
 */
import type { CliIo } from './io.js';
import { processIo } from './io.js';

type Command = { summary: string; load: () => Promise<{ run(args: string[], io: CliIo): Promise<number> }> };

const COMMANDS: Record<string, Command> = {
  // Subcommands register here: name → lazy module (keeps `arbiter --help` fast).
  lexicon: { summary: 'compile, list, check and upload word lists', load: () => import('./lexicon.js') },
  rules: { summary: 'print the rule-set presets and every parameter with its source', load: () => import('./rules.js') },
  replay: { summary: 'replay a GCG record and check every score against the rules', load: () => import('./replay.js') },
  adjudicate: { summary: 'answer a dispute (JSON file) under a rule set', load: () => import('./adjudicate.js') },
  director: { summary: 'make a player a director or an admin, a club or an event (on the database)', load: () => import('./director.js') },
  'jwt-secret': { summary: "rotate the local server's token-signing key", load: () => import('./jwt-secret.js') },
  'vapid-keys': { summary: "replace the local server's Web Push (VAPID) key pair", load: () => import('./vapid-keys.js') },
  moves: { summary: 'list the best moves of a position (CGP line or GCG record) by equity', load: () => import('./moves.js') },
  tournament: { summary: 'standings and pairings of a TSH .t division file, offline', load: () => import('./tournament.js') },
  render: { summary: 'draw a GCG record’s board as SVG or PNG, or its replay as a GIF', load: () => import('./render.js') },
  apps: { summary: 'register and manage your third-party OAuth apps on a server', load: () => import('./apps.js') },
};

export const usage = (): string =>
  [
    'usage: arbiter <command> [options]',
    '',
    'commands:',
    ...Object.entries(COMMANDS).map(([n, c]) => `  ${n.padEnd(12)} ${c.summary}`),
  ].join('\n');

export async function main(argv: string[], io: CliIo = processIo): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(usage());
    return name ? 0 : 2;
  }
  const cmd = COMMANDS[name];
  if (!cmd) {
    io.err(`arbiter: unknown command "${name}"\n${usage()}`);
    return 2;
  }
  return (await cmd.load()).run(rest, io);
}
