/**
 * The curl examples of a manual page, run as written — by curl, through bash, in order — against a live
 * HTTP server. The line after each command, `# → <status> [NAME=.json.path | NAME=@header …]`, is what it
 * must answer and what later commands take from the answer (as shell variables). A line `# at <ISO time>`
 * before a command sets the server's clock first (pages whose story depends on the time: tournaments).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';

export interface CurlExample {
  readonly command: string;
  readonly status: number;
  readonly captures: readonly { name: string; from: string }[];
  /** The server's clock for this command, when a `# at` line set it. */
  readonly at: Date | null;
}

/** The curl commands of the shell blocks of a page, each with the `# →` line after it. */
export const curlExamples = (markdown: string, page = 'the page'): CurlExample[] => {
  const blocks = [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!.replace(/\\\n\s*/g, ''));
  const out: CurlExample[] = [];
  let at: Date | null = null;
  for (const block of blocks) {
    const lines = block.split('\n').filter((l) => l.trim());
    lines.forEach((line, i) => {
      const clock = /^# at (\S+)/.exec(line);
      if (clock) at = new Date(clock[1]!);
      if (!line.startsWith('curl ')) return;
      const expect = /^# → (\d{3})((?: \w+=\S+)*)\s*$/.exec(lines[i + 1] ?? '');
      if (!expect) throw new Error(`${page}: no "# → <status>" line after: ${line}`);
      const captures = expect[2]!
        .trim()
        .split(' ')
        .filter(Boolean)
        .map((c) => ({ name: c.split('=')[0]!, from: c.slice(c.indexOf('=') + 1) }));
      out.push({ command: line, status: Number(expect[1]), captures, at });
    });
  }
  return out;
};

const run = promisify(execFile);

/**
 * Runs `examples` in order against `base` (host:port), each answering its status; captures become shell
 * variables of the commands after it (numbers as their text). Returns the variables, for checks after.
 */
export const runCurlExamples = async (
  examples: readonly CurlExample[],
  base: string,
  dir: string,
  options: { readonly vars?: Record<string, string>; readonly setNow?: (at: Date) => void } = {},
): Promise<Record<string, string>> => {
  // Filled in place, so a caller sees what was captured before a failure too.
  const vars: Record<string, string> = options.vars ?? {};
  for (const example of examples) {
    if (example.at && options.setNow) options.setNow(example.at);
    const command = example.command.replaceAll('localhost:4000', base).replace(/^curl -i /, 'curl ');
    const body = join(dir, 'body');
    const headers = join(dir, 'headers');
    // Not execFileSync: the server answers from this very process.
    const { stdout: status } = await run('bash', ['-c', `${command} -s -o ${body} -D ${headers} -w '%{http_code}'`], {
      env: { PATH: process.env['PATH'], ...vars },
      encoding: 'utf8',
    });
    const text = readFileSync(body, 'utf8');
    expect(Number(status), `${example.command}\n${text}`).toBe(example.status);
    for (const { name, from } of example.captures) {
      const raw = from.startsWith('@')
        ? new RegExp(`^${from.slice(1)}: (.*)$`, 'im').exec(readFileSync(headers, 'utf8'))?.[1]?.trim()
        : from
            .slice(1)
            .split('.')
            .reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], JSON.parse(text));
      const value = typeof raw === 'number' ? String(raw) : raw;
      expect(value, `${name} from ${from} of ${example.command}\n${text}`).toBeTypeOf('string');
      vars[name] = value as string;
    }
  }
  return vars;
};
