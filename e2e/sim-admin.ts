import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The e2e run's simulator (started by `npm start` inside Playwright's webServer); E2E_DATA_DIR moves it for side-by-side runs. */
function adminUrl(): string {
  const file = path.resolve(process.env.E2E_DATA_DIR ?? path.resolve(__dirname, '..', '.autoscope-e2e'), 'sim', 'admin.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { adminUrl: string }).adminUrl;
}

/** Forces a scenario episode on or off (or back to its schedule) through the simulator's loopback admin endpoint. */
export async function setEpisode(name: string, action: 'start' | 'stop' | 'schedule'): Promise<void> {
  const res = await fetch(`${adminUrl()}/episodes/${encodeURIComponent(name)}/${action}`, { method: 'POST' });
  if (!res.ok) throw new Error(`episode ${name} ${action}: ${res.status} ${await res.text()}`);
}

export async function scenario(): Promise<{ storyMinute: number; episodes: { name: string; active: boolean }[] }> {
  const res = await fetch(`${adminUrl()}/scenario`);
  return (await res.json()) as { storyMinute: number; episodes: { name: string; active: boolean }[] };
}

/** Sets faults on one simulated cluster (`down` closes its port: connection refused). */
export async function setFaults(
  cluster: string,
  faults: { down?: boolean; latencyMs?: number; errorRate?: number; watchCutSeconds?: number },
): Promise<void> {
  const res = await fetch(`${adminUrl()}/clusters/${encodeURIComponent(cluster)}/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(faults),
  });
  if (!res.ok) throw new Error(`faults on ${cluster}: ${res.status} ${await res.text()}`);
}
