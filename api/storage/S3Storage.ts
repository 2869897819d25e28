/**
 * The S3-compatible object store of converted revisions (api/storage/RevisionStorage.ts; STORAGE=s3, README
 * "Running at scale"), through @aws-sdk/client-s3. Revision `K` (`projects/{NAME}/rev-{N}`) is kept as
 *
 *   projects/{NAME}/{generation}/{file}   the revision's files (nested paths '/'-separated), one object each
 *   K/manifest.json                       `{ prefix, generation, files: { name: bytes } }`, written last
 *
 * where the generation is `.rev-{conversion id}-{random}`. Readers trust only the manifest (application.md §3
 * "a revision is visible only when complete"): prepare uploads the files under a fresh generation before the
 * database transaction that records the revision (so the write lock is not held during the upload), and
 * publish, inside it, writes the manifest in one PUT (atomic in S3): a revision appears whole or not at all. A
 * failed upload removes its generation's objects before throwing; discard removes a prepared generation that
 * will not be published. Removal deletes the manifest first. Staging stays local (DATA_DIR/projects/{NAME}/.tmp-{id}, as in the
 * directory store: the converter writes files), and localDir keeps a local copy per generation under
 * DATA_DIR/cache/revisions, downloaded whole into a private directory and renamed into place.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { DirectoryStorage } from './DirectoryStorage';
import {
  checkedKey,
  type RangeRequest,
  type RevisionStorage,
  resolveRange,
  type StoredFile,
  StoredFileMissing,
  StorageUnavailable,
} from './RevisionStorage';

/** How Keelson reaches its bucket (README "Configuration": the S3_* variables). */
export interface S3Settings {
  /** Endpoint URL (`http://127.0.0.1:9000`); empty: AWS's own endpoint of `region`. */
  endpoint: string;
  bucket: string;
  region: string;
  /** Empty: the SDK's default credential chain (AWS_* variables, instance role ...). */
  accessKeyId: string;
  secretAccessKey: string;
  /** Bucket in the path (`endpoint/bucket/key`) instead of the host name (MinIO, Ceph, s3rver). */
  forcePathStyle: boolean;
}

/** The revision's table of contents, written last. */
interface Manifest {
  /** Where its files are: `projects/{NAME}/{generation}/`. */
  prefix: string;
  /** `.rev-{conversion id}-{random}`. */
  generation: string;
  /** File name ('/'-separated below the revision) → size in bytes. */
  files: Record<string, number>;
}

const MANIFEST = 'manifest.json';
/** First characters of a generation's name (never a revision key's, which start with `rev-`). */
const GENERATION_PREFIX = '.rev-';
/** Files uploaded at once while publishing. */
const UPLOADS_AT_ONCE = 4;

