#!/usr/bin/env node
// `npm run lock`: rewrites package-lock.json the one way a fresh clone can install it — from package.json
// alone, in an empty folder (no node_modules, no old lock), with this machine's own npm. Over an existing
// node_modules npm leaves other platforms' optional packages out of the lock, and then refuses it.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'arbiter-lock-'));
try {
  copyFileSync(join(root, 'package.json'), join(work, 'package.json'));
  if (existsSync(join(root, '.npmrc'))) copyFileSync(join(root, '.npmrc'), join(work, '.npmrc'));
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  console.log(`npm ${execFileSync(npm, ['--version'], { encoding: 'utf8' }).trim()}: writing the lockfile in ${work}`);
  execFileSync(npm, ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: work, stdio: 'inherit' });
  execFileSync(process.execPath, [join(root, 'scripts/check-lockfile.mjs'), join(work, 'package-lock.json')], { stdio: 'inherit' });
  copyFileSync(join(work, 'package-lock.json'), join(root, 'package-lock.json'));
  console.log('package-lock.json rewritten; run `npm ci` to install from it.');
} finally {
  rmSync(work, { recursive: true, force: true });
}
