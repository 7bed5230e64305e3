/**
 * `npx tsx bench/profile-top.ts <file.cpuprofile> [n]`: the n (default 5) functions with the most
 * self time in a V8 CPU profile (node --cpu-prof), as markdown rows: share of the samples, function,
 * file:line. bench/turnpath.ts writes the server's profile with BENCH_CPU_PROF=<dir>.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
}
interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export interface SelfTime {
  readonly name: string;
  readonly where: string;
  readonly ms: number;
  readonly share: number;
}

/** Self time per function (samples' time deltas summed by the node sampled, then by function and place). */
export const selfTimes = (profile: Profile): SelfTime[] => {
  const byNode = new Map<number, number>();
  profile.samples.forEach((id, i) => byNode.set(id, (byNode.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const byFunction = new Map<string, { name: string; where: string; us: number }>();
  let total = 0;
  for (const node of profile.nodes) {
    const us = byNode.get(node.id) ?? 0;
    total += us;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url ? `${url.replace(/^.*\/node_modules\//, '').replace(/^file:\/\/.*?\/(?=[^/]+\/[^/]+$)/, '')}:${lineNumber + 1}` : '';
    const key = `${functionName}@${where}`;
    const entry = byFunction.get(key) ?? { name: functionName || '(anonymous)', where, us: 0 };
    entry.us += us;
    byFunction.set(key, entry);
  }
  return [...byFunction.values()]
    .map((e) => ({ name: e.name, where: e.where, ms: e.us / 1000, share: total ? e.us / total : 0 }))
    .sort((a, b) => b.ms - a.ms);
};

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [file, n = '5'] = process.argv.slice(2);
  if (!file) throw new Error('usage: bench/profile-top.ts <file.cpuprofile> [n]');
  const top = selfTimes(JSON.parse(readFileSync(file, 'utf8')) as Profile).slice(0, Number(n));
  for (const t of top) console.log(`| ${(t.share * 100).toFixed(1)}% | ${t.ms.toFixed(0)} ms | \`${t.name}\` | ${t.where} |`);
}
