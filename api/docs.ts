/**
 * The user guide at /docs/ (application.md §2 "Application shell": Help opens /docs/ of the same host in a
 * new tab). The Markdown files of the repository's docs/ directory are rendered to HTML with `marked`:
 * `/docs/` shows docs/user-guide.md with a list of the other pages, `/docs/{file}.md` one page. Public (a
 * new tab carries no bearer token) and outside /api, so it needs no access rule.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { marked } from 'marked';

/** The documentation directory shipped with Keelson. */
export const DOCS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../docs');

/** The page /docs/ opens with. */
export const USER_GUIDE = 'user-guide.md';

const PAGE_RE = /^[A-Za-z0-9_-]+\.md$/;

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** A rendered page: the Markdown as HTML inside Keelson's documentation frame with links to every page. */
export async function renderDocPage(file: string, pages: string[]): Promise<string> {
  const body = await marked.parse(await readFile(path.join(DOCS_DIR, file), 'utf8'));
  const nav = pages
    .map((p) => {
      const href = p === USER_GUIDE ? '/docs/' : `/docs/${p}`;
      return `<li><a href="${href}"${p === file ? ' aria-current="page"' : ''}>${escapeHtml(p.replace(/\.md$/, ''))}</a></li>`;
    })
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Keelson documentation</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font-family:system-ui,sans-serif;margin:0;display:flex;color:#1e293b;line-height:1.55}
nav{width:14rem;padding:1.5rem;background:#f1f5f9;min-height:100vh;box-sizing:border-box}
nav ul{list-style:none;padding:0}nav a[aria-current]{font-weight:600}
main{max-width:52rem;padding:1.5rem 2.5rem}code,pre{background:#f1f5f9;border-radius:4px}
pre{padding:.75rem;overflow:auto}table{border-collapse:collapse}td,th{border:1px solid #cbd5e1;padding:.25rem .5rem}
</style></head>
<body><nav><strong>Keelson</strong><ul>${nav}</ul></nav><main>${body}</main></body></html>`;
}

/** The Markdown pages of docs/, the user guide first. */
async function listPages(): Promise<string[]> {
  const files = (await readdir(DOCS_DIR)).filter((f) => PAGE_RE.test(f)).sort();
  return [USER_GUIDE, ...files.filter((f) => f !== USER_GUIDE)];
}

async function send(reply: FastifyReply, page: string): Promise<FastifyReply> {
  const pages = await listPages();
  if (!pages.includes(page))
    return reply.code(404).type('text/plain; charset=utf-8').send(`No documentation page ${page}`);
  return reply.type('text/html; charset=utf-8').send(await renderDocPage(page, pages));
}

/** Registers /docs, /docs/ and /docs/{page}. */
export async function registerDocs(app: FastifyInstance): Promise<void> {
  app.get('/docs', (_request, reply) => reply.redirect('/docs/'));
  app.get('/docs/', (_request, reply) => send(reply, USER_GUIDE));
  app.get<{ Params: { page: string } }>('/docs/:page', (request, reply) => send(reply, request.params.page));
}
