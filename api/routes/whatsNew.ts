/**
 * The start page's 'What's new' list (application.md §1, §2 "Start view"): read from CHANGELOG.md, which
 * ships with Keelson at the repository root. `GET /api/keelson-static/whats-new` → WhatsNew (anyone).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { Access } from '../access/rules';
import type { WhatsNew } from '../contract/shell';
import { defineRoute } from './define';

/** The changelog shipped with Keelson (repository root). */
export const CHANGELOG_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../CHANGELOG.md');

/** Versions and items of a changelog: '## label' starts a version, '- text' (or '* text') adds an item. */
export function parseChangelog(markdown: string): WhatsNew {
  const out: WhatsNew = [];
  for (const raw of markdown.split(/\r?\n/)) {
    const line = raw.trim();
    const heading = /^##\s+(.+)$/.exec(line);
    if (heading) out.push({ version: heading[1].trim(), items: [] });
    else if (out.length > 0 && /^[-*]\s+/.test(line)) out[out.length - 1].items.push(line.replace(/^[-*]\s+/, ''));
  }
  return out;
}

export default async function whatsNewRoutes(app: FastifyInstance): Promise<void> {
  defineRoute(app, {
    method: 'GET',
    url: '/api/keelson-static/whats-new',
    access: Access.anonymous,
    handler: async (): Promise<WhatsNew> => parseChangelog(await readFile(CHANGELOG_FILE, 'utf8')),
  });
}
