import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * A throwaway PostgreSQL server for tests: `initdb` in a temporary directory, `pg_ctl start` on 127.0.0.1 and a
 * free port, removed by `stop()`. It uses the machine's PostgreSQL binaries (Debian's `postgresql` package:
 * `/usr/lib/postgresql/<major>/bin`, or `PG_BINDIR`); `.ci/run` installs the package where it is missing.
 * `initdb` and `pg_ctl` refuse to run as root, so as root they run as the `postgres` user (`runuser`), with the
 * data directory owned by it.
 */
export interface TestPostgres {
  /** `postgres://autoscope@127.0.0.1:<port>/autoscope` (trust authentication, loopback only). */
  url: string;
  port: number;
  /** A new empty database on this server (for a test that needs its own). */
  createDatabase(name: string): string;
  stop(): void;
}

export function postgresBinDir(): string | null {
  if (process.env.PG_BINDIR) return existsSync(path.join(process.env.PG_BINDIR, 'initdb')) ? process.env.PG_BINDIR : null;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const majors = readdirSync(root)
    .filter((v) => /^\d+$/.test(v) && existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return majors[0] ? path.join(root, majors[0], 'bin') : null;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function startPostgres(): Promise<TestPostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL server binaries not found: apt-get install -y postgresql (or set PG_BINDIR)');
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'autoscope-pg-'));
  const data = path.join(dir, 'data');
  const socketDir = dir;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const run = (cmd: string, args: string[]): void => {
    const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', path.join(bin, cmd), ...args]] : [path.join(bin, cmd), args];
    const result = spawnSync(file, argv, { encoding: 'utf8', cwd: dir });
    if (result.status !== 0) throw new Error(`${cmd} failed (${result.status}): ${result.stderr || result.stdout}`);
  };
  run('initdb', ['-D', data, '-U', 'autoscope', '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions']);
  const port = await freePort();
  const options = [
    `-p ${port}`,
    `-k ${socketDir}`,
    "-c listen_addresses='127.0.0.1'",
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=200',
  ].join(' ');
  run('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  const urlFor = (db: string): string => `postgres://autoscope@127.0.0.1:${port}/${db}`;
  const psql = (sql: string): void => {
    const result = spawnSync(
      path.join(bin, 'psql'),
      ['-h', '127.0.0.1', '-p', String(port), '-U', 'autoscope', '-d', 'postgres', '-v', 'ON_ERROR_STOP=1', '-c', sql],
      { encoding: 'utf8' },
    );
    if (result.status !== 0) throw new Error(`psql failed: ${result.stderr}`);
  };
  psql('CREATE DATABASE autoscope');
  let stopped = false;
  return {
    url: urlFor('autoscope'),
    port,
    createDatabase(name: string): string {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
      psql(`CREATE DATABASE ${name}`);
      return urlFor(name);
    },
    stop(): void {
      if (stopped) return;
      stopped = true;
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
