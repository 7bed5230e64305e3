import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { usage } from '../../cli/main.js';
import { anchorsOf, checkCommands, checkLinks, formatIssue, slugify, unlinkedPages, type CommandContext } from './doc-links.js';

const ROOT = process.cwd();
const MANUAL = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  bin: Record<string, string>;
};
const CONTEXT: CommandContext = {
  scripts: new Set(Object.keys(pkg.scripts)),
  bins: new Set(
    Object.entries(pkg.bin)
      .filter(([, file]) => existsSync(join(ROOT, file)))
      .map(([name]) => name),
  ),
  isInstalledBin: (name) => /^[\w@./-]+$/.test(name) && existsSync(join(ROOT, 'node_modules/.bin', name)),
  // The subcommands as `arbiter --help` lists them.
  arbiterCommands: new Set(
    usage()
      .split('\n')
      .slice(usage().split('\n').indexOf('commands:') + 1)
      .map((l) => l.trim().split(/\s+/)[0]!),
  ),
};

const commandIssues = (files: readonly string[]) =>
  files.flatMap((f) => checkCommands(f, readFileSync(join(ROOT, f), 'utf8'), CONTEXT)).map(formatIssue);

describe('the manual (README.md and docs/*.md)', () => {
  test('every relative link leads to a file and every #anchor to a heading', () => {
    expect(checkLinks(ROOT, MANUAL).map(formatIssue)).toEqual([]);
  });

  test('the README links every page of docs/', () => {
    expect(unlinkedPages(ROOT, 'README.md', MANUAL.slice(1)).map(formatIssue)).toEqual([]);
  });

  test('every npm, npx and arbiter command it shows exists', () => {
    expect(commandIssues(MANUAL)).toEqual([]);
  });

  test('the README shows the three first commands and the checks to run before a release', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    for (const command of ['npm install', 'npm start', 'npm test', 'npm run fresh-clone-check', 'npm run lint', 'npm run typecheck'])
      expect(readme, command).toContain(command);
  });
});

describe('the checker (fixtures in test/fixtures/docs/)', () => {
  const fixture = (name: string) => `test/fixtures/docs/${name}`;

  test.each([
    ['Board — `engine/board.ts`', 'board--engineboardts'],
    ["What's *new*? (v2.0) & more", 'whats-new-v20--more'],
    ['The `arbiter` command', 'the-arbiter-command'],
    ['Correspondence games: time, deadlines, pauses', 'correspondence-games-time-deadlines-pauses'],
    ['Pauses (vacation)', 'pauses-vacation'],
    ['Identity: name + hash', 'identity-name--hash'],
    ['snake_case stays', 'snake_case-stays'],
  ])('slugs "%s" as GitHub does: %s', (heading, slug) => {
    expect(slugify(heading.replace(/`|\*/g, ''))).toBe(slug);
    expect(anchorsOf(`## ${heading}\n`)).toEqual(new Set([slug]));
  });

  test('numbers repeated headings and skips headings inside code blocks', () => {
    expect([...anchorsOf('# A\n## A\n```sh\n# A comment, not a heading\n```\n## A\n')]).toEqual(['a', 'a-1', 'a-2']);
  });

  test('passes a page that uses every allowed form', () => {
    expect(checkLinks(ROOT, [fixture('good.md'), fixture('other.md')]).map(formatIssue)).toEqual([]);
    expect(commandIssues([fixture('good.md')])).toEqual([]);
  });

  test('reports a link to a missing file and one that leaves the repository', () => {
    expect(checkLinks(ROOT, [fixture('broken-link.md')]).map(formatIssue)).toEqual([
      'test/fixtures/docs/broken-link.md:3: link "no-such-page.md": test/fixtures/docs/no-such-page.md does not exist',
      'test/fixtures/docs/broken-link.md:3: link "../../../../elsewhere.md": it leads outside the repository',
    ]);
  });

  test('reports anchors that match no heading, in the same file, another page, or a non-Markdown file', () => {
    expect(checkLinks(ROOT, [fixture('broken-anchor.md')]).map(formatIssue)).toEqual([
      'test/fixtures/docs/broken-anchor.md:5: link "#absent": test/fixtures/docs/broken-anchor.md has no heading whose anchor is "#absent"',
      'test/fixtures/docs/broken-anchor.md:6: link "other.md#no-such-section": test/fixtures/docs/other.md has no heading whose anchor is "#no-such-section"',
      'test/fixtures/docs/broken-anchor.md:6: link "../../../package.json#scripts": package.json is not a Markdown file, so it has no heading "#scripts"',
    ]);
  });

  test('reports unknown scripts, npm commands, binaries and arbiter subcommands', () => {
    expect(commandIssues([fixture('unknown-script.md')])).toEqual([
      'test/fixtures/docs/unknown-script.md:4: command "npm run no-such-script": package.json has no script "no-such-script"',
      'test/fixtures/docs/unknown-script.md:7: command "npm frobnicate": "npm frobnicate" is neither an npm command nor "npm run <script>"',
      'test/fixtures/docs/unknown-script.md:7: command "npx no-such-binary --help": "npx no-such-binary" finds no bin of package.json and no installed binary',
      `test/fixtures/docs/unknown-script.md:7: command "npx arbiter frobnicate": "arbiter frobnicate" is not a subcommand (arbiter has ${[...CONTEXT.arbiterCommands].join(', ')})`,
    ]);
  });

  test('reports a page the index does not link', () => {
    expect(unlinkedPages(ROOT, fixture('good.md'), [fixture('other.md'), fixture('broken-link.md')]).map(formatIssue)).toEqual([
      'test/fixtures/docs/good.md:1: does not link to test/fixtures/docs/broken-link.md: every page of the manual needs a line in its table',
    ]);
  });
});
