/**
 * PostgreSQL through Kysely's PostgresDialect and `pg` (DATABASE_URL): the database is created on first
 * use when the role may, and transactions run one at a time across every server process, as they do on
 * SQLite, so the stores' read-then-write transactions keep their meaning.
 */
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  PostgresDialect,
  type PostgresDialectConfig,
  PostgresDriver,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import pg from 'pg';

/**
 * The advisory lock every write transaction holds until it ends ('keel' in ASCII): PostgreSQL's
 * READ COMMITTED would otherwise let two "read the highest number, insert the next" transactions race.
 */
const TRANSACTION_LOCK = 0x6b65656c;

/** OIDs of PostgreSQL's int8 and numeric: returned as strings by default, read as numbers here. */
const INT8_OID = 20;
const NUMERIC_OID = 1700;

/** Counts and sums come back as JS numbers, as better-sqlite3 gives them (ids and counts stay < 2^53). */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID || oid === NUMERIC_OID) return (v: string) => Number(v);
    return format === 'binary' ? pg.types.getTypeParser(oid, 'binary') : pg.types.getTypeParser(oid, 'text');
  },
};

/** The pool's own connection type (Kysely's PostgresConnection, which it does not export by name). */
type PooledConnection = Parameters<PostgresDriver['releaseConnection']>[0];

/**
 * A connection that takes a client from the pool only when it first runs a statement, so that a
 * transaction waiting for this process's turn (SerialTransactionDriver) holds no pooled client meanwhile.
 */
class LazyConnection implements DatabaseConnection {
  /** The pooled connection being or already taken, else null (no statement ran). */
  taken: Promise<DatabaseConnection> | null = null;
  /** Ends this connection's transaction turn; set while it holds one. */
  endTurn: (() => void) | null = null;

  constructor(private readonly pool: PostgresDriver) {}

  /** The pooled connection, taken on first use. */
  client(): Promise<DatabaseConnection> {
    this.taken ??= this.pool.acquireConnection();
    return this.taken;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return (await this.client()).executeQuery<R>(query);
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    yield* (await this.client()).streamQuery<R>(query, chunkSize);
  }

  /** Gives up the turn, once. */
  leaveTurn(): void {
    const end = this.endTurn;
    this.endTurn = null;
    end?.();
  }
}

/**
 * Transactions one at a time across every server process: each takes TRANSACTION_LOCK after BEGIN
 * (released by COMMIT or ROLLBACK). Within a process at most half the pool's connections (at least one)
 * are in transactions at once; further transactions wait for a turn before they take a connection. A
 * transaction waiting for the lock holds its connection, so a burst of writes would otherwise take every
 * connection of the pool and the reads (the model list, the comment list) would wait behind them; the
 * transactions that do hold one stay lined up at the lock, so each starts as soon as the one before ends.
 */
class SerialTransactionDriver implements Driver {
  private readonly pool: PostgresDriver;
  /** Turns still free, and the transactions waiting for one (first come, first served). */
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(config: PostgresDialectConfig, poolMax: number) {
    this.pool = new PostgresDriver(config);
    this.free = Math.max(1, Math.floor(poolMax / 2));
  }

  init(): Promise<void> {
    return this.pool.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new LazyConnection(this.pool);
  }

  /** Resolves with the function that ends the turn (LazyConnection.leaveTurn calls it once) when a turn is free. */
  private async takeTurn(): Promise<() => void> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((r) => this.waiting.push(r));
    return () => {
      const next = this.waiting.shift();
      // The turn passes straight to the next in line, or is free again.
      if (next) next();
      else this.free++;
    };
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const c = connection as LazyConnection;
    c.endTurn = await this.takeTurn();
    const real = await c.client();
    await this.pool.beginTransaction(real, settings);
    await real.executeQuery(CompiledQuery.raw(`SELECT pg_advisory_xact_lock(${TRANSACTION_LOCK})`));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const c = connection as LazyConnection;
    try {
      await this.pool.commitTransaction(await c.client());
    } finally {
      c.leaveTurn();
    }
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const c = connection as LazyConnection;
    try {
      await this.pool.rollbackTransaction((await c.client()) as PooledConnection);
    } finally {
      c.leaveTurn();
    }
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const c = connection as LazyConnection;
    // A transaction whose BEGIN failed is neither committed nor rolled back: its turn ends here.
    c.leaveTurn();
    // A client still being taken is released once it arrives; one that could not be taken has nothing to give back.
    const real = await c.taken?.catch(() => null);
    if (real) await this.pool.releaseConnection(real as PooledConnection);
  }

  destroy(): Promise<void> {
    return this.pool.destroy();
  }
}

/** PostgresDialect with the serial transactions and numeric types above. */
class KeelsonPostgresDialect extends PostgresDialect {
  constructor(
    private readonly pool: pg.Pool,
    private readonly poolMax: number,
  ) {
    super({ pool });
  }
  override createDriver(): Driver {
    return new SerialTransactionDriver({ pool: this.pool }, this.poolMax);
  }
}

/**
 * The PostgreSQL dialect for `url` (a pool of up to PG_POOL_MAX connections, default 10). An idle
 * or busy connection the server ends (a restart, a fail-over, an administrator's pg_terminate_backend) is
 * dropped from the pool with one log line instead of ending the process: the next query opens a new one, so
 * Keelson serves again as soon as the database is back.
 */
export function postgresDialect(url: string): PostgresDialect {
  const max = Number(process.env.PG_POOL_MAX) || 10;
  const pool = new pg.Pool({ connectionString: url, max, types });
  pool.on('error', (e) => console.error(`PostgreSQL: an idle connection was closed (${e.message})`));
  // A connection in use (e.g. inside a transaction between two statements) reports its end on the client:
  // without a listener that would end the process. The statement in flight fails, and pg-pool drops the
  // broken client when it is released.
  pool.on('connect', (client) =>
    client.on('error', (e) => console.error(`PostgreSQL: a connection in use was closed (${e.message})`)),
  );
  return new KeelsonPostgresDialect(pool, max);
}

/** The database name of a connection URL (its path), or '' when the URL names none. */
export function databaseName(url: string): string {
  return decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
}

/** `url` with its database replaced by `name` (the maintenance database 'postgres' for CREATE DATABASE). */
export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${encodeURIComponent(name)}`;
  return u.toString();
}

/**
 * Creates the database that `url` names when it does not exist (UTF-8, collation "C" so that text sorts
 * by code point as in SQLite), connecting to the maintenance database 'postgres' of the same server.
 * @throws the server's error when the database is missing and the role may not create it.
 */
export async function ensureDatabase(url: string): Promise<void> {
  const probe = new pg.Client({ connectionString: url });
  try {
    await probe.connect();
    return;
  } catch (e) {
    if ((e as { code?: string }).code !== '3D000') throw e; // 3D000: invalid_catalog_name (no such database)
  } finally {
    await probe.end().catch(() => {});
  }
  const admin = new pg.Client({ connectionString: withDatabase(url, 'postgres') });
  await admin.connect();
  try {
    const name = databaseName(url).replace(/"/g, '""');
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`);
  } catch (e) {
    if ((e as { code?: string }).code !== '42P04') throw e; // 42P04: created meanwhile by another process
  } finally {
    await admin.end();
  }
}
