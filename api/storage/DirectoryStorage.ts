/**
 * The directory store of converted revisions (api/storage/RevisionStorage.ts), the default: revision
 * `projects/{NAME}/rev-{N}` is the directory DATA_DIR/projects/{NAME}/rev-{N}; a staged revision is
 * DATA_DIR/projects/{NAME}/.tmp-{conversion id} on the same file system, so publishing it is one rename.
 * Several server processes share it when DATA_DIR is on a shared file system (README "Running at scale").
 */
import { createReadStream } from 'node:fs';
import { mkdir, readdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  checkedKey,
  type RangeRequest,
  type RevisionStorage,
  resolveRange,
  type StoredFile,
  StoredFileMissing,
} from './RevisionStorage';

/** Directory of the staged revision of a conversion, inside its project's directory. */
const stagedName = (conversionId: string) => `.tmp-${conversionId}`;

/** Revisions as directories under `root` (DATA_DIR). */
export class DirectoryStorage implements RevisionStorage {
  readonly kind = 'directory' as const;

  constructor(readonly root: string) {}

  /**
   * The absolute directory of key `key`.
   * @throws Error for a key that is absolute or leaves the store (`..`), see checkedKey.
   */
  private dir(key: string): string {
    return path.join(this.root, checkedKey(key));
  }

  private projectDir(project: string): string {
    return this.dir(path.join('projects', project));
  }

  async stage(project: string, conversionId: string): Promise<string> {
    const dir = path.join(this.projectDir(project), stagedName(conversionId));
    await mkdir(dir, { recursive: true, mode: 0o700 });
    return dir;
  }

  /** Nothing to do ahead: publishing is one rename. */
  async prepare(_staged: string): Promise<void> {}

  /** The staged directory is its conversion's to remove. */
  async discard(_staged: string): Promise<void> {}

  async publish(staged: string, key: string): Promise<void> {
    const target = this.dir(key);
    await rm(target, { recursive: true, force: true });
    await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    await rename(staged, target);
  }

  async remove(key: string): Promise<void> {
    await rm(this.dir(key), { recursive: true, force: true });
  }

  /** Also removes the project's other files kept under its directory (CAD files, cached comparisons). */
  async removeProject(project: string): Promise<void> {
    await rm(this.projectDir(project), { recursive: true, force: true });
  }

  async removeLeftovers(referenced: ReadonlySet<string>, staleIds: readonly string[]): Promise<void> {
    const keys = new Set([...referenced].map((k) => path.normalize(k)));
    const staged = new Set(staleIds.map(stagedName));
    const root = path.join(this.root, 'projects');
    const projectDirs = await readdir(root, { withFileTypes: true }).catch(() => []);
    for (const p of projectDirs) {
      if (!p.isDirectory()) continue;
      const dir = path.join(root, p.name);
      for (const e of await readdir(dir).catch(() => [] as string[])) {
        const orphan = e.startsWith('rev-') && !keys.has(path.join('projects', p.name, e));
        if (staged.has(e) || orphan) await rm(path.join(dir, e), { recursive: true, force: true }).catch(() => {});
      }
      await rmdir(dir).catch(() => {}); // only succeeds when empty
    }
  }

  async open(key: string, file: string, range?: RangeRequest): Promise<StoredFile> {
    if (file !== path.basename(file)) throw new StoredFileMissing(key, file);
    const name = path.join(this.dir(key), file);
    let size: number;
    try {
      const s = await stat(name);
      if (!s.isFile()) throw new StoredFileMissing(key, file);
      size = s.size;
    } catch (e) {
      if (e instanceof StoredFileMissing) throw e;
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') throw new StoredFileMissing(key, file);
      throw e;
    }
    const { start, end } = resolveRange(range, size);
    // A range is never empty (resolveRange); a whole empty file is read without bounds.
    return { size, start, end, stream: createReadStream(name, range ? { start, end } : {}) };
  }

  async localDir(key: string): Promise<string> {
    return this.dir(key);
  }
}
