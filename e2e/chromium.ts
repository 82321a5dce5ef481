import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const candidates = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/lib/chromium/chromium'];

/**
 * Finds Debian's Chromium for Playwright (browsers cannot be downloaded here: docs/toolchain.md, trap 4).
 * `CHROMIUM_PATH` wins. When none is installed: as root, install it with apt; otherwise stop with
 * one line saying the command to run.
 */
export function findChromium(): string {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`CHROMIUM_PATH=${fromEnv} does not exist`);
    return fromEnv;
  }
  const found = candidates.find((p) => existsSync(p));
  if (found) return found;
  if (process.getuid?.() === 0) {
    console.info('[e2e] Chromium not found; installing Debian chromium with apt-get (about a minute)…');
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium'], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    const installed = candidates.find((p) => existsSync(p));
    if (installed) return installed;
  }
  throw new Error('Chromium is required for the e2e tests: run `sudo apt-get install -y chromium` (or set CHROMIUM_PATH).');
}

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];
