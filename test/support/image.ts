import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The Dockerfile's final stage, read from the file: what the image contains and how it starts. The image test replays
 * it without a container engine, and the benches start the BFF with its allocator, as the image does.
 */
export interface FinalStage {
  base: string;
  workdir: string;
  copies: { from: string; to: string }[];
  env: Record<string, string>;
  user: { uid: number; gid: number };
  cmd: string[];
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The last stage of a Dockerfile's text. Only COPY --from, ENV, USER, WORKDIR and CMD are allowed in it. */
export function readFinalStage(dockerfile: string): FinalStage {
  const lines = dockerfile
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const start = lines.map((l) => l.startsWith('FROM ')).lastIndexOf(true);
  const stage: FinalStage = {
    base: lines[start]?.split(/\s+/)[1] ?? '',
    workdir: '/',
    copies: [],
    env: {},
    user: { uid: 0, gid: 0 },
    cmd: [],
  };
  for (const line of lines.slice(start + 1)) {
    const [instruction = '', ...rest] = line.split(/\s+/);
    const args = rest.join(' ');
    if (instruction === 'WORKDIR') stage.workdir = args;
    if (instruction === 'COPY') {
      const parts = rest.filter((p) => !p.startsWith('--'));
      if (!rest.some((p) => p.startsWith('--from=')) || parts.length !== 2) throw new Error(`unexpected COPY in the final stage: ${line}`);
      stage.copies.push({ from: parts[0] ?? '', to: parts[1] ?? '' });
    }
    if (instruction === 'ENV') for (const m of args.matchAll(/([A-Z_]+)=(\S+)/g)) stage.env[m[1] ?? ''] = m[2] ?? '';
    if (instruction === 'USER') {
      const [uid, gid] = args.split(':').map(Number);
      stage.user = { uid: uid ?? 0, gid: gid ?? uid ?? 0 };
    }
    if (instruction === 'CMD') stage.cmd = JSON.parse(args) as string[];
    if (instruction === 'RUN') throw new Error(`the final stage runs a command (${line}): it must only copy files`);
  }
  return stage;
}

/** This repository's Dockerfile's final stage. */
export function imageStage(): FinalStage {
  return readFinalStage(readFileSync(path.join(root, 'Dockerfile'), 'utf8'));
}

/** Debian's directory for this machine's architecture's libraries (`/usr/lib/x86_64-linux-gnu`). */
const multiarch = `/usr/lib/${process.arch === 'arm64' ? 'aarch64' : 'x86_64'}-linux-gnu`;

/**
 * Where this machine has a file the image's build stage copied in from outside the checkout (`/src`): a library
 * that stage installs from Debian's package and copies to a path of its own (`/jemalloc/libjemalloc.so.2`), which the
 * same package puts in Debian's library directory here. Null when the package is not installed.
 */
export function buildStageFile(from: string): string | null {
  if (from.startsWith('/src/')) return path.join(root, path.relative('/src', from));
  const here = path.join(multiarch, path.basename(from));
  return existsSync(here) ? here : null;
}

/**
 * The environment the image gives Node.js's allocator (`LD_PRELOAD` of the library it copies in, `MALLOC_CONF`),
 * pointing at this machine's copy of the library; empty, with the reason, when this machine lacks it.
 */
export function imageAllocator(stage: FinalStage = imageStage()): { env: Record<string, string>; missing: string | null } {
  const preload = stage.env.LD_PRELOAD;
  if (!preload) return { env: {}, missing: null };
  const copy = stage.copies.find((c) => c.to === preload);
  const here = copy ? buildStageFile(copy.from) : null;
  if (!here)
    return {
      env: {},
      missing: `${path.basename(preload)} is not in ${multiarch} (Debian's package installs it there)`,
    };
  return { env: { LD_PRELOAD: here, ...(stage.env.MALLOC_CONF ? { MALLOC_CONF: stage.env.MALLOC_CONF } : {}) }, missing: null };
}
