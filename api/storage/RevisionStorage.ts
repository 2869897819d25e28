/**
 * Where converted revisions are kept (README "Running at scale"): one interface for every store, so the
 * project store, the viewer's package download and the readers of a revision's files do not depend on a
 * local directory. A revision is addressed by its key, the revisions table's `dir` column
 * (`projects/{NAME}/rev-{N}`, '/'-separated), and its files by name (`{NAME}.sc`, objects.json,
 * properties.json, ...). A new revision is written by the converter into a local staged directory and
 * published under its key in the database transaction that records it (application.md §3 "a revision is
 * visible only when complete"). Two stores (STORAGE, api/storage/storageConfig.ts): directories
 * (DirectoryStorage, the default; a shared file system serves several server processes) and an
 * S3-compatible object store (S3Storage: publish uploads the staged files and writes the revision's manifest
 * last, open streams an object, localDir keeps a local copy).
 */
import path from 'node:path';
import type { Readable } from 'node:stream';

/**
 * A byte range asked for (HTTP Range, RFC 9110 §14.1.2): `start`..`end` inclusive (`end` null: to the end of
 * the file), or the last `suffix` bytes.
 */
export type RangeRequest = { start: number; end: number | null } | { suffix: number };

/** One file of a stored revision opened for reading. */
export interface StoredFile {
  /** Size of the whole file in bytes. */
  size: number;
  /** First byte the stream holds (0 without a range). */
  start: number;
  /** Last byte the stream holds, inclusive (size - 1 without a range; -1 for an empty file). */
  end: number;
  /** The file's bytes start..end (the caller consumes or destroys it). */
  stream: Readable;
}

/** The store of converted revisions. */
export interface RevisionStorage {
  /** What the revisions are kept in. */
  readonly kind: 'directory' | 's3';

  /**
   * Stores on another server (S3): checks that it answers (readiness, GET /api/ready). @throws
   * StorageUnavailable naming the store when it does not.
   */
  check?(): Promise<void>;

  /**
   * A fresh, empty local directory for the files of the revision that conversion `conversionId` of
   * project `project` writes (kept out of every listing until published).
   */
  stage(project: string, conversionId: string): Promise<string>;

  /**
   * Does the slow part of publishing `staged` ahead of it, outside the database transaction that records the
   * revision (S3: uploads its files; directories: nothing), without making anything visible. Optional:
   * publish prepares what was not prepared. @throws the store's error; then nothing of it is stored.
   */
  prepare(staged: string): Promise<void>;

  /** Drops what prepare stored for `staged` when it will not be published (the transaction failed). */
  discard(staged: string): Promise<void>;

  /**
   * Stores the staged directory `staged` as revision `key`, replacing anything stored under `key`; the
   * staged directory is gone afterwards. @throws the store's error; then nothing is stored under `key`.
   */
  publish(staged: string, key: string): Promise<void>;

  /** Removes revision `key` with all its files; a missing one is no error. */
  remove(key: string): Promise<void>;

  /** Removes every revision and staged directory of project `project`. */
  removeProject(project: string): Promise<void>;

  /**
   * Start-up clean-up: removes the staged directories of the conversions `staleIds` (they cannot finish)
   * and every stored revision whose key is not in `referenced` (left by a process stopped between
   * publishing and committing). Errors are ignored: a leftover is harmless, a refused start is not.
   */
  removeLeftovers(referenced: ReadonlySet<string>, staleIds: readonly string[]): Promise<void>;

  /**
   * Opens file `file` of revision `key` for streaming (the viewer's package download), whole or only the
   * bytes of `range`.
   * @throws StoredFileMissing when the revision or the file does not exist; RangeNotSatisfiable when
   * `range` starts past the end of the file; StorageUnavailable when the store cannot be reached.
   */
  open(key: string, file: string, range?: RangeRequest): Promise<StoredFile>;

  /**
   * A local directory holding revision `key`'s files, for readers that take a path (the parsed-revision
   * cache, the comparison worker, the CAD lists). The directory store answers its own directory.
   */
  localDir(key: string): Promise<string>;
}

/** A revision or one of its files is not in the store. */
export class StoredFileMissing extends Error {
  constructor(
    readonly key: string,
    readonly file: string,
  ) {
    super(`File ${file} of revision ${key} is not stored`);
    this.name = 'StoredFileMissing';
  }
}

/** A range asked for lies outside the file (HTTP 416). */
export class RangeNotSatisfiable extends Error {
  constructor(readonly size: number) {
    super(`The range asked for is outside the file of ${size} bytes`);
    this.name = 'RangeNotSatisfiable';
  }
}

/** The store cannot be reached or refused the call (an object store's endpoint down, a wrong bucket or key). */
export class StorageUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StorageUnavailable';
  }
}

/**
 * The first and last (inclusive) byte of `range` in a file of `size` bytes: the whole file without a range,
 * `end` clamped to the file (RFC 9110 §14.1.2).
 * @throws RangeNotSatisfiable when the range starts at or past the end (or is an empty suffix).
 */
export function resolveRange(range: RangeRequest | undefined, size: number): { start: number; end: number } {
  if (!range) return { start: 0, end: size - 1 };
  if ('suffix' in range) {
    if (range.suffix <= 0 || size === 0) throw new RangeNotSatisfiable(size);
    return { start: Math.max(0, size - range.suffix), end: size - 1 };
  }
  if (range.start >= size) throw new RangeNotSatisfiable(size);
  return { start: range.start, end: Math.min(size - 1, range.end ?? size - 1) };
}

/**
 * A revision key checked and normalised ('/'-separated, relative): keys come from the database, and a
 * damaged row must not reach other files or objects.
 * @throws Error 'Revision key K is outside the revision store' for an absolute key, '.' or one leaving the
 * store ('..').
 */
export function checkedKey(key: string): string {
  const rel = path.posix.normalize(key.replaceAll('\\', '/')).replace(/\/+$/, '');
  if (path.posix.isAbsolute(rel) || rel === '.' || rel === '..' || rel.startsWith('../'))
    throw new Error(`Revision key ${key} is outside the revision store`);
  return rel;
}
