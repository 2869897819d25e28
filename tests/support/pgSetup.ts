/**
 * Setup file of the 'api-pg' project: every server configuration (loadConfig) and every directly opened
 * database (openDatabase without a database) uses PostgreSQL, one database per data directory, so a
 * test that restarts a server on its data directory finds its tables again. The database is created on
 * first use (api/db/postgres.ts ensureDatabase).
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { inject, vi } from 'vitest';
import type { DatabaseConfig } from '../../api/config';
import { withDatabase } from '../../api/db/postgres';

/** The test cluster's database for `dataDir`. */
export function pgDatabaseFor(dataDir: string): DatabaseConfig {
  const name = `keelson_${createHash('sha1').update(path.resolve(dataDir)).digest('hex').slice(0, 20)}`;
  return { kind: 'postgres', url: withDatabase(inject('pgUrl'), name) };
}

vi.mock('../../api/config', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../api/config')>();
  return {
    ...real,
    loadConfig: (env: NodeJS.ProcessEnv = process.env, overrides: Parameters<typeof real.loadConfig>[1] = {}) =>
      real.loadConfig(env, {
        database: pgDatabaseFor(overrides.dataDir ?? env.DATA_DIR ?? './data'),
        ...overrides,
      }),
  };
});

vi.mock('../../api/db/database', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../api/db/database')>();
  return {
    ...real,
    openDatabase: (dataDir: string, database?: DatabaseConfig) =>
      real.openDatabase(dataDir, database ?? pgDatabaseFor(dataDir)),
  };
});
