import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Identity } from '@/lib/access';
import { SqliteFile } from '../store/sqlite';

/**
 * The access area's own migrations, in their own table, so they never interleave with the history
 * store's `schema_migrations` although both live in the same database file.
 */
const migrations: string[] = [
  `CREATE TABLE access_sessions (
     id_hash TEXT PRIMARY KEY, subject TEXT NOT NULL, name TEXT NOT NULL, email TEXT, groups_json TEXT NOT NULL,
     created_at INTEGER NOT NULL, last_seen_at INTEGER NOT NULL, expires_at INTEGER NOT NULL);
   CREATE INDEX access_sessions_by_expiry ON access_sessions (expires_at);
   CREATE TABLE access_logins (
     state_hash TEXT PRIMARY KEY, code_verifier TEXT NOT NULL, nonce TEXT NOT NULL, return_to TEXT NOT NULL, created_at INTEGER NOT NULL);`,
];

/** Only a hash of a session id or login state is stored: a copy of the database opens no session. */
export function hash(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url');
}

export interface PendingLogin {
  codeVerifier: string;
  nonce: string;
  returnTo: string;
}

export interface SessionTimeouts {
  idleMs: number;
  absoluteMs: number;
}

/** A sign-in flow has ten minutes to come back from the provider. */
export const loginTtlMs = 10 * 60_000;
/** `last_seen_at` is written at most once a minute per session: a page's burst of requests costs one write. */
export const touchEveryMs = 60_000;

/** A new session id (43 characters of base64url) or login state. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Whether a cookie's value can be a session id at all (anything else is not looked up). */
export function isSessionId(id: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(id);
}

/**
 * Server-side sessions and sign-ins in flight, wherever they are kept: SQLite beside the history (one process), or
 * PostgreSQL (`AUTOSCOPE_DATABASE_URL`: replicas share them, so a person signed in on one is signed in on all).
 */
export interface Sessions {
  beginLogin(login: PendingLogin, now: number): Promise<string>;
  takeLogin(state: string, now: number): Promise<PendingLogin | null>;
  create(who: Identity, now: number): Promise<{ id: string; expiresAt: number }>;
  get(id: string, now: number): Promise<Identity | null>;
  delete(id: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Server-side sessions in the history database (`history.db` in the data directory): the browser holds
 * only an opaque random id; a row holds who it is and when it lapses (idle and absolute timeouts).
 */
export class SessionStore implements Sessions {
  private readonly db: SqliteFile;

  constructor(
    dataDir: string,
    private readonly timeouts: SessionTimeouts,
  ) {
    mkdirSync(dataDir, { recursive: true });
    this.db = new SqliteFile(path.join(dataDir, 'history.db'));
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec('CREATE TABLE IF NOT EXISTS access_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
    const applied = new Set(
      (this.db.statement('SELECT version FROM access_migrations').all() as { version: number }[]).map((r) => r.version),
    );
    migrations.forEach((sql, i) => {
      if (applied.has(i + 1)) return;
      this.db.transaction(() => {
        this.db.exec(sql);
        this.db.statement('INSERT INTO access_migrations (version, applied_at) VALUES (?, ?)').run(i + 1, new Date().toISOString());
      });
    });
  }

  /** Remembers a sign-in in flight; returns the opaque state that travels to the provider and back. */
  beginLogin(login: PendingLogin, now: number): Promise<string> {
    const state = newSecret();
    this.db.statement('DELETE FROM access_logins WHERE created_at < ?').run(now - loginTtlMs);
    this.db
      .statement('INSERT INTO access_logins (state_hash, code_verifier, nonce, return_to, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(hash(state), login.codeVerifier, login.nonce, login.returnTo, now);
    return Promise.resolve(state);
  }

  /** The sign-in for a state, once: it is deleted as it is read. */
  takeLogin(state: string, now: number): Promise<PendingLogin | null> {
    const key = hash(state);
    const row = this.db.statement('SELECT code_verifier, nonce, return_to, created_at FROM access_logins WHERE state_hash = ?').get(key) as
      { code_verifier: string; nonce: string; return_to: string; created_at: number } | undefined;
    this.db.statement('DELETE FROM access_logins WHERE state_hash = ?').run(key);
    if (!row || now - row.created_at > loginTtlMs) return Promise.resolve(null);
    return Promise.resolve({ codeVerifier: row.code_verifier, nonce: row.nonce, returnTo: row.return_to });
  }

  /** A new session for a person; returns the id for the cookie (never stored as is). */
  create(who: Identity, now: number): Promise<{ id: string; expiresAt: number }> {
    const id = newSecret();
    const expiresAt = now + this.timeouts.absoluteMs;
    this.db.statement('DELETE FROM access_sessions WHERE expires_at < ? OR last_seen_at < ?').run(now, now - this.timeouts.idleMs);
    this.db
      .statement(
        'INSERT INTO access_sessions (id_hash, subject, name, email, groups_json, created_at, last_seen_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(hash(id), who.subject, who.name, who.email, JSON.stringify(who.groups), now, now, expiresAt);
    return Promise.resolve({ id, expiresAt });
  }

  /** The person of a live session, or null (unknown, idle too long, or past its absolute lifetime; a lapsed row is deleted). */
  get(id: string, now: number): Promise<Identity | null> {
    return Promise.resolve(this.getNow(id, now));
  }

  private getNow(id: string, now: number): Identity | null {
    if (!isSessionId(id)) return null;
    const key = hash(id);
    const row = this.db
      .statement('SELECT subject, name, email, groups_json, last_seen_at, expires_at FROM access_sessions WHERE id_hash = ?')
      .get(key) as
      { subject: string; name: string; email: string | null; groups_json: string; last_seen_at: number; expires_at: number } | undefined;
    if (!row) return null;
    if (now >= row.expires_at || now - row.last_seen_at >= this.timeouts.idleMs) {
      this.db.statement('DELETE FROM access_sessions WHERE id_hash = ?').run(key);
      return null;
    }
    if (now - row.last_seen_at >= touchEveryMs)
      this.db.statement('UPDATE access_sessions SET last_seen_at = ? WHERE id_hash = ?').run(now, key);
    return { subject: row.subject, name: row.name, email: row.email, groups: JSON.parse(row.groups_json) as string[] };
  }

  /** Sign-out: the row goes, so the cookie is worthless even if it was copied. */
  delete(id: string): Promise<void> {
    this.db.statement('DELETE FROM access_sessions WHERE id_hash = ?').run(hash(id));
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.db.close();
    return Promise.resolve();
  }
}
