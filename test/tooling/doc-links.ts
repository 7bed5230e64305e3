import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, isAbsolute, join, normalize, relative, sep } from 'node:path';

/**
 * Checks the manual (README.md and docs/*.md) the way a reader meets it on GitHub: every relative link leads
 * to a file, every `#anchor` to a heading, and every command it shows can be run here. Markdown is read
 * line by line (fenced code blocks and inline code spans are told apart from prose), which is all the
 * manual needs; it is not a CommonMark parser.
 */

export interface DocIssue {
  /** The Markdown file, relative to the repository root, with `/` separators. */
  readonly file: string;
  /** 1-based line of the link or command. */
  readonly line: number;
  readonly message: string;
}

export const formatIssue = (i: DocIssue): string => `${i.file}:${i.line}: ${i.message}`;

interface Line {
  readonly text: string;
  readonly line: number;
}
interface CodeBlock {
  readonly lang: string;
  readonly lines: readonly Line[];
}
interface Scanned {
  /** Prose lines (headings, paragraphs, tables) with their inline code spans intact. */
  readonly prose: readonly Line[];
  readonly blocks: readonly CodeBlock[];
}

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([\w+-]*)/;

/** Splits a Markdown text into prose lines and fenced code blocks. */
const scan = (text: string): Scanned => {
  const prose: Line[] = [];
  const blocks: CodeBlock[] = [];
  let open: { fence: string; lang: string; lines: Line[] } | null = null;
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const line = i + 1;
    const fence = FENCE.exec(raw);
    if (open) {
      const close = fence?.[1];
      if (close && close[0] === open.fence[0] && close.length >= open.fence.length && raw.trim() === close) {
        blocks.push({ lang: open.lang, lines: open.lines });
        open = null;
      } else open.lines.push({ text: raw, line });
    } else if (fence) open = { fence: fence[1]!, lang: (fence[2] ?? '').toLowerCase(), lines: [] };
    else prose.push({ text: raw, line });
  }
  // An unclosed fence runs to the end of the file, as on GitHub.
  if (open) blocks.push({ lang: open.lang, lines: open.lines });
  return { prose, blocks };
};

