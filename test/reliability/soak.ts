/**
 * `npm run soak`: the long form of the reliability run (SOAK_MINUTES, default 10), printing its figures.
 * The scenario of docs/reliability.md: every cluster 20% 5xx and a watch cut every 30 s; prod-us-east-1
 * down for 2 minutes and back; prod-eu-west-1 answering only 5xx for 40 s; the BFF killed with SIGKILL
 * once and restarted on the same data dir. Exits non-zero when a goal is missed.
 */
import { formatFigures, runReliability } from './harness';

async function main(): Promise<void> {
  const minutes = Number(process.env.SOAK_MINUTES ?? 10);
  const durationMs = Math.max(1, minutes) * 60_000;
  const verbose = process.env.SOAK_VERBOSE === '1';
  const started = Date.now();
  const f = await runReliability({
    durationMs,
    errorRate: 0.2,
    watchCutSeconds: 30,
    down: { cluster: 'prod-us-east-1', atMs: Math.min(60_000, durationMs * 0.1), forMs: Math.min(120_000, durationMs * 0.3) },
    failing: { cluster: 'prod-eu-west-1', atMs: durationMs * 0.45, forMs: Math.min(40_000, durationMs * 0.1) },
    killAtMs: durationMs * 0.7,
    speed: Number(process.env.SOAK_SPEED ?? 20),
    port: Number(process.env.SOAK_PORT ?? 3203),
    log: (l) => {
      if (verbose || l.startsWith('5xx') || l.startsWith('flaky') || l.startsWith('SIGKILL')) console.info(`  ${l}`);
    },
  });
  console.info(`\nsoak: ${minutes} min of faults, ${((Date.now() - started) / 1000).toFixed(0)} s in all\n${formatFigures(f)}`);
  const ok =
    f.missing.length === 0 &&
    f.inconsistent.length === 0 &&
    f.duplicateSegments === 0 &&
    f.phantomDeletions === 0 &&
    f.autoscope5xx === 0 &&
    f.flakyGaps === 0 &&
    f.flakyUnreachablePolls === 0;
  process.exit(ok ? 0 : 1);
}

void main();
