/**
 * The Keelson server process: builds the app, serves the built UI and /api,
 * socket.io at /api/socket.io, listens on PORT (default 8080) and imports the demo ship on first
 * start without delaying `listen`. Run with `node --import tsx api/server.ts` (scripts/start.mjs).
 *
 * SIGTERM or SIGINT stops it gracefully (README "Running at scale"): GET /api/ready answers 503 at once,
 * no new conversion job is taken, running conversions get SHUTDOWN_GRACE_SEC to finish and are then
 * handed back to the queue (PostgreSQL: another process continues them) or failed with a true status
 * (SQLite); then sockets and the database close. A second signal stops at once.
 */
import { buildApp } from './app';
import { loadConfig } from './config';
import { startDemoShipImport } from './demo';
import { openRealtime } from './realtime';
import { loadKernelSync } from '../engine/node/wasm/loadKernel';

async function main(): Promise<void> {
  // Everything the server writes (database, uploads, revisions, secret) is for the server's user only.
  process.umask(0o077);
  const config = loadConfig();
  // Server-side sections use the WebAssembly kernel when it is built (else the TypeScript one, with one line).
  loadKernelSync();
  const app = await buildApp(config, { logger: process.env.LOG !== 'false', serveUi: true });
  await openRealtime(app);
  await app.listen({ port: config.port, host: config.host });
  console.log(`Keelson is running at http://localhost:${config.port}/`);
  void startDemoShipImport(app.ctx, (m) => app.log.info(m)).catch((e) => app.log.error(e));

  let closing = false;
  const stop = async (signal: string) => {
    if (closing) {
      app.log.warn(`${signal} again: stopping now`);
      process.exit(1);
    }
    closing = true;
    app.ctx.lifecycle.stopping = true;
    const running = app.ctx.conversions.runningHere;
    app.log.info(
      `${signal}: stopping; ${running} conversion${running === 1 ? '' : 's'} running, up to ${config.jobs.shutdownGraceSec} s to finish`,
    );
    try {
      await app.ctx.conversions.shutdown(config.jobs.shutdownGraceSec * 1000);
      await app.close();
      process.exit(0);
    } catch (e) {
      console.error(e);
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
