import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type TestPostgres } from '@/test/support/postgres';
import { PgSessionStore } from './pg-session-store';
import type { Sessions, SessionTimeouts } from './session-store';
import { SessionStore } from './session-store';

/** The same rules for both session stores: SQLite beside the history, PostgreSQL shared by replicas (a real server). */
let server: TestPostgres | undefined;
let databases = 0;
const open: Sessions[] = [];

beforeAll(async () => {
  server = await startPostgres();
}, 60_000);

afterAll(async () => {
  for (const s of open) await s.close();
  server?.stop();
});

const backends: { name: string; make: (t: SessionTimeouts) => Sessions }[] = [
  { name: 'SQLite', make: (t) => new SessionStore(mkdtempSync(path.join(os.tmpdir(), 'sessions-')), t) },
  {
    name: 'PostgreSQL',
    make: (t) => {
      if (!server) throw new Error('the PostgreSQL test server did not start');
      return new PgSessionStore(server.createDatabase(`sessions_${++databases}`), t);
    },
  },
];

describe.each(backends)('sessions in $name', ({ make }) => {
  const who = { subject: 'u1', name: 'Ada', email: 'ada@example.com', groups: ['g'] };
  const store = (t: SessionTimeouts): Sessions => {
    const s = make(t);
    open.push(s);
    return s;
  };

  it('a session lives until its idle or its absolute timeout; only a hash of its id is stored', async () => {
    const s = store({ idleMs: 30 * 60_000, absoluteMs: 2 * 3600_000 });
    const t0 = 1_000_000;
    const { id, expiresAt } = await s.create(who, t0);
    expect(expiresAt).toBe(t0 + 2 * 3600_000);
    expect(await s.get(id, t0 + 29 * 60_000)).toEqual(who);
    // Each use within the idle window moves it on, up to the absolute lifetime.
    for (let t = t0 + 29 * 60_000; t < t0 + 2 * 3600_000 - 60_000; t += 25 * 60_000) expect(await s.get(id, t)).not.toBeNull();
    expect(await s.get(id, t0 + 2 * 3600_000)).toBeNull();
    const idle = await s.create(who, t0);
    expect(await s.get(idle.id, t0 + 31 * 60_000)).toBeNull();
    const other = await s.create(who, t0);
    await s.delete(other.id);
    expect(await s.get(other.id, t0 + 1)).toBeNull();
    expect(await s.get(`${other.id.slice(0, -1)}x`, t0 + 1)).toBeNull();
  });

  it('a sign-in state is taken once, and only within ten minutes', async () => {
    const s = store({ idleMs: 60_000, absoluteMs: 120_000 });
    const login = { codeVerifier: 'v', nonce: 'n', returnTo: '/triage' };
    const state = await s.beginLogin(login, 0);
    expect(await s.takeLogin(state, 1000)).toEqual(login);
    expect(await s.takeLogin(state, 1000)).toBeNull();
    const late = await s.beginLogin(login, 0);
    expect(await s.takeLogin(late, 10 * 60_000 + 1)).toBeNull();
  });
});

describe('sessions shared by replicas', () => {
  it('a sign-in begun on one replica completes on another, and the session works on both', async () => {
    if (!server) throw new Error('the PostgreSQL test server did not start');
    const url = server.createDatabase(`sessions_${++databases}`);
    const timeouts = { idleMs: 60_000, absoluteMs: 3_600_000 };
    const [a, b] = [new PgSessionStore(url, timeouts), new PgSessionStore(url, timeouts)];
    open.push(a, b);
    const state = await a.beginLogin({ codeVerifier: 'v', nonce: 'n', returnTo: '/' }, 0);
    expect(await b.takeLogin(state, 10)).not.toBeNull();
    const { id } = await b.create({ subject: 'u', name: 'U', email: null, groups: [] }, 10);
    expect((await a.get(id, 20))?.subject).toBe('u');
    await a.delete(id);
    expect(await b.get(id, 30)).toBeNull();
  });
});
