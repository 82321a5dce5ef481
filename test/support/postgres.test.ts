import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestPostgres } from './postgres';
import { startPostgres } from './postgres';

describe('the throwaway PostgreSQL server', () => {
  let server: TestPostgres;
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(() => server.stop());

  it('answers on 127.0.0.1 as a real PostgreSQL 15 or later, with a database of its own per test', async () => {
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    const { rows } = await client.query<{ v: string; addr: string | null }>(
      "SELECT current_setting('server_version_num') AS v, inet_server_addr()::text AS addr",
    );
    await client.end();
    expect(Number(rows[0]?.v)).toBeGreaterThanOrEqual(150000);
    expect(rows[0]?.addr).toBe('127.0.0.1/32');
    const other = new pg.Client({ connectionString: server.createDatabase('second_db') });
    await other.connect();
    const db = await other.query<{ d: string }>('SELECT current_database() AS d');
    await other.end();
    expect(db.rows[0]?.d).toBe('second_db');
  });
});
