/**
 * Native modules for the Lambda bundles. The functions run on linux-arm64 (glibc), which is rarely the
 * machine that builds them: npm installs only the build machine's prebuilt package of @resvg/resvg-js.
 * This puts the package the Lambda needs next to the bundle, at the version package-lock.json pins:
 * from node_modules when it is installed there, otherwise fetched once with `npm pack` (the ordinary
 * registry client) into node_modules/.cache/arbiter-native/, its sha512 checked against the lockfile's
 * `integrity`, and unpacked.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** The Lambda's platform (infra/constructs/function.ts: ARM_64 on Amazon Linux, glibc). */
export const LAMBDA_PLATFORM = 'linux-arm64-gnu';

/** A package that loads a prebuilt binary, and its binary package for the Lambda's platform. */
export interface NativePackage {
  readonly name: string;
  readonly binary: string;
  /** The binary inside the platform package. */
  readonly file: string;
}

export const RESVG: NativePackage = {
  name: '@resvg/resvg-js',
  binary: `@resvg/resvg-js-${LAMBDA_PLATFORM}`,
  file: `resvgjs.${LAMBDA_PLATFORM}.node`,
};

interface LockEntry {
  readonly version: string;
  readonly integrity?: string;
}

const lockEntry = (root: string, name: string): LockEntry => {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const entry = lock.packages[`node_modules/${name}`];
  if (!entry) throw new Error(`build: package-lock.json does not list ${name}: run \`npm run lock\``);
  return entry;
};

const sha512 = (file: string): string => `sha512-${createHash('sha512').update(readFileSync(file)).digest('base64')}`;

/** The platform package's folder: installed, or unpacked from the registry's tarball (cached). */
const binaryPackageDir = (root: string, pkg: NativePackage): string => {
  const installed = join(root, 'node_modules', pkg.binary);
  const entry = lockEntry(root, pkg.binary);
  if (existsSync(join(installed, pkg.file))) return installed;
  const cache = join(root, 'node_modules', '.cache', 'arbiter-native');
  const unpacked = join(cache, `${pkg.binary.replace('/', '+')}@${entry.version}`);
  if (existsSync(join(unpacked, pkg.file))) return unpacked;
  mkdirSync(cache, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const tgz = execFileSync(npm, ['pack', `${pkg.binary}@${entry.version}`, '--pack-destination', cache, '--silent'], {
    cwd: cache,
    encoding: 'utf8',
  })
    .trim()
    .split('\n')
    .pop()!;
  const tarball = join(cache, tgz);
  if (entry.integrity && sha512(tarball) !== entry.integrity) {
    rmSync(tarball, { force: true });
    throw new Error(`build: ${tgz} does not match the integrity package-lock.json records for ${pkg.binary}`);
  }
  rmSync(unpacked, { recursive: true, force: true });
  mkdirSync(unpacked, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1']);
  rmSync(tarball, { force: true });
  if (!existsSync(join(unpacked, pkg.file))) throw new Error(`build: ${pkg.binary} has no ${pkg.file}`);
  return unpacked;
};

/**
 * Copies `pkg` (its JavaScript loader) and its Lambda platform package into `<outdir>/node_modules/`,
 * where Node finds them from the bundle (which leaves `pkg` external). Returns the binary's path.
 */
export const copyNativePackage = (root: string, outdir: string, pkg: NativePackage): string => {
  const loader = join(root, 'node_modules', pkg.name);
  const target = join(outdir, 'node_modules');
  for (const f of readdirSync(loader)) {
    if (f.endsWith('.node') || f === 'node_modules') continue; // another platform's binary left by a local build
    cpSync(join(loader, f), join(target, pkg.name, f), { recursive: true });
  }
  cpSync(binaryPackageDir(root, pkg), join(target, pkg.binary), { recursive: true });
  return join(target, pkg.binary, pkg.file);
};

/** The machine a binary was built for, read from its ELF header (`e_machine`): 'arm64', 'x64' or another. */
export const elfMachine = (file: string): string => {
  const head = readFileSync(file).subarray(0, 20);
  if (head.subarray(0, 4).toString('latin1') !== '\x7fELF') return 'not ELF';
  const machine = head.readUInt16LE(18);
  return machine === 183 ? 'arm64' : machine === 62 ? 'x64' : `machine ${machine}`;
};
