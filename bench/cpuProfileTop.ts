import fs from 'node:fs';
import path from 'node:path';

/**
 * Summary of a V8 CPU profile (`node --cpu-prof`, e.g. the real server of bench/many.bench.ts under
 * BENCH_CPU_PROF): the top self-time functions (function, file:line, ms, share of the profile)
 * and the self time per package or project folder. Run:
 * `node --import tsx bench/cpuProfileTop.ts <file.cpuprofile> [top=25]`.
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

const [file, topArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: cpuProfileTop.ts <file.cpuprofile> [top]');
  process.exit(2);
}
const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map<number, number>();
for (let i = 0; i < profile.samples.length; i += 1) selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);

/** Where a frame's code lives: a package under node_modules, a project folder, or node's own. */
function area(url: string): string {
  if (!url) return '(native / vm)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const parts = url.slice(nm + 'node_modules/'.length).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  if (url.startsWith('node:')) return 'node:' + url.slice(5).split('/')[0];
  const rel = path.relative(process.cwd(), url.replace(/^file:\/\//, ''));
  return rel.split(path.sep).slice(0, 2).join('/');
}

const fns = new Map<string, number>();
const areas = new Map<string, number>();
for (const [id, us] of selfUs) {
  const n = byId.get(id);
  if (!n) continue;
  const f = n.callFrame;
  const where = f.url ? `${f.url.replace(/^file:\/\//, '').replace(process.cwd() + '/', '')}:${f.lineNumber + 1}` : '';
  const key = `${f.functionName || '(anonymous)'} ${where}`.trim();
  fns.set(key, (fns.get(key) ?? 0) + us);
  areas.set(area(f.url), (areas.get(area(f.url)) ?? 0) + us);
}
const top = Number(topArg ?? 25);
const pct = (us: number) => ((100 * us) / total).toFixed(1);
console.log(`profile ${path.basename(file)}: ${(total / 1000).toFixed(0)} ms sampled`);
console.log('\ntop self time by function:');
for (const [k, us] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${(us / 1000).toFixed(0).padStart(7)} ms ${pct(us).padStart(5)}%  ${k}`);
console.log('\nself time by package / folder:');
for (const [k, us] of [...areas].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`  ${(us / 1000).toFixed(0).padStart(7)} ms ${pct(us).padStart(5)}%  ${k}`);