const CODE_SPAN = /(`+)([\s\S]*?[^`])\1(?!`)/g;

/** The inline code spans of a prose line, without their backticks. */
const codeSpans = (text: string): string[] => [...text.matchAll(CODE_SPAN)].map((m) => m[2]!.trim());

/** The prose of a line with its code spans blanked out, so that `[x](y)` inside code is not taken for a link. */
const withoutCode = (text: string): string => text.replace(CODE_SPAN, (m) => ' '.repeat(m.length));

// ---------------------------------------------------------------------------------------------
// Anchors

/**
 * The anchor GitHub gives a heading (as github-slugger does): lower case, every character that is not a
 * letter, a digit, a mark, `_`, `-` or a space removed, each space turned into `-`. Not trimmed or collapsed:
 * "Board — `engine/board.ts`" becomes `board--engineboardts`.
 */
export const slugify = (heading: string): string =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');

/** The text a heading shows: links and images by their text, code spans by their content, no emphasis or HTML. */
const headingText = (markdown: string): string =>
  markdown
    .replace(/\s+#+\s*$/, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(CODE_SPAN, (_m, _ticks: string, code: string) => code)
    .replace(/<[^>]+>/g, '')
    .replace(/\*\*|\*/g, '')
    .replace(/(^|[^\p{L}\p{N}])_([^_]+)_(?=[^\p{L}\p{N}]|$)/gu, '$1$2')
    .trim();

/** Every anchor a Markdown text offers: its headings' slugs (duplicates numbered -1, -2 …) and HTML ids. */
export const anchorsOf = (text: string): Set<string> => {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text: line } of scan(text).prose) {
    const heading = /^ {0,3}#{1,6}\s+(.*)$/.exec(line);
    if (heading) {
      const base = slugify(headingText(heading[1]!));
      let slug = base;
      let n = seen.get(base) ?? 0;
      while (anchors.has(slug)) slug = `${base}-${++n}`;
      seen.set(base, n);
      anchors.add(slug);
    }
    for (const m of withoutCode(line).matchAll(/<a\s[^>]*(?:name|id)="([^"]+)"/g)) anchors.add(m[1]!);
  }
  return anchors;
};

// ---------------------------------------------------------------------------------------------
// Links

interface Link {
  readonly target: string;
  readonly line: number;
}

/** Inline links and images `[text](target "title")`, reference definitions `[x]: target`, and `href="…"`. */
const linksOf = (text: string): Link[] => {
  const links: Link[] = [];
  for (const { text: raw, line } of scan(text).prose) {
    const prose = withoutCode(raw);
    for (const m of prose.matchAll(/\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g)) links.push({ target: m[1]!, line });
    const def = /^ {0,3}\[[^\]]+\]:\s*(\S+)/.exec(prose);
    if (def) links.push({ target: def[1]!, line });
    for (const m of prose.matchAll(/href="([^"]+)"/g)) links.push({ target: m[1]!, line });
  }
  return links;
};

const isExternal = (target: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');

const toPosix = (p: string): string => p.split(sep).join('/');

/** Where a relative link of `file` leads, as a path relative to `root`; `undefined` when it leaves the repository. */
const resolveTarget = (root: string, file: string, path: string): string | undefined => {
  const abs = path.startsWith('/') ? join(root, path) : normalize(join(root, dirname(file), path));
  const rel = relative(root, abs);
  return rel.startsWith('..') || isAbsolute(rel) ? undefined : toPosix(rel);
};

const anchorCache = new Map<string, Set<string>>();
const anchorsOfFile = (absPath: string): Set<string> => {
  let anchors = anchorCache.get(absPath);
  if (!anchors) anchorCache.set(absPath, (anchors = anchorsOf(readFileSync(absPath, 'utf8'))));
  return anchors;
};

/** A GitHub line anchor (`#L10`, `#L10-L20`), the only anchor a non-Markdown file has. */
const LINE_ANCHOR = /^L\d+(-L\d+)?$/;

/**
 * Every relative link of `files` (paths relative to `root`) that does not lead to an existing file, and every
 * `#anchor` that is not a heading of its target. http(s), mailto and other schemes are not followed.
 */
export const checkLinks = (root: string, files: readonly string[]): DocIssue[] => {
  anchorCache.clear();
  const issues: DocIssue[] = [];
  for (const file of files) {
    const abs = join(root, file);
    for (const { target: raw, line } of linksOf(readFileSync(abs, 'utf8'))) {
      const target = raw.replace(/^<|>$/g, '');
      if (isExternal(target)) continue;
      const issue = (message: string) => issues.push({ file: toPosix(file), line, message: `link "${target}": ${message}` });
      const hash = target.indexOf('#');
      const rawPath = (hash < 0 ? target : target.slice(0, hash)).replace(/\?.*$/, '');
      const anchor = hash < 0 ? null : decodeURIComponent(target.slice(hash + 1));
      const path = decodeURIComponent(rawPath);
      const resolved = path === '' ? toPosix(file) : resolveTarget(root, file, path);
      if (resolved === undefined) {
        issue('it leads outside the repository');
        continue;
      }
      const targetAbs = join(root, resolved);
      if (!existsSync(targetAbs)) {
        issue(`${resolved} does not exist`);
        continue;
      }
      if (anchor === null || anchor === '') continue;
      if (statSync(targetAbs).isDirectory() || extname(resolved).toLowerCase() !== '.md') {
        if (!LINE_ANCHOR.test(anchor)) issue(`${resolved} is not a Markdown file, so it has no heading "#${anchor}"`);
        continue;
      }
      if (!anchorsOfFile(targetAbs).has(anchor)) issue(`${resolved} has no heading whose anchor is "#${anchor}"`);
    }
  }
  return issues;
};

/** The pages of `pages` that `index` (all paths relative to `root`) does not link to. */
export const unlinkedPages = (root: string, index: string, pages: readonly string[]): DocIssue[] => {
  const linked = new Set(
    linksOf(readFileSync(join(root, index), 'utf8'))
      .map((l) => l.target.replace(/^<|>$/g, ''))
      .filter((t) => !isExternal(t))
      .map((t) => resolveTarget(root, index, decodeURIComponent(t.replace(/[#?].*$/, '')))),
  );
  return pages
    .map(toPosix)
    .filter((p) => !linked.has(p))
    .map((p) => ({ file: toPosix(index), line: 1, message: `does not link to ${p}: every page of the manual needs a line in its table` }));
};

// ---------------------------------------------------------------------------------------------
// Commands

/** What a command in the docs may name. */
export interface CommandContext {
  /** The `scripts` of package.json. */
  readonly scripts: ReadonlySet<string>;
  /** The `bin` names of package.json whose file exists. */
  readonly bins: ReadonlySet<string>;
  /** Whether `npx <name>` finds an installed binary (node_modules/.bin). */
  readonly isInstalledBin: (name: string) => boolean;
  /** The subcommands of the `arbiter` bin. */
  readonly arbiterCommands: ReadonlySet<string>;
}

/** npm's own commands (npm 10 and 11, with their aliases); `run` and the lifecycle shortcuts are checked apart. */
const NPM_BUILTINS = new Set(
  (
    'access adduser approve-scripts audit bugs cache ci clean-install cit completion config c dedupe ddp deny-scripts deprecate ' +
    'diff dist-tag docs home doctor edit exec x explain why explore find-dupes fund get help help-search init create ' +
    'install i add in ins inst insta instal isnt isnta isntal isntall install-ci-test it install-scripts install-test ' +
    'link ln ll la login logout ls list org outdated owner pack ping pkg prefix profile prune publish query rebuild rb ' +
    'repo root sbom search s se find set shrinkwrap stage star stars team token trust undeprecate uninstall remove rm r ' +
    'un unlink unpublish unstar update up upgrade version verison view v info show whoami'
  ).split(' '),
);
/** Shortcuts for `npm run <script>`: npm has defaults for some, but the manual means the project's script. */
const NPM_LIFECYCLE: Readonly<Record<string, string>> = {
  start: 'start',
  test: 'test',
  t: 'test',
  tst: 'test',
  stop: 'stop',
  restart: 'restart',
};
const NPM_RUN = new Set(['run', 'run-script', 'rum', 'urn']);

/** A placeholder the reader fills in (`…`, `<name>`, `[--json]`, `NAME`) rather than a literal word. */
const isPlaceholder = (word: string): boolean => /^(…|\.\.\.|<.*|\[.*|[A-Z][A-Z0-9_.]*…?)$/.test(word);

/** Shell words of one command line, quotes kept together, up to a `#` comment. */
const shellWords = (line: string): string[] => {
  const words: string[] = [];
  for (const m of line.matchAll(/"(?:[^"\\]|\\.)*"|'[^']*'|[^\s"']+(?:(?:"(?:[^"\\]|\\.)*"|'[^']*')[^\s"']*)*/g)) {
    if (m[0].startsWith('#')) break;
    words.push(m[0]);
  }
  return words;
};

/** The problem with one simple command (its words), or null when it is fine or not ours to check. */
const commandProblem = (words: readonly string[], ctx: CommandContext): string | null => {
  let rest = [...words];
  while (rest[0] && /^[A-Za-z_][A-Za-z0-9_]*=/.test(rest[0])) rest = rest.slice(1);
  const args = (from: number) => rest.slice(from).filter((w) => !w.startsWith('-'));
  const [tool] = rest;
  if (tool === 'npm') {
    const [sub, name] = args(1);
    if (sub === undefined || isPlaceholder(sub)) return null;
    if (NPM_RUN.has(sub)) {
      if (name === undefined || isPlaceholder(name) || ctx.scripts.has(name)) return null;
      return `package.json has no script "${name}"`;
    }
    const lifecycle = NPM_LIFECYCLE[sub];
    if (lifecycle !== undefined) return ctx.scripts.has(lifecycle) ? null : `package.json has no script "${lifecycle}" for "npm ${sub}"`;
    return NPM_BUILTINS.has(sub) ? null : `"npm ${sub}" is neither an npm command nor "npm run <script>"`;
  }
  if (tool === 'npx') {
    const [name, ...more] = args(1);
    if (name === undefined || isPlaceholder(name)) return null;
    if (ctx.bins.has(name)) return name === 'arbiter' ? commandProblem(['arbiter', ...more], ctx) : null;
    return ctx.isInstalledBin(name) ? null : `"npx ${name}" finds no bin of package.json and no installed binary`;
  }
  if (tool === 'arbiter') {
    if (!ctx.bins.has('arbiter')) return 'package.json has no bin "arbiter"';
    const [sub] = args(1);
    if (sub === undefined || isPlaceholder(sub) || ctx.arbiterCommands.has(sub)) return null;
    return `"arbiter ${sub}" is not a subcommand (arbiter has ${[...ctx.arbiterCommands].join(', ')})`;
  }
  return null;
};

/** A command line split into its simple commands (at `&&`, `||`, `;`, `|`). */
const simpleCommands = (line: string): string[][] => {
  const out: string[][] = [[]];
  for (const w of shellWords(line)) {
    if (['&&', '||', ';', '|'].includes(w)) out.push([]);
    else out[out.length - 1]!.push(w.replace(/^\(/, ''));
  }
  return out.filter((c) => c.length > 0);
};

const SHELL_LANGS = new Set(['', 'sh', 'bash', 'shell', 'console', 'zsh']);
const COMMAND_START = /^(npm|npx|arbiter)\s/;

/** The command lines of a shell block: only the `$ ` lines when it shows a session, else every line but comments and continuations. */
const blockCommands = (block: CodeBlock): Line[] => {
  const prompted = block.lines.some((l) => l.text.startsWith('$ '));
  const out: Line[] = [];
  let continued = false;
  for (const l of block.lines) {
    const text = prompted ? (l.text.startsWith('$ ') ? l.text.slice(2) : '') : continued ? '' : l.text;
    continued = l.text.trimEnd().endsWith('\\');
    if (text.trim() !== '' && !text.trim().startsWith('#')) out.push({ text: text.trim(), line: l.line });
  }
  return out;
};

/**
 * Every `npm`, `npx` and `arbiter` command that `text` shows — in shell code blocks, and in inline code spans
 * (tables included) that start with one of those words — that names a script, binary or subcommand that does
 * not exist.
 */
export const checkCommands = (file: string, text: string, ctx: CommandContext): DocIssue[] => {
  const { prose, blocks } = scan(text);
  const candidates: Line[] = [
    ...blocks.filter((b) => SHELL_LANGS.has(b.lang)).flatMap(blockCommands),
    ...prose.flatMap((l) => codeSpans(l.text).map((span) => ({ text: span.replace(/^\$ /, ''), line: l.line }))),
  ].filter((c) => COMMAND_START.test(`${c.text} `) || /^[A-Za-z_][A-Za-z0-9_]*=\S*\s+(npm|npx|arbiter)\s/.test(c.text));
  const issues: DocIssue[] = [];
  for (const c of candidates) {
    for (const words of simpleCommands(c.text)) {
      const problem = commandProblem(words, ctx);
      if (problem) issues.push({ file: toPosix(file), line: c.line, message: `command "${words.join(' ')}": ${problem}` });
    }
  }
  return issues;
};
