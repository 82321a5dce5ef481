#!/usr/bin/env node
// `npm test`: every check, in order, even after a failure; ends with one `N passed, N failed` line
// that totals every runner (lint and typecheck count as one check each, the build as one).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const reports = path.join(root, '.test-reports');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', FORCE_COLOR: process.env.FORCE_COLOR ?? '0' };

function run(title, command, args, extraEnv = {}) {
  console.info(`\n=== ${title}: ${[path.basename(command), ...args].join(' ')}`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...env, ...extraEnv } });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.info(`=== ${title}: exit ${result.status ?? result.signal} in ${seconds}s`);
  return result.status === 0;
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

const rows = [];
function check(name, ok) {
  rows.push({ name, passed: ok ? 1 : 0, failed: ok ? 0 : 1, skipped: 0 });
}

check('lint', run('lint', bin('eslint'), ['--max-warnings', '0', '.']));
check('format', run('format', bin('prettier'), ['--check', '--log-level', 'warn', '.']));
check('typecheck', run('typecheck', bin('next'), ['typegen']) && run('typecheck', bin('tsc'), ['--noEmit']));

// The build comes before Vitest: test/integration/image.test.ts runs its standalone output.
const buildOk = run('build', bin('next'), ['build']);
check('build', buildOk);

const vitestOut = path.join(reports, 'vitest.json');
const vitestOk = run('unit and integration (vitest)', bin('vitest'), [
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile=${vitestOut}`,
]);
const vitest = readJson(vitestOut);
if (vitest) {
  rows.push({
    name: 'vitest',
    passed: vitest.numPassedTests,
    failed: vitest.numFailedTests + (vitestOk || vitest.numFailedTests > 0 ? 0 : 1),
    skipped: vitest.numPendingTests + vitest.numTodoTests,
  });
} else {
  rows.push({ name: 'vitest', passed: 0, failed: 1, skipped: 0 });
}

if (buildOk) {
  const pwOut = path.join(reports, 'playwright.json');
  const pwOk = run('e2e (playwright)', bin('playwright'), ['test'], { PLAYWRIGHT_JSON_OUTPUT_NAME: pwOut });
  const pw = readJson(pwOut);
  if (pw?.stats) {
    const failed = pw.stats.unexpected + (pwOk || pw.stats.unexpected > 0 ? 0 : 1);
    rows.push({ name: 'e2e', passed: pw.stats.expected + pw.stats.flaky, failed, skipped: pw.stats.skipped });
  } else {
    rows.push({ name: 'e2e', passed: 0, failed: 1, skipped: 0 });
  }
} else {
  rows.push({ name: 'e2e (not run: build failed)', passed: 0, failed: 1, skipped: 0 });
}

// The names of what failed, just above the summary: CI keeps only the end of a long log.
const failures = [];
/** The first lines of a failure message, indented, without colour codes. */
function excerpt(message, lines = 12) {
  if (!message) return [];
  const plain = String(message).replace(/\u001b\[[0-9;]*m/g, '');
  return plain
    .split('\n')
    .slice(0, lines)
    .map((l) => `    ${l.slice(0, 300)}`);
}
function vitestFailures(report, label) {
  for (const file of report?.testResults ?? []) {
    const failed = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
    for (const t of failed) {
      failures.push(`${label}  ${path.relative(root, file.name)} > ${t.fullName}`);
      // The reason too: a failure in the Node matrix ran first and its own output is long gone from CI's tail.
      failures.push(...excerpt(t.failureMessages?.[0]));
    }
    if (file.status === 'failed' && failed.length === 0)
      failures.push(`${label}  ${path.relative(root, file.name)}: ${String(file.message || 'failed to run').split('\n')[0]}`);
  }
}
vitestFailures(vitest, 'vitest');
// .ci/run runs the Vitest suites on the other Node majors first (scripts/node-matrix.sh) and points here at
// their reports, so that this summary, the end of the log, says how those went too.
const matrixDir = process.env.NODE_MATRIX_REPORTS;
if (matrixDir) {
  const files = existsSync(matrixDir) ? readdirSync(matrixDir).filter((f) => f.endsWith('.json')) : [];
  if (files.length === 0) rows.push({ name: 'vitest on other Node majors', passed: 0, failed: 1, skipped: 0 });
  for (const f of files.sort()) {
    const report = readJson(path.join(matrixDir, f));
    const label = `vitest (${f.replace(/\.json$/, '')})`;
    if (!report) {
      rows.push({ name: label, passed: 0, failed: 1, skipped: 0 });
      continue;
    }
    rows.push({
      name: label,
      passed: report.numPassedTests,
      failed: report.numFailedTests + (report.success || report.numFailedTests > 0 ? 0 : 1),
      skipped: report.numPendingTests + report.numTodoTests,
    });
    vitestFailures(report, label);
  }
}
function playwrightFailures(suite, trail) {
  for (const spec of suite.specs ?? [])
    for (const t of spec.tests ?? [])
      if (t.status === 'unexpected') {
        failures.push(`e2e     ${spec.file}:${spec.line} > ${[...trail, spec.title].join(' > ')}`);
        const result = t.results?.findLast?.((r) => r.status !== 'passed' && r.status !== 'skipped');
        failures.push(...excerpt(result?.error?.message ?? result?.errors?.[0]?.message));
      }
  for (const child of suite.suites ?? [])
    playwrightFailures(child, suite.title && !suite.title.endsWith('.ts') ? [...trail, suite.title] : trail);
}
for (const suite of readJson(path.join(reports, 'playwright.json'))?.suites ?? []) playwrightFailures(suite, []);
if (failures.length > 0) {
  console.info('\n=== failed');
  for (const f of failures) console.info(f);
}

console.info('\n=== summary');
for (const r of rows)
  console.info(
    `${r.name.padEnd(32)} ${String(r.passed).padStart(5)} passed ${String(r.failed).padStart(4)} failed${r.skipped ? ` ${r.skipped} skipped` : ''}`,
  );
const passed = rows.reduce((n, r) => n + r.passed, 0);
const failed = rows.reduce((n, r) => n + r.failed, 0);
console.info(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
