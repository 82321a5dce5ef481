import Database from 'better-sqlite3';

/**
 * A SQLite database file opened through better-sqlite3, with every statement compiled once and kept.
 *
 * Why statements are never left to the garbage collector: better-sqlite3 12 wraps its `Database` and
 * `Statement` objects in `node::ObjectWrap`, a header-only class compiled into the addon. From Node 24.19
 * that class registers an environment cleanup hook in its constructor and removes it in its destructor,
 * and the removal asserts that a JavaScript context is entered. A statement collected by a GC that runs
 * outside one (an idle-time or background GC, or the last GC of a process on its way out) therefore
 * aborts the process (`Assertion failed: (env) != nullptr`, SIGABRT). better-sqlite3 13 drops
 * `ObjectWrap`, but it needs Node 22, and Autoscope still runs on 20.19. So no wrapper may ever become
 * garbage: each database keeps the statements it compiled (one per distinct SQL text, which the callers
 * keep to a fixed set), and every database opened stays referenced from `opened` for the life of the
 * process, after `close()` too (closing finalizes the SQLite statements; what stays is a few hundred
 * bytes of JavaScript per file). The environment's own cleanup at exit then frees them with a context
 * entered. docs/toolchain.md (trap 16) has the story.
 */
export class SqliteFile {
  readonly db: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();

  constructor(file: string, options: Database.Options = {}) {
    this.db = new Database(file, options);
    opened.add(this);
  }

  /** The statement for `sql`, compiled on first use and kept (see the class comment for why). */
  statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** `PRAGMA <setting>` through a kept statement (better-sqlite3's `pragma()` compiles one per call): its row, if it returns one. */
  pragma(setting: string): unknown {
    const statement = this.statement(`PRAGMA ${setting}`);
    if (statement.reader) return statement.get();
    statement.run();
    return undefined;
  }

  exec(sql: string): void {
    this.db.exec(sql);
  }

  /** Runs `fn` in one transaction (better-sqlite3 keeps its BEGIN/COMMIT statements per database). */
  transaction(fn: () => void): void {
    this.db.transaction(fn)();
  }

  close(): void {
    this.db.close();
  }
}

const opened = new Set<SqliteFile>();
