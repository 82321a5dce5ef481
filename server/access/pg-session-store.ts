import 'server-only';
import pg from 'pg';
import type { Identity } from '@/lib/access';
import { migratePostgres } from '@/server/store/postgres/migrations';
import type { PendingLogin, Sessions, SessionTimeouts } from './session-store';
import { hash, isSessionId, loginTtlMs, newSecret, touchEveryMs } from './session-store';

/**
 * Sessions and sign-ins in flight in PostgreSQL (`AUTOSCOPE_DATABASE_URL`), shared by every replica: a sign-in that
 * started on one replica completes on another, and a session works on all. The same rules as the SQLite store
 * (session-store.ts): only hashes of ids and states are kept; idle and absolute timeouts; a state is taken once.
 * The tables come with the shared schema (migrations.ts, version 4).
 */
export class PgSessionStore implements Sessions {
  private readonly pool: pg.Pool;
  private readonly ready: Promise<unknown>;

  constructor(
    databaseUrl: string,
    private readonly timeouts: SessionTimeouts,
  ) {
    this.pool = new pg.Pool({ connectionString: databaseUrl, max: 4, application_name: 'autoscope sessions' });
    this.pool.on('error', () => undefined); // an idle connection the server closed; the next query reconnects
    this.ready = migratePostgres(this.pool);
    // A failed migration is reported by the first sign-in that needs it (the history store reports it too).
    this.ready.catch(() => undefined);
  }

  async beginLogin(login: PendingLogin, now: number): Promise<string> {
    await this.ready;
    const state = newSecret();
    await this.pool.query('DELETE FROM access_logins WHERE created_at < $1', [now - loginTtlMs]);
    await this.pool.query(
      'INSERT INTO access_logins (state_hash, code_verifier, nonce, return_to, created_at) VALUES ($1, $2, $3, $4, $5)',
      [hash(state), login.codeVerifier, login.nonce, login.returnTo, now],
    );
    return state;
  }

  async takeLogin(state: string, now: number): Promise<PendingLogin | null> {
    await this.ready;
    const { rows } = await this.pool.query<{ code_verifier: string; nonce: string; return_to: string; created_at: string }>(
      'DELETE FROM access_logins WHERE state_hash = $1 RETURNING code_verifier, nonce, return_to, created_at',
      [hash(state)],
    );
    const row = rows[0];
    if (!row || now - Number(row.created_at) > loginTtlMs) return null;
    return { codeVerifier: row.code_verifier, nonce: row.nonce, returnTo: row.return_to };
  }

  async create(who: Identity, now: number): Promise<{ id: string; expiresAt: number }> {
    await this.ready;
    const id = newSecret();
    const expiresAt = now + this.timeouts.absoluteMs;
    await this.pool.query('DELETE FROM access_sessions WHERE expires_at < $1 OR last_seen_at < $2', [now, now - this.timeouts.idleMs]);
    await this.pool.query(
      `INSERT INTO access_sessions (id_hash, subject, name, email, groups_json, created_at, last_seen_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $6, $7)`,
      [hash(id), who.subject, who.name, who.email, JSON.stringify(who.groups), now, expiresAt],
    );
    return { id, expiresAt };
  }

  async get(id: string, now: number): Promise<Identity | null> {
    if (!isSessionId(id)) return null;
    await this.ready;
    const key = hash(id);
    const { rows } = await this.pool.query<{
      subject: string;
      name: string;
      email: string | null;
      groups_json: string;
      last_seen_at: string;
      expires_at: string;
    }>('SELECT subject, name, email, groups_json, last_seen_at, expires_at FROM access_sessions WHERE id_hash = $1', [key]);
    const row = rows[0];
    if (!row) return null;
    if (now >= Number(row.expires_at) || now - Number(row.last_seen_at) >= this.timeouts.idleMs) {
      await this.pool.query('DELETE FROM access_sessions WHERE id_hash = $1', [key]);
      return null;
    }
    if (now - Number(row.last_seen_at) >= touchEveryMs)
      await this.pool.query('UPDATE access_sessions SET last_seen_at = $1 WHERE id_hash = $2', [now, key]);
    return { subject: row.subject, name: row.name, email: row.email, groups: JSON.parse(row.groups_json) as string[] };
  }

  async delete(id: string): Promise<void> {
    await this.ready;
    await this.pool.query('DELETE FROM access_sessions WHERE id_hash = $1', [hash(id)]);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
