import { execFileSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';

const script = 'scripts/check-lockfile.mjs';
const fixture = (name: string) => `test/fixtures/lockfiles/${name}`;

/** Runs the checker as CI does (a separate Node, before any install) and returns its exit code and output. */
function check(file: string): { code: number; output: string } {
  try {
    const out = execFileSync(process.execPath, [script, file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return { code: 0, output: out };
  } catch (e) {
    const err = e as { status: number; stdout: string; stderr: string };
    return { code: err.status, output: `${err.stdout}${err.stderr}` };
  }
}

describe('scripts/check-lockfile.mjs', () => {
  test('passes the project lockfile', () => {
    const r = check('package-lock.json');
    expect(r.code).toBe(0);
    expect(r.output).toMatch(/is installable \(\d+ packages\)/);
  });

  test('passes a small lockfile with platform packages and a link', () => {
    expect(check(fixture('good.json')).code).toBe(0);
  });

  test.each([
    ['version-missing.json', /"node_modules\/rollup\/node_modules\/@rollup\/rollup-win32-x64-msvc" has no version/],
    ['platform-missing.json', /names the optional package "@esbuild\/darwin-arm64", which the lockfile does not list/],
    ['no-packages.json', /has no "packages" map/],
    ['truncated.json', /cannot read .*truncated\.json/],
    ['does-not-exist.json', /cannot read .*does-not-exist\.json/],
  ])('refuses %s with a clear message', (name, message) => {
    const r = check(fixture(name));
    expect(r.code).toBe(1);
    expect(r.output).toMatch(message);
  });

  test('the refusal tells how to rewrite the lockfile', () => {
    expect(check(fixture('platform-missing.json')).output).toContain('npm run lock');
  });
});

describe('scripts/check-engine.cjs (preinstall)', () => {
  const run = (env: Record<string, string>) => {
    try {
      execFileSync(process.execPath, ['scripts/check-engine.cjs'], {
        env: { ...process.env, ...env },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      return { code: 0, output: '' };
    } catch (e) {
      const err = e as { status: number; stderr: string };
      return { code: err.status, output: err.stderr };
    }
  };
  test('accepts this Node and npm 11', () => {
    expect(run({ npm_config_user_agent: 'npm/11.19.1 node/v20.20.2 linux x64' }).code).toBe(0);
  });
  test('refuses npm 9 in one sentence naming the engines field', () => {
    const r = run({ npm_config_user_agent: 'npm/9.8.1 node/v20.20.2 linux x64' });
    expect(r.code).toBe(1);
    expect(r.output).toContain('npm 9 is too old: use npm 10 or later');
  });
  test.each(['18.20.4', '20.11.0', '21.7.3', '23.1.0'])('refuses Node %s, naming the versions that work', (version) => {
    const r = run({ ARBITER_CHECK_NODE_VERSION: version });
    expect(r.code).toBe(1);
    expect(r.output).toContain(`Node ${version} is`);
    expect(r.output).toContain('^20.19.0 || ^22.12.0');
  });
  test.each(['20.19.0', '22.12.0', '22.21.1'])('accepts Node %s', (version) => {
    expect(run({ ARBITER_CHECK_NODE_VERSION: version }).code).toBe(0);
  });
  test('can be overridden on purpose', () => {
    expect(run({ npm_config_user_agent: 'npm/9.8.1 node/v20.20.2 linux x64', ARBITER_SKIP_ENGINE_CHECK: '1' }).code).toBe(0);
  });
});
