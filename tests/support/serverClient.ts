/**
 * A small HTTP client for tests that drive a real server process (tests/browser/support/keelsonServer.ts)
 * through its public API: sign-up, upload, conversion status, comments and the data directory's leftovers.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** One reply: status and parsed JSON body (null when the body is not JSON). */
export interface Reply {
  status: number;
  json: unknown;
}

/** A client of the server at `base` signed in with `token` (none for anonymous calls). */
export class ServerClient {
  constructor(
    readonly base: string,
    public token = '',
  ) {}

  /** One call; `body` is sent as JSON, a FormData as multipart. A refused connection rejects. */
  async call(method: string, url: string, body?: unknown): Promise<Reply> {
    const headers: Record<string, string> = this.token ? { authorization: `Bearer ${this.token}` } : {};
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const r = await fetch(`${this.base}${url}`, { method, headers, body: payload });
    const text = await r.text();
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: r.status, json };
  }

  /** Registers `email` (administrator when `admin`) and signs in; keeps the token. */
  async signUp(email: string, admin = false): Promise<void> {
    const password = 'secret-password';
    const r = await this.call('POST', '/api/auth/viewer/default/register', {
      email,
      password,
      fullName: email.split('@')[0],
      requirePasswordReset: false,
      adminEmail: '',
      registerAdmin: admin,
    });
    if (r.status !== 200) throw new Error(`register ${email}: ${r.status} ${JSON.stringify(r.json)}`);
    await this.signIn(email);
  }

  /** Signs in `email` (password of signUp); keeps the token. */
  async signIn(email: string): Promise<void> {
    const l = await this.call('POST', '/api/auth/viewer/default/login', { email, password: 'secret-password' });
    if (l.status !== 200) throw new Error(`login ${email}: ${l.status} ${JSON.stringify(l.json)}`);
    this.token = (l.json as { token: string }).token;
  }

  /** Uploads `content` as project `name`; returns the reply (conversionId on 200). */
  upload(name: string, fileName: string, content: Buffer): Promise<Reply> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(content)]), fileName);
    return this.call('POST', `/api/viewer/project/add/project-uploaded?projectName=${encodeURIComponent(name)}`, form);
  }

  /** GET model-conversion of `name`: status (1 running, 2 done, 3 cancelled, 4 failed), progress, message. */
  async conversion(
    name: string,
  ): Promise<{ status: number; progress: number; message: string; error?: string } | null> {
    const r = await this.call('GET', `/api/viewer/project/model-conversion?projectName=${encodeURIComponent(name)}`);
    return r.status === 200 ? (r.json as { status: number; progress: number; message: string; error?: string }) : null;
  }

  /** Polls the conversion of `name` until `done` holds for it (at most `ms`). @throws Error on time-out. */
  async waitConversion(
    name: string,
    done: (c: { status: number; progress: number }) => boolean,
    ms = 120_000,
  ): Promise<{ status: number; progress: number; message: string; error?: string }> {
    const deadline = Date.now() + ms;
    for (;;) {
      const c = await this.conversion(name);
      if (c && done(c)) return c;
      if (Date.now() > deadline) throw new Error(`conversion of ${name}: ${JSON.stringify(c)} after ${ms} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** GET maintenance/status of the latest revision: 200 'Ok' when a revision is there, 404 when none. */
  async revisionStatus(name: string): Promise<number> {
    return (
      await this.call(
        'GET',
        `/api/keelson-instance/maintenance/status?modelName=${encodeURIComponent(name)}&modelRevision=latest`,
      )
    ).status;
  }
}

/**
 * What a data directory holds besides the database and the secret: files under uploads/, and per project
 * directory its entries (revision directories rev-*, temporary .tmp-* ones).
 */
export function leftovers(dataDir: string): { uploads: string[]; projects: Record<string, string[]> } {
  const list = (d: string) => (existsSync(d) ? readdirSync(d) : []);
  const projects: Record<string, string[]> = {};
  for (const p of list(path.join(dataDir, 'projects'))) projects[p] = list(path.join(dataDir, 'projects', p));
  return { uploads: list(path.join(dataDir, 'uploads')), projects };
}

/**
 * Every file under a data directory `dir` (relative path → size in bytes), leaving out the database's own
 * files: what a refused request must leave as it found.
 */
export function dataFiles(dir: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const p = path.join(e.parentPath, e.name);
    if (e.isFile() && !/\.(db|sqlite)(-wal|-shm|-journal)?$/.test(e.name))
      out[path.relative(dir, p)] = statSync(p).size;
  }
  return out;
}
