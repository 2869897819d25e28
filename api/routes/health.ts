/**
 * Liveness and readiness of this server process (api/contract/health.ts; README "Running at scale"):
 * public and without data, for the load balancer in front of several processes. Readiness answers 503
 * while the database cannot be reached, a migration is missing (another version runs the schema), the
 * process is stopping (SIGTERM: api/server.ts), or a configured S3 bucket or Redis does not answer
 * (api/readinessProbes.ts: their answers reused for a few seconds), so the balancer sends new requests
 * elsewhere.
 */
import type { FastifyInstance } from 'fastify';
import { Migrator, sql } from 'kysely';
import { Access } from '../access/rules';
import type { Health, Readiness } from '../contract/health';
import { migrationsFor, POSTGRES_MIGRATIONS, SQLITE_MIGRATIONS } from '../db/migrations';
import { defineRoute } from './define';

/** How long the readiness check waits for the database, ms (a hung server is not ready). */
const DB_PROBE_MS = 2000;

export default async function healthRoutes(app: FastifyInstance): Promise<void> {
  const { db, config, lifecycle, readiness } = app.ctx;
  const migrations = migrationsFor(config.database.kind === 'postgres' ? POSTGRES_MIGRATIONS : SQLITE_MIGRATIONS);
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });

  defineRoute(app, {
    method: 'GET',
    url: '/api/health',
    access: Access.anonymous,
    handler: async (): Promise<Health> => ({ status: 'ok' }),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/api/ready',
    access: Access.anonymous,
    handler: async ({ reply }): Promise<Readiness> => {
      const reasons: string[] = [];
      let database = false;
      let pending = Object.keys(migrations).length;
      const probe = async () => {
        await sql`SELECT 1`.execute(db);
        database = true;
        pending = (await migrator.getMigrations()).filter((m) => m.executedAt === undefined).length;
      };
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, DB_PROBE_MS);
      });
      const [services] = await Promise.all([readiness.results(), Promise.race([probe().catch(() => {}), timeout])]);
      clearTimeout(timer);
      if (lifecycle.stopping) reasons.push('shutting down');
      if (!database) reasons.push('database unreachable');
      else if (pending > 0) reasons.push(`${pending} migration${pending === 1 ? '' : 's'} not applied`);
      if (!services.storage) reasons.push('S3 bucket unreachable');
      if (!services.realtime) reasons.push('Redis unreachable');
      const ready = reasons.length === 0;
      if (!ready) reply.code(503);
      return {
        ready,
        database,
        migrations: database && pending === 0,
        shuttingDown: lifecycle.stopping,
        ...services,
        reasons,
      };
    },
  });
}
