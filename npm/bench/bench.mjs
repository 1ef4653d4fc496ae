// Throughput of the npm package against the JavaScript JCS libraries, strings in and out.
//
//   node npm/bench/bench.mjs [--samples N] [--package DIR] [FILE.json... | DIR]
//
// Default files: ../shared/bench-data/*.json relative to the repository (canada, citm,
// twitter). Every contender turns the same JSON text into its canonical string:
//   equijson             canonicalize(text)
//   canonicalize@5       canonicalize(JSON.parse(text))
//   json-canonicalize@3  canonicalize(JSON.parse(text))
// plus, for reference, JSON.stringify(JSON.parse(text)) (no sorting: not canonical) and
// equijson's other entry points. Outputs are checked equal before timing. Samples are
// interleaved (each round runs every contender, in a rotating order) so that machine
// noise hits all alike; the table gives medians (MB/s of input) and ratios.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import canonicalize5 from 'canonicalize';
import { canonicalize as jcsCanonicalize } from 'json-canonicalize';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..');
const args = process.argv.slice(2);
let samples = 21;
let pkgDir = join(repo, 'target', 'npm', 'package');
const inputs = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--samples') samples = Number(args[++i]);
  else if (args[i] === '--package') pkgDir = resolve(args[++i]);
  else inputs.push(resolve(args[i]));
}
if (!Number.isInteger(samples) || samples < 1) {
  console.error('bench: --samples takes a positive integer');
  process.exit(2);
}
if (inputs.length === 0) inputs.push(resolve(repo, '..', 'shared', 'bench-data'));
for (const p of inputs) {
  try {
    statSync(p);
  } catch {
    console.error(`bench: ${p} not found (the benchmark files live in ../shared/bench-data next to the repository)`);
    process.exit(2);
  }
}
const files = inputs.flatMap((p) =>
  statSync(p).isDirectory()
    ? readdirSync(p)
        .filter((f) => f.endsWith('.json'))
        .sort()
        .map((f) => join(p, f))
    : [p],
);
if (files.length === 0) {
  console.error(`bench: no .json files in ${inputs.join(', ')}`);
  process.exit(2);
}

const equijson = (await import(join(pkgDir, 'dist', 'node', 'index.mjs'))).default;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Seconds per call of `fn` over `reps` calls: wall clock, and CPU time of the process. */
function sample(fn, reps) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < reps; i++) fn();
  const wall = (performance.now() - t0) / 1000 / reps;
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) / 1e6 / reps };
}

console.log(`node ${process.version}, ${samples} interleaved samples per contender and file, medians`);
const rows = [];
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const bytes = readFileSync(file);
  const contenders = [
    ['equijson', () => equijson.canonicalize(text)],
    ['canonicalize@5', () => canonicalize5(JSON.parse(text))],
    ['json-canonicalize@3', () => jcsCanonicalize(JSON.parse(text))],
    ['JSON.stringify(JSON.parse)', () => JSON.stringify(JSON.parse(text))],
    ['equijson canonicalizeValue(JSON.parse)', () => equijson.canonicalizeValue(JSON.parse(text))],
    ['equijson canonicalizeBytes', () => equijson.canonicalizeBytes(bytes)],
  ];
  // Same output everywhere (the JSON.stringify reference is not sorted, so it is skipped).
  const want = equijson.canonicalize(text);
  for (const [name, fn] of contenders) {
    if (name.startsWith('JSON.stringify')) continue;
    let got = fn();
    if (got instanceof Uint8Array) got = Buffer.from(got).toString('utf8');
    if (got !== want) {
      console.error(`bench: ${name} disagrees with equijson on ${basename(file)}`);
      process.exit(1);
    }
  }
  // Calibrate: repetitions per sample so that one sample takes about 40 ms.
  const reps = contenders.map(([, fn]) => {
    for (let i = 0; i < 3; i++) fn();
    const once = sample(fn, 1).wall;
    return Math.max(1, Math.round(0.04 / Math.max(once, 1e-6)));
  });
  const times = contenders.map(() => []);
  const cpus = contenders.map(() => []);
  for (let r = 0; r < samples; r++) {
    for (let k = 0; k < contenders.length; k++) {
      const j = (k + r) % contenders.length;
      const t = sample(contenders[j][1], reps[j]);
      times[j].push(t.wall);
      cpus[j].push(t.cpu);
    }
  }
  const mbs = times.map((t) => bytes.length / median(t) / 1e6);
  // CPU time counts every thread of the process (the GC's helpers too).
  const cpuRatio = median(cpus[1]) / median(cpus[0]);
  rows.push({ file: basename(file), size: bytes.length, names: contenders.map(([n]) => n), mbs, cpuRatio });
}

const fmt = (x) => x.toFixed(1);
const names = rows[0].names;
console.log(
  `\n| file | ${names.join(' | ')} | equijson / canonicalize@5 | equijson / json-canonicalize@3 | same, CPU time: equijson / canonicalize@5 |`,
);
console.log(`|---|${names.map(() => '---:').join('|')}|---:|---:|---:|`);
let met = true;
for (const r of rows) {
  const ratio5 = r.mbs[0] / r.mbs[1];
  const ratioJ = r.mbs[0] / r.mbs[2];
  met &&= ratio5 >= 2;
  const mb = (r.size / 1e6).toFixed(1);
  console.log(
    `| ${r.file} (${mb} MB) | ${r.mbs.map(fmt).join(' | ')} | ${ratio5.toFixed(2)}x | ${ratioJ.toFixed(2)}x | ${r.cpuRatio.toFixed(2)}x |`,
  );
}
console.log(
  `\nMB/s of input text (wall clock). Target (>= 2x canonicalize@5 on every file, wall clock): ${met ? 'met' : 'NOT met'}.`,
);
