#!/usr/bin/env node
// Runs before `npm ci` (so it may use nothing but Node itself). It refuses a package-lock.json that a
// fresh clone cannot install: npm 11 fails with "Invalid Version:" on an entry without a version, and
// a lockfile written over an existing node_modules can omit other platforms' optional packages, which
// then break `npm ci` on the machine that needs them.
//
// Usage: node scripts/check-lockfile.mjs [path/to/package-lock.json]   (exit 0 = fine, 1 = refused)
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** Where Node's resolution would find `name` when required from the package installed at `from`. */
function resolveFrom(packages, from, name) {
  let dir = from;
  for (;;) {
    const candidate = dir ? `${dir}/node_modules/${name}` : `node_modules/${name}`;
    if (candidate in packages) return candidate;
    if (!dir) return undefined;
    const cut = dir.lastIndexOf('/node_modules/');
    dir = cut < 0 ? '' : dir.slice(0, cut);
  }
}

/** Every fault of a parsed lockfile, as human sentences; empty when it is fine. */
export function lockfileFaults(lock) {
  const faults = [];
  if (!lock || typeof lock !== 'object' || typeof lock.packages !== 'object' || lock.packages === null) {
    return ['it has no "packages" map (lockfileVersion 2 or 3 is required; write it with npm 7 or later)'];
  }
  if (lock.lockfileVersion !== 3 && lock.lockfileVersion !== 2) {
    faults.push(`lockfileVersion is ${JSON.stringify(lock.lockfileVersion)}, expected 3`);
  }
  const packages = lock.packages;
  for (const [path, entry] of Object.entries(packages)) {
    if (path === '' || entry.link) continue;
    if (typeof entry.version !== 'string' || entry.version === '') {
      faults.push(`"${path}" has no version (npm refuses it with "Invalid Version:")`);
    }
  }
  for (const [path, entry] of Object.entries(packages)) {
    if (entry.link) continue;
    for (const name of Object.keys(entry.optionalDependencies ?? {})) {
      if (!resolveFrom(packages, path, name)) {
        const owner = path === '' ? 'the project' : `"${path}"`;
        faults.push(
          `${owner} names the optional package "${name}", which the lockfile does not list (another platform's package left out)`,
        );
      }
    }
  }
  return faults;
}

function main() {
  const file = process.argv[2] ?? 'package-lock.json';
  let lock;
  try {
    lock = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    console.error(`check-lockfile: cannot read ${file}: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  }
  const faults = lockfileFaults(lock);
  if (faults.length === 0) {
    console.log(`check-lockfile: ${file} is installable (${Object.keys(lock.packages).length - 1} packages)`);
    return;
  }
  console.error(`check-lockfile: ${file} cannot be installed from a fresh clone:`);
  for (const f of faults.slice(0, 20)) console.error(`  - ${f}`);
  if (faults.length > 20) console.error(`  … and ${faults.length - 20} more`);
  console.error('Rewrite it from a clean clone with `npm run lock` (see docs/development.md).');
  process.exit(1);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
