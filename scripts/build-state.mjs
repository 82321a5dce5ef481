// Decides whether `.next` is missing or older than the sources, so `npm start` builds only when needed.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const sourceRoots = ['app', 'components', 'lib', 'server', 'public'];
const sourceFiles = ['next.config.js', 'proxy.ts', 'package.json', 'package-lock.json', 'tsconfig.json'];

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(target, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    if (entry.isFile() && /\.test\.tsx?$/.test(entry.name)) continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry.name)));
  }
  return newest;
}

/** @returns {string | null} why a build is needed, or null when `.next` is current */
export function buildNeeded(root) {
  const buildId = path.join(root, process.env.NEXT_DIST_DIR || '.next', 'BUILD_ID');
  if (!existsSync(buildId)) return 'no build yet';
  const built = statSync(buildId).mtimeMs;
  for (const p of [...sourceRoots, ...sourceFiles]) {
    if (newestMtime(path.join(root, p)) > built) return `${p} changed since the last build`;
  }
  return null;
}
