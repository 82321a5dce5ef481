import { vi } from 'vitest';
import type { Autoscope } from '@/server/runtime';
import { until } from './until';

/** Every console line also goes into `lines`, so a test can read what was logged. */
export function captureConsole(lines: string[]): void {
  for (const level of ['info', 'warn', 'error', 'log'] as const) {
    const original = console[level].bind(console);
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      lines.push(args.map(String).join(' '));
      original(...args);
    });
  }
}

/** Waits for the demo scenario's seven clusters to sync and its autoscalers to be indexed. */
export async function demoFleetSynced(app: Autoscope): Promise<void> {
  await until(
    () => app.clusterStatuses(),
    (s) => s.length === 7 && s.every((c) => c.state === 'synced'),
  );
  await until(
    () => app.index.entries.size,
    (n) => n >= 80,
  );
}
