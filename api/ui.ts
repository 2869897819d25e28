/**
 * Serves the built UI (dist/ui) with history-mode fallback (application.md §2 "Routes (history mode,
 * base /)"): files as they are, and index.html for every other GET outside /api.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';

/** Registers the static files when `uiDir/index.html` exists; returns whether it did. */
export async function registerUi(app: FastifyInstance, uiDir: string): Promise<boolean> {
  if (!existsSync(path.join(uiDir, 'index.html'))) return false;
  // wildcard false: one route per built file (the build does not change while the server runs), so
  // unknown paths reach the not-found handler directly.
  await app.register(fastifyStatic, { root: uiDir, prefix: '/', wildcard: false, index: 'index.html' });
  return true;
}

/** True when a not-found request should get index.html (a GET outside /api). */
export function wantsSpaFallback(request: FastifyRequest): boolean {
  const url = request.url.split('?')[0];
  return request.method === 'GET' && url !== '/api' && !url.startsWith('/api/');
}