/** The HTTP status of an SDK error (undefined for a network error). */
const statusOf = (e: unknown): number | undefined =>
  (e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
const isMissing = (e: unknown) => {
  const name = (e as Error).name;
  return name === 'NoSuchKey' || name === 'NotFound' || statusOf(e) === 404;
};

/** Revisions as objects of one bucket; `dataDir` (DATA_DIR) holds the staged revisions and local copies. */
export class S3Storage implements RevisionStorage {
  readonly kind = 's3' as const;
  private readonly client: S3Client;
  /** Staging (and its sweep) is the directory store's. */
  private readonly local: DirectoryStorage;
  private readonly cacheRoot: string;
  /** Staged directory → its uploaded, not yet published generation. */
  private readonly prepared = new Map<string, Manifest>();

  constructor(
    readonly settings: S3Settings,
    private readonly dataDir: string,
  ) {
    const credentials = settings.accessKeyId
      ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
      : undefined;
    this.client = new S3Client({
      region: settings.region,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      forcePathStyle: settings.forcePathStyle,
      ...(credentials ? { credentials } : {}),
      // Checksums only where S3 requires them (DeleteObjects): the SDK's default sends uploads as
      // aws-chunked bodies with a trailing CRC32, which S3-compatible servers such as s3rver store verbatim.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    this.local = new DirectoryStorage(dataDir);
    this.cacheRoot = path.join(dataDir, 'cache', 'revisions');
  }

  /** Where the bucket is, for messages. */
  private where(): string {
    return `bucket "${this.settings.bucket}"${this.settings.endpoint ? ` at ${this.settings.endpoint}` : ''}`;
  }

  /** Runs an SDK call; an unreachable endpoint or a refusal becomes StorageUnavailable naming the bucket. */
  private async call<T>(what: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (e) {
      if (isMissing(e)) throw e;
      const status = statusOf(e);
      const why = status ? `${(e as Error).name} (HTTP ${status})` : (e as Error).message || (e as Error).name;
      throw new StorageUnavailable(`The S3 revision store (${this.where()}) failed to ${what}: ${why}`, {
        cause: e,
      });
    }
  }

  /**
   * Checks that the bucket answers (at start, so a wrong setting stops the server with a clear message).
   * @throws StorageUnavailable naming the bucket and the endpoint.
   */
  async check(): Promise<void> {
    try {
      await this.call('open the bucket', () =>
        this.client.send(new HeadBucketCommand({ Bucket: this.settings.bucket })),
      );
    } catch (e) {
      if (isMissing(e))
        throw new StorageUnavailable(`The S3 revision store's ${this.where()} does not exist`, { cause: e });
      throw e;
    }
  }

  stage(project: string, conversionId: string): Promise<string> {
    return this.local.stage(project, conversionId);
  }

  /**
   * Uploads the staged directory's files under a fresh generation of its project (once; publish then only
   * writes the manifest). Invisible to readers until published.
   * @throws StorageUnavailable; then nothing of it is stored.
   */
  async prepare(staged: string): Promise<void> {
    if (this.prepared.has(staged)) return;
    const project = checkedKey(path.relative(this.dataDir, path.dirname(staged)).split(path.sep).join('/'));
    const conversion = path.basename(staged).replace(/^\.tmp-/, '');
    const generation = `${GENERATION_PREFIX}${conversion}-${randomUUID().slice(0, 8)}`;
    const prefix = `${project}/${generation}/`;
    const files = await listFiles(staged);
    const manifest: Manifest = { prefix, generation, files: {} };
    for (const f of files) manifest.files[f.name] = f.size;
    try {
      for (let i = 0; i < files.length; i += UPLOADS_AT_ONCE) {
        // Every upload of the batch settles before a failure is acted on: the clean-up below must not run
        // while a sibling upload can still land after it.
        const settled = await Promise.allSettled(
          files.slice(i, i + UPLOADS_AT_ONCE).map((f) =>
            this.call(`store ${prefix}${f.name}`, () =>
              this.client.send(
                new PutObjectCommand({
                  Bucket: this.settings.bucket,
                  Key: prefix + f.name,
                  Body: createReadStream(path.join(staged, f.name)),
                  ContentLength: f.size,
                }),
              ),
            ),
          ),
        );
        const failed = settled.find((r) => r.status === 'rejected');
        if (failed) throw failed.reason;
      }
    } catch (e) {
      await this.deletePrefix(prefix).catch(() => {});
      throw e;
    }
    this.prepared.set(staged, manifest);
  }

  /** Removes what prepare uploaded for `staged` when it is not going to be published. */
  async discard(staged: string): Promise<void> {
    const m = this.prepared.get(staged);
    if (!m) return;
    this.prepared.delete(staged);
    await this.deletePrefix(m.prefix);
  }

  async publish(staged: string, key: string): Promise<void> {
    const k = checkedKey(key);
    await this.prepare(staged);
    const manifest = this.prepared.get(staged) as Manifest;
    this.prepared.delete(staged);
    let old: Manifest | null;
    try {
      old = await this.manifest(k);
      await this.call(`store ${k}/${MANIFEST}`, () =>
        this.client.send(
          new PutObjectCommand({
            Bucket: this.settings.bucket,
            Key: `${k}/${MANIFEST}`,
            Body: JSON.stringify(manifest),
            ContentType: 'application/json',
          }),
        ),
      );
    } catch (e) {
      // Nothing half-stored: the new generation goes; the manifest (if any) still names the old one.
      await this.deletePrefix(manifest.prefix).catch(() => {});
      throw e;
    }
    if (old && old.prefix !== manifest.prefix) await this.deletePrefix(old.prefix).catch(() => {});
    await rm(staged, { recursive: true, force: true });
  }

  async remove(key: string): Promise<void> {
    const k = checkedKey(key);
    const m = await this.manifest(k);
    // The manifest first: readers see the revision gone before its files go.
    await this.deleteKeys([`${k}/${MANIFEST}`]);
    if (m) await this.deletePrefix(m.prefix);
    await rm(path.join(this.cacheRoot, k), { recursive: true, force: true });
  }

  /** Also removes the project's local files under DATA_DIR/projects/{NAME} (staged revisions, CAD files). */
  async removeProject(project: string): Promise<void> {
    const dir = checkedKey(`projects/${project}`);
    const manifests = (await this.listKeys(`${dir}/`)).filter((o) => o.endsWith(`/${MANIFEST}`));
    await this.deleteKeys(manifests);
    await this.deletePrefix(`${dir}/`);
    await rm(path.join(this.cacheRoot, dir), { recursive: true, force: true });
    for (const staged of this.prepared.keys())
      if (path.basename(path.dirname(staged)) === project) this.prepared.delete(staged);
    await this.local.removeProject(project);
  }

  /**
   * Also removes, per project, the manifests of unreferenced revisions with the generations they name (a
   * process stopped between publishing and committing, or before removing a replaced revision) and the
   * generations uploaded for the conversions `staleIds` (stopped before publishing). Generations of other
   * conversions are left alone: another process may be about to publish them.
   */
  async removeLeftovers(referenced: ReadonlySet<string>, staleIds: readonly string[]): Promise<void> {
    const keys = new Set([...referenced].map((k) => checkedKey(k)));
    await this.local.removeLeftovers(keys, staleIds).catch(() => {});
    const objects = await this.listKeys('projects/').catch(() => [] as string[]);
    const orphanManifests = objects.filter(
      (o) => o.endsWith(`/${MANIFEST}`) && !keys.has(o.slice(0, -MANIFEST.length - 1)),
    );
    const doomed = new Set<string>();
    for (const o of orphanManifests) {
      const m = await this.manifest(o.slice(0, -MANIFEST.length - 1)).catch(() => null);
      if (m) doomed.add(m.prefix);
    }
    const stale = staleIds.map((id) => `${GENERATION_PREFIX}${id}-`);
    for (const o of objects) {
      const parts = o.split('/');
      if (parts.length > 3 && stale.some((p) => parts[2].startsWith(p))) doomed.add(`${parts.slice(0, 3).join('/')}/`);
    }
    await this.deleteKeys(orphanManifests).catch(() => {});
    for (const prefix of doomed) await this.deletePrefix(prefix).catch(() => {});
  }

  async open(key: string, file: string, range?: RangeRequest): Promise<StoredFile> {
    const k = checkedKey(key);
    const m = await this.manifest(k);
    const size = m && Object.hasOwn(m.files, file) ? m.files[file] : undefined;
    if (!m || size === undefined || file.includes('/')) throw new StoredFileMissing(key, file);
    const { start, end } = resolveRange(range, size);
    if (size === 0) return { size, start, end, stream: Readable.from([]) };
    try {
      const r = await this.call(`read ${k}/${file}`, () =>
        this.client.send(
          new GetObjectCommand({
            Bucket: this.settings.bucket,
            Key: `${m.prefix}${file}`,
            ...(range ? { Range: `bytes=${start}-${end}` } : {}),
          }),
        ),
      );
      return { size, start, end, stream: r.Body as Readable };
    } catch (e) {
      // Removed (or replaced) by another process since the manifest was read.
      if (isMissing(e)) throw new StoredFileMissing(key, file);
      throw e;
    }
  }

  /**
   * DATA_DIR/cache/revisions/{key}/{generation}: the revision's files, downloaded on first use. Several
   * readers (or processes on a shared DATA_DIR) may download at once: each into its own directory, the first
   * rename wins.
   * @throws StoredFileMissing when the revision is not stored; StorageUnavailable.
   */
  async localDir(key: string): Promise<string> {
    const k = checkedKey(key);
    const m = await this.manifest(k);
    if (!m) throw new StoredFileMissing(key, MANIFEST);
    const dir = path.join(this.cacheRoot, k, m.generation);
    if (
      await stat(dir).then(
        (s) => s.isDirectory(),
        () => false,
      )
    )
      return dir;
    const tmp = `${dir}.tmp-${randomUUID()}`;
    try {
      await mkdir(tmp, { recursive: true, mode: 0o700 });
      for (const [name, size] of Object.entries(m.files)) {
        const target = path.join(tmp, ...name.split('/'));
        await mkdir(path.dirname(target), { recursive: true });
        if (size === 0) {
          await writeFile(target, '');
          continue;
        }
        const r = await this.call(`read ${k}/${name}`, () =>
          this.client.send(new GetObjectCommand({ Bucket: this.settings.bucket, Key: `${m.prefix}${name}` })),
        );
        await pipeline(r.Body as Readable, createWriteStream(target));
      }
      // Older generations of this key (replaced in place) are no longer read.
      for (const e of await readdir(path.dirname(dir)).catch(() => [] as string[]))
        if (e !== m.generation && !e.includes('.tmp-'))
          await rm(path.join(path.dirname(dir), e), { recursive: true, force: true });
      await rename(tmp, dir).catch(async (e: NodeJS.ErrnoException) => {
        if (e.code !== 'ENOTEMPTY' && e.code !== 'EEXIST') throw e;
      });
    } catch (e) {
      if (isMissing(e)) throw new StoredFileMissing(key, MANIFEST);
      throw e;
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
    return dir;
  }

  /** The manifest of key `k`; null when none is stored. */
  private async manifest(k: string): Promise<Manifest | null> {
    try {
      const r = await this.call(`read ${k}/${MANIFEST}`, () =>
        this.client.send(new GetObjectCommand({ Bucket: this.settings.bucket, Key: `${k}/${MANIFEST}` })),
      );
      const body = await r.Body?.transformToString('utf8');
      const m = JSON.parse(body ?? '') as Manifest;
      if (
        typeof m.prefix !== 'string' ||
        typeof m.generation !== 'string' ||
        typeof m.files !== 'object' ||
        m.files === null
      )
        throw new Error(`The manifest of revision ${k} is damaged`);
      return m;
    } catch (e) {
      if (isMissing(e)) return null;
      throw e;
    }
  }

  /** Every object key under `prefix`. */
  private async listKeys(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const r = await this.call(`list ${prefix}`, () =>
        this.client.send(
          new ListObjectsV2Command({ Bucket: this.settings.bucket, Prefix: prefix, ContinuationToken: token }),
        ),
      );
      for (const o of r.Contents ?? []) if (o.Key) keys.push(o.Key);
      token = r.IsTruncated ? r.NextContinuationToken : undefined;
    } while (token);
    return keys;
  }

  /** Deletes `keys` in order (at most 1000 per call, as S3 allows); missing ones are no error. */
  private async deleteKeys(keys: readonly string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += 1000) {
      const batch = keys.slice(i, i + 1000);
      const r = await this.call('delete objects', () =>
        this.client.send(
          new DeleteObjectsCommand({
            Bucket: this.settings.bucket,
            Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
          }),
        ),
      );
      const failed = (r.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
      if (failed.length > 0)
        throw new StorageUnavailable(
          `The S3 revision store (${this.where()}) failed to delete ${failed[0].Key}: ${failed[0].Code} ${failed[0].Message ?? ''}`.trim(),
        );
    }
  }

  private async deletePrefix(prefix: string): Promise<void> {
    await this.deleteKeys(await this.listKeys(prefix));
  }
}

/** The files below `dir` (recursively), with names '/'-separated relative to it and sizes in bytes. */
async function listFiles(dir: string): Promise<{ name: string; size: number }[]> {
  const out: { name: string; size: number }[] = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile()) continue;
    const full = path.join(e.parentPath, e.name);
    out.push({ name: path.relative(dir, full).split(path.sep).join('/'), size: (await stat(full)).size });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}
