import 'server-only';
import type { Pool } from 'pg';

/**
 * The PostgreSQL schema, as versioned migrations applied in order, each once, each in its own transaction
 * (`schema_migrations` remembers). Replicas starting together are safe: the runner holds an advisory lock.
 *
 * Tables an owner writes for one cluster carry `cluster` and `fence` (the lease token it holds). A trigger checks
 * every such row against `cluster_leases` and rejects it unless that token is the cluster's current, unexpired
 * lease — so a replica that was paused past its lease cannot write, whatever it believes (docs/scale-out.md).
 * It takes a share lock on the lease row, so a takeover waits for an in-flight write to commit and the write after
 * it sees the new token.
 *
 * `condition_transitions` and `replica_samples` are range-partitioned by month on `at` (partitions.ts creates
 * them ahead of writes; retention drops whole partitions). Indexes serve the timeline query (object, then time)
 * and the fleet feed (time).
 */
export const postgresMigrations: readonly string[] = [
  `CREATE TABLE replicas (
     id TEXT PRIMARY KEY,
     started_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
     heartbeat_at TIMESTAMPTZ NOT NULL);

   CREATE SEQUENCE fence_tokens;
   CREATE TABLE cluster_leases (
     cluster TEXT PRIMARY KEY,
     owner TEXT,
     fence BIGINT NOT NULL DEFAULT 0,
     expires_at TIMESTAMPTZ NOT NULL DEFAULT '-infinity',
     acquired_at TIMESTAMPTZ);

   CREATE FUNCTION autoscope_check_fence() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     PERFORM 1 FROM cluster_leases
       WHERE cluster = NEW.cluster AND fence = NEW.fence AND owner IS NOT NULL AND expires_at > clock_timestamp()
       FOR SHARE;
     IF NOT FOUND THEN
       RAISE EXCEPTION 'fenced: token % is not the current lease of cluster %', NEW.fence, NEW.cluster
         USING ERRCODE = 'AF001';
     END IF;
     RETURN NEW;
   END $$;

   CREATE TABLE objects (
     id TEXT PRIMARY KEY, cluster TEXT NOT NULL, fence BIGINT NOT NULL, kind TEXT NOT NULL, namespace TEXT NOT NULL,
     name TEXT NOT NULL, uid TEXT NOT NULL, first_seen TIMESTAMPTZ NOT NULL, deleted_at TIMESTAMPTZ);
   CREATE INDEX objects_by_cluster ON objects (cluster);

   CREATE TABLE condition_transitions (
     seq BIGINT GENERATED ALWAYS AS IDENTITY, id TEXT NOT NULL, cluster TEXT NOT NULL, fence BIGINT NOT NULL,
     kind TEXT NOT NULL, namespace TEXT NOT NULL, name TEXT NOT NULL, uid TEXT NOT NULL,
     type TEXT NOT NULL, status TEXT NOT NULL, reason TEXT, message TEXT,
     prev_status TEXT, prev_reason TEXT, notable BOOLEAN NOT NULL DEFAULT TRUE,
     at TIMESTAMPTZ NOT NULL, reason_since TIMESTAMPTZ NOT NULL,
     PRIMARY KEY (seq, at)) PARTITION BY RANGE (at);
   CREATE INDEX condition_transitions_by_id ON condition_transitions (id, type, at);
   CREATE INDEX condition_transitions_by_at ON condition_transitions (at);
   CREATE INDEX condition_transitions_notable_by_at ON condition_transitions (at) WHERE notable;

   CREATE TABLE replica_samples (
     id TEXT NOT NULL, cluster TEXT NOT NULL, fence BIGINT NOT NULL, at TIMESTAMPTZ NOT NULL,
     current INTEGER, desired INTEGER, min INTEGER, max INTEGER) PARTITION BY RANGE (at);
   CREATE INDEX replica_samples_by_id ON replica_samples (id, at);

   CREATE TABLE events (
     uid TEXT PRIMARY KEY, id TEXT NOT NULL, cluster TEXT NOT NULL, fence BIGINT NOT NULL, type TEXT NOT NULL,
     reason TEXT NOT NULL, message TEXT NOT NULL, count INTEGER NOT NULL, first_seen TIMESTAMPTZ,
     last_seen TIMESTAMPTZ, source TEXT, regarding TEXT NOT NULL);
   CREATE INDEX events_by_id ON events (id, last_seen);
   CREATE INDEX events_by_last_seen ON events (last_seen);

   CREATE TABLE cluster_states (
     cluster TEXT NOT NULL, fence BIGINT NOT NULL, state TEXT NOT NULL, at TIMESTAMPTZ NOT NULL, error TEXT);
   CREATE INDEX cluster_states_by_cluster ON cluster_states (cluster, at);

   -- The current state of every autoscaler: what a replica loads before following the change stream.
   -- Deletion is a tombstone (deleted_at) so it passes the fence like any other write.
   CREATE TABLE autoscalers (
     id TEXT PRIMARY KEY, cluster TEXT NOT NULL, fence BIGINT NOT NULL, body JSONB,
     updated_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(), deleted_at TIMESTAMPTZ);
   CREATE INDEX autoscalers_by_cluster ON autoscalers (cluster);

   -- The change stream. seq is assigned under a transaction-scoped advisory lock held to commit, so seq order is
   -- commit order: a follower reading "seq > last" never skips a row that commits late, and one snapshot of
   -- autoscalers + max(seq) is a consistent place to start following. Pruning raises change_stream.horizon; a
   -- follower behind the horizon reloads from the current-state tables.
   CREATE SEQUENCE change_seq;
   CREATE TABLE changes (
     seq BIGINT PRIMARY KEY, cluster TEXT NOT NULL, fence BIGINT NOT NULL, kind TEXT NOT NULL, id TEXT NOT NULL,
     body JSONB, at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp());
   CREATE INDEX changes_by_at ON changes (at);
   CREATE TABLE change_stream (one BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (one), horizon BIGINT NOT NULL);
   INSERT INTO change_stream (horizon) VALUES (0);

   CREATE FUNCTION autoscope_sequence_change() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     PERFORM pg_advisory_xact_lock(hashtext('autoscope.changes'));
     NEW.seq := nextval('change_seq');
     RETURN NEW;
   END $$;
   CREATE FUNCTION autoscope_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     PERFORM pg_notify('autoscope_changes', '');
     RETURN NULL;
   END $$;

   CREATE TRIGGER a_fence BEFORE INSERT OR UPDATE ON objects FOR EACH ROW EXECUTE FUNCTION autoscope_check_fence();
   CREATE TRIGGER a_fence BEFORE INSERT OR UPDATE ON condition_transitions FOR EACH ROW EXECUTE FUNCTION autoscope_check_fence();
   CREATE TRIGGER a_fence BEFORE INSERT OR UPDATE ON replica_samples FOR EACH ROW EXECUTE FUNCTION autoscope_check_fence();
   CREATE TRIGGER a_fence BEFORE INSERT OR UPDATE ON events FOR EACH ROW EXECUTE FUNCTION autoscope_check_fence();
   CREATE TRIGGER a_fence BEFORE INSERT OR UPDATE ON cluster_states FOR EACH ROW EXECUTE FUNCTION autoscope_check_fence();
   CREATE TRIGGER a_fence BEFORE INSERT OR UPDATE ON autoscalers FOR EACH ROW EXECUTE FUNCTION autoscope_check_fence();
   CREATE TRIGGER a_fence BEFORE INSERT OR UPDATE ON changes FOR EACH ROW EXECUTE FUNCTION autoscope_check_fence();
   CREATE TRIGGER b_sequence BEFORE INSERT ON changes FOR EACH ROW EXECUTE FUNCTION autoscope_sequence_change();
   CREATE TRIGGER notify AFTER INSERT ON changes FOR EACH STATEMENT EXECUTE FUNCTION autoscope_notify_change();`,
  // 2: what the history store needs beyond version 1.
  // - Each transition keeps the resourceVersion of the object version it was seen in (as SQLite's migration 3).
  // - cluster_states get the order they were written in (an outage's row is dated back, so time is not it).
  // - The open segment of every condition and the last replica sample of every autoscaler, kept beside the
  //   partitioned tables: retention drops whole months, and a condition that has not changed since is still open.
  //   They are also what a replica reads back at start.
  // - A Karmada member's rows are written under its control plane's lease (its watcher runs through the control
  //   plane's connection): the fence check accepts the lease of the cluster or of the cluster it is a member of
  //   (`<control plane>/<member>`; a member's own name has no slash). Tokens are unique, so a token names one lease.
  `ALTER TABLE condition_transitions ADD COLUMN resource_version TEXT;
   ALTER TABLE cluster_states ADD COLUMN seq BIGINT GENERATED ALWAYS AS IDENTITY;
   CREATE INDEX cluster_states_by_cluster_seq ON cluster_states (cluster, seq);
   CREATE TABLE condition_state (
     id TEXT NOT NULL, type TEXT NOT NULL, cluster TEXT NOT NULL, fence BIGINT NOT NULL, uid TEXT NOT NULL,
     status TEXT NOT NULL, reason TEXT, message TEXT, at TIMESTAMPTZ NOT NULL, reason_since TIMESTAMPTZ NOT NULL,
     PRIMARY KEY (id, type));
   CREATE TABLE replica_state (
     id TEXT PRIMARY KEY, cluster TEXT NOT NULL, fence BIGINT NOT NULL, at TIMESTAMPTZ NOT NULL,
     current INTEGER, desired INTEGER, min INTEGER, max INTEGER);
   CREATE TRIGGER a_fence BEFORE INSERT OR UPDATE ON condition_state FOR EACH ROW EXECUTE FUNCTION autoscope_check_fence();
   CREATE TRIGGER a_fence BEFORE INSERT OR UPDATE ON replica_state FOR EACH ROW EXECUTE FUNCTION autoscope_check_fence();
   CREATE OR REPLACE FUNCTION autoscope_check_fence() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     PERFORM 1 FROM cluster_leases
       WHERE cluster IN (NEW.cluster, regexp_replace(NEW.cluster, '/[^/]*$', ''))
         AND fence = NEW.fence AND owner IS NOT NULL AND expires_at > clock_timestamp()
       FOR SHARE;
     IF NOT FOUND THEN
       RAISE EXCEPTION 'fenced: token % is not the current lease of cluster %', NEW.fence, NEW.cluster
         USING ERRCODE = 'AF001';
     END IF;
     RETURN NEW;
   END $$;`,
  // 3: each cluster's status as its owner last published it, for the replicas that follow it (the change stream's
  // "cluster" entries carry the same body).
  `CREATE TABLE cluster_status (cluster TEXT PRIMARY KEY, fence BIGINT NOT NULL, body JSONB NOT NULL,
     updated_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp());
   CREATE TRIGGER a_fence BEFORE INSERT OR UPDATE ON cluster_status FOR EACH ROW EXECUTE FUNCTION autoscope_check_fence();`,
  // 4: sign-in sessions and sign-ins in flight, shared by the replicas (server/access/pg-session-store.ts). Only
  // hashes of session ids and login states; times in epoch milliseconds, as in the SQLite store.
  `CREATE TABLE access_sessions (
     id_hash TEXT PRIMARY KEY, subject TEXT NOT NULL, name TEXT NOT NULL, email TEXT, groups_json TEXT NOT NULL,
     created_at BIGINT NOT NULL, last_seen_at BIGINT NOT NULL, expires_at BIGINT NOT NULL);
   CREATE INDEX access_sessions_by_expiry ON access_sessions (expires_at);
   CREATE TABLE access_logins (
     state_hash TEXT PRIMARY KEY, code_verifier TEXT NOT NULL, nonce TEXT NOT NULL, return_to TEXT NOT NULL,
     created_at BIGINT NOT NULL);`,
];

const MIGRATION_LOCK = 'autoscope.migrations';

/** Applies the migrations not yet applied; returns the versions it applied. */
export async function migratePostgres(pool: Pool, migrations: readonly string[] = postgresMigrations): Promise<number[]> {
  const client = await pool.connect();
  const applied: number[] = [];
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [MIGRATION_LOCK]);
    try {
      await client.query(
        'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())',
      );
      const done = new Set((await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version));
      for (const [i, sql] of migrations.entries()) {
        const version = i + 1;
        if (done.has(version)) continue;
        await client.query('BEGIN');
        try {
          await client.query(sql);
          await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [version]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw error;
        }
        applied.push(version);
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
  return applied;
}

/** SQLSTATE the fence trigger raises: a write with a token that is not the cluster's current lease. */
export const FENCED_SQLSTATE = 'AF001';

export function isFencedError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === FENCED_SQLSTATE;
}
