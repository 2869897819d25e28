/**
 * `GET /api/{instance}/viewer/logs` (application.md §7 Admin "GET /logs: a zip"; §2 'Server logs' for
 * administrators): the files of the server's log directory (api/logging.ts) in one zip,
 * `keelson-logs-{YYYY-MM-DD}.zip`. Needs admin:view. An empty directory gives an empty zip.
 */
import { lstat, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { zipSync } from 'fflate';
import { Access } from '../access/rules';
import { defineRoute } from './define';

/** Most bytes of log files one download holds (newest files first; older ones are left out beyond it). */
export const LOGS_ZIP_MAX_BYTES = 512 * 1024 * 1024;

/** The regular files of `dir` (newest first) as zip entries, within LOGS_ZIP_MAX_BYTES; [] when `dir` is missing. */
export async function logFiles(dir: string): Promise<Record<string, Uint8Array>> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const files: { name: string; mtime: number; size: number }[] = [];
  for (const name of names) {
    const st = await lstat(path.join(dir, name));
    // The active-file symlink (if any) would duplicate a file; directories are not logs.
    if (st.isFile()) files.push({ name, mtime: st.mtimeMs, size: st.size });
  }
  files.sort((a, b) => b.mtime - a.mtime);
  const out: Record<string, Uint8Array> = {};
  let total = 0;
  for (const f of files) {
    if (total + f.size > LOGS_ZIP_MAX_BYTES) break;
    out[f.name] = new Uint8Array(await readFile(path.join(dir, f.name)));
    total += f.size;
  }
  return out;
}

export default async function logRoutes(app: FastifyInstance): Promise<void> {
  const { config } = app.ctx;
  defineRoute(app, {
    method: 'GET',
    url: `/api/${config.instance}/viewer/logs`,
    access: Access.permission('admin:view'),
    handler: async ({ reply }) => {
      const zip = zipSync(await logFiles(config.logDir), { level: 6 });
      const day = new Date().toISOString().slice(0, 10);
      reply
        .type('application/zip')
        .header('Content-Disposition', `attachment; filename="keelson-logs-${day}.zip"`)
        .header('Cache-Control', 'no-store');
      return Buffer.from(zip);
    },
  });
}
