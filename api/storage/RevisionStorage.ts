/**
 * Where converted revisions are kept (README "Running at scale"): one interface for every store, so the
 * project store, the viewer's package download and the readers of a revision's files do not depend on a
 * local directory. A revision is addressed by its key, the revisions table's `dir` column
 * (`projects/{NAME}/rev-{N}`, '/'-separated), and its files by name (`{NAME}.sc`, objects.json,
 * properties.json, ...). A new revision is written by the converter into a local staged directory and
 * published under its key in the database transaction that records it (application.md §3 "a revision is
 * visible only when complete"). The directory store (DirectoryStorage) is the default and the only one
 * today; a shared file system serves several server processes. An object store (S3) would implement
 * the same methods: publish uploads the staged files, open streams an object, localDir keeps a local copy.
 */
import type { Readable } from 'node:stream';

/** One file of a stored revision opened for reading. */
export interface StoredFile {
  /** Size in bytes. */
  size: number;
  /** The file's bytes from the start (the caller consumes or destroys it). */
  stream: Readable;
}

/** The store of converted revisions. */
export interface RevisionStorage {
  /** What the revisions are kept in. */
  readonly kind: 'directory';

  /**
   * A fresh, empty local directory for the files of the revision that conversion `conversionId` of
   * project `project` writes (kept out of every listing until published).
   */
  stage(project: string, conversionId: string): Promise<string>;

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
   * Opens file `file` of revision `key` for streaming (the viewer's package download).
   * @throws StoredFileMissing when the revision or the file does not exist.
   */
  open(key: string, file: string): Promise<StoredFile>;

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
