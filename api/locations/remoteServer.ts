/**
 * Calls to another Keelson server for one of our users (README "Project locations"): its model list and
 * the original file of a project's latest revision, both with a peer token for the user's e-mail, so the
 * other server answers with that user's rights there.
 */
import { createWriteStream } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as v from 'valibot';
import { ModelListSchema } from '../contract/projects';
import { Errors } from '../errors';
import type { ServerLocation } from './locationsConfig';
import { signPeerToken } from './peerTokens';

/** How long a model list may take, ms. */
const LIST_TIMEOUT_MS = 15_000;
/** How long a project file download may take, ms. */
const DOWNLOAD_TIMEOUT_MS = 30 * 60_000;

async function call(
  loc: ServerLocation,
  email: string,
  pathAndQuery: string,
  timeoutMs: number,
  stop?: AbortSignal,
): Promise<Response> {
  const token = await signPeerToken(loc, email);
  const timeout = AbortSignal.timeout(timeoutMs);
  let res: Response;
  try {
    res = await fetch(`${loc.url}${pathAndQuery}`, {
      headers: { authorization: `Bearer ${token}` },
      // The signal also ends the body's stream.
      signal: stop ? AbortSignal.any([timeout, stop]) : timeout,
    });
  } catch (e) {
    throw Errors.remoteServer(loc.url, `unreachable (${(e as Error).message})`);
  }
  if (!res.ok) {
    let message = `HTTP ${res.status}`;
    try {
      const body = (await res.json()) as { message?: unknown };
      if (typeof body.message === 'string') message = body.message;
    } catch {
      // not JSON: the status says enough
    }
    throw Errors.remoteServer(loc.url, message);
  }
  return res;
}

/**
 * Names of the projects with at least one revision that `email` may see on the other server.
 * @throws ApiError 502 naming the server and its answer.
 */
export async function listRemoteProjects(loc: ServerLocation, email: string): Promise<string[]> {
  const res = await call(loc, email, '/api/viewer/project/models', LIST_TIMEOUT_MS);
  const parsed = v.safeParse(ModelListSchema, await res.json().catch(() => null));
  if (!parsed.success) throw Errors.remoteServer(loc.url, 'an unexpected model list');
  return parsed.output.filter((m) => m.revisions.length > 0).map((m) => m.name);
}

/**
 * Downloads the original file of `project`'s latest revision on the other server into `dest`, at most
 * `maxBytes`; `stop` (a withdrawn reservation's signal) ends the download where it is.
 * @returns the file name the other server gives it.
 * @throws ApiError 502 naming the server and its answer (also when the file is larger than `maxBytes`);
 *   the abort's error when `stop` fires.
 */
export async function downloadRemoteProject(
  loc: ServerLocation,
  email: string,
  project: string,
  dest: string,
  maxBytes: number,
  stop?: AbortSignal,
): Promise<string> {
  const res = await call(
    loc,
    email,
    `/api/viewer/project/project-file?projectName=${encodeURIComponent(project)}`,
    DOWNLOAD_TIMEOUT_MS,
    stop,
  );
  if (!res.body) throw Errors.remoteServer(loc.url, 'an empty file');
  const disposition = res.headers.get('content-disposition') ?? '';
  const m = /filename="([^"]+)"/.exec(disposition);
  let seen = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      seen += chunk.length;
      if (seen > maxBytes) cb(Errors.remoteServer(loc.url, `a file larger than ${Math.round(maxBytes / 2 ** 20)} MB`));
      else cb(null, chunk);
    },
  });
  await pipeline(Readable.fromWeb(res.body as never), limit, createWriteStream(dest, { mode: 0o600 }), {
    signal: stop,
  });
  return m ? m[1] : `${project}.3docx`;
}
