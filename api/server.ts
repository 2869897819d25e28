/**
 * The Keelson server process: builds the app, serves the built UI and /api,
 * socket.io at /api/socket.io, listens on PORT (default 8080) and imports the demo ship on first
 * start without delaying `listen`. Run with `node --import tsx api/server.ts` (scripts/start.mjs).
 */
import { buildApp } from './app';
import { loadConfig } from './config';
import { startDemoShipImport } from './demo';
import { attachRealtime } from './realtime';
import { loadKernelSync } from '../engine/node/wasm/loadKernel';

async function main(): Promise<void> {
  // Everything the server writes (database, uploads, revisions, secret) is for the server's user only.
  process.umask(0o077);
  const config = loadConfig();
  // Server-side sections use the WebAssembly kernel when it is built (else the TypeScript one, with one line).
  loadKernelSync();
  const app = await buildApp(config, { logger: process.env.LOG !== 'false', serveUi: true });
  attachRealtime(app);
  await app.listen({ port: config.port, host: config.host });
  console.log(`Keelson is running at http://localhost:${config.port}/`);
  void startDemoShipImport(app.ctx, (m) => app.log.info(m)).catch((e) => app.log.error(e));

  let closing = false;
  const stop = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal}: closing`);
    app.close().then(
      () => process.exit(0),
      (e) => {
        console.error(e);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
