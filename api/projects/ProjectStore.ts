/**
 * Projects and revisions in the database and the revision store (application.md §3 "Model / project";
 * api/storage/RevisionStorage.ts, by default directories: DATA_DIR/projects/{NAME}/rev-{N}/ holding
 * `{NAME}.sc`, objects.json, properties.json, thumbnail.png). A revision becomes visible only when
 * completely written: the converter writes into a staged directory (createTempDir), and commitRevision
 * publishes it under the revision's key and inserts the row in one transaction.
 */
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Kysely, Selectable } from 'kysely';
import type { DB, RevisionsTable } from '../db/database';
import { Errors } from '../errors';
import type { ConvertOutput } from '../conversion/convertFile';
import { DirectoryStorage } from '../storage/DirectoryStorage';
import type { RevisionStorage } from '../storage/RevisionStorage';

export type RevisionRow = Selectable<RevisionsTable>;

/** Project names: letters, digits, space, '_', '-', '.'; not starting with '.'; at most 100 characters. */
const NAME_RE = /^[A-Z0-9_\- ][A-Z0-9_\-. ]{0,99}$/;

/**
 * Normalises a project name (trim, upper-case).
 * @throws ApiError 400 "Invalid field 'projectName': ..." when it has other characters.
 */
export function normaliseProjectName(raw: string): string {
  const name = raw.trim().toUpperCase();
  if (!name) throw Errors.badRequest("Invalid field 'projectName': Field is required");
  if (!NAME_RE.test(name))
    throw Errors.badRequest(
      "Invalid field 'projectName': Use letters, digits, spaces, '_', '-' and '.' (at most 100 characters)",
    );
  return name;
}

/** A project name derived from a file name: base name without extension, other characters → '_'. */
export function projectNameFromFile(fileName: string): string {
  const base = path
    .basename(fileName)
    .replace(/\.(zip)$/i, '')
    .replace(/\.(3docx|ocx|xml)$/i, '');
  const cleaned = base
    .toUpperCase()
    .replace(/[^A-Z0-9_\-. ]/g, '_')
    .replace(/^\.+/, '')
    .slice(0, 100);
  return cleaned || 'PROJECT';
}

/** Reads and changes projects and revisions. */
export class ProjectStore {
  /**
   * @param dataDir DATA_DIR (uploads, CAD files, cached comparisons).
   * @param storage Where the revisions' files are kept (default: directories in DATA_DIR).
   */
  constructor(
    private readonly db: Kysely<DB>,
    readonly dataDir: string,
    readonly storage: RevisionStorage = new DirectoryStorage(dataDir),
  ) {}

  /** DATA_DIR/projects/{NAME}. */
  projectDir(name: string): string {
    return path.join(this.dataDir, 'projects', name);
  }

  /** DATA_DIR/projects/{NAME}/cad: the project's CAD component files (issue "CAD components" §1), by file name. */
  cadDir(name: string): string {
    return path.join(this.projectDir(name), 'cad');
  }

  /** A local directory holding the files of a revision row (RevisionStorage.localDir of its key). */
  revisionDir(row: RevisionRow): Promise<string> {
    return this.storage.localDir(row.dir);
  }

  /** All projects with their revisions, newest revision first; projects sorted by name. */
  async list(): Promise<{ name: string; revisions: RevisionRow[] }[]> {
    const projects = await this.db.selectFrom('projects').select(['id', 'name']).orderBy('name').execute();
    const revs = await this.db.selectFrom('revisions').selectAll().orderBy('number', 'desc').execute();
    const byProject = new Map<number, RevisionRow[]>();
    for (const r of revs) {
      const list = byProject.get(r.project_id);
      if (list) list.push(r);
      else byProject.set(r.project_id, [r]);
    }
    return projects.map((p) => ({ name: p.name, revisions: byProject.get(p.id) ?? [] }));
  }

  /** The revisions of one project, newest first; [] when the project does not exist. */
  async revisions(name: string): Promise<RevisionRow[]> {
    return this.db
      .selectFrom('revisions')
      .innerJoin('projects', 'projects.id', 'revisions.project_id')
      .selectAll('revisions')
      .where('projects.name', '=', name)
      .orderBy('revisions.number', 'desc')
      .execute();
  }

  /** True when a project of this name has at least one revision. */
  async exists(name: string): Promise<boolean> {
    return (await this.revisions(name)).length > 0;
  }

  /**
   * One revision ('latest' = highest number).
   * @throws ApiError 404 when the project or revision does not exist.
   */
  async revision(name: string, revision: number | 'latest'): Promise<RevisionRow> {
    const revs = await this.revisions(name);
    if (revs.length === 0) throw Errors.projectNotFound(name);
    const row = revision === 'latest' ? revs[0] : revs.find((r) => r.number === revision);
    if (!row) throw Errors.revisionNotFound(name, revision);
    return row;
  }

  /**
   * Makes a converted temp directory a revision: a new revision (highest + 1, starting at 1) or, with
   * `replace` and an existing revision, the latest one replaced in place (same number). The rename and
   * the row change happen in one transaction; on failure nothing visible changes.
   * @returns the revision number.
   */
  async commitRevision(input: {
    name: string;
    tmpDir: string;
    description: string;
    replace: boolean;
    output: ConvertOutput;
    /** The conversion: marked Ready in the same transaction, so a crash right after leaves the right status. */
    conversionId?: string;
    /** E-mail of the user who added the project: a new project gives this user (if not the administrator) access. */
    startedBy?: string;
  }): Promise<number> {
    const { name, tmpDir, description, replace, output, conversionId, startedBy } = input;
    const now = new Date().toISOString();
    const info = JSON.stringify({
      modelName: name,
      scFile: output.scFile,
      bytes: output.bytes,
      triangles: output.triangles,
      objectCount: output.objectCount,
      schemaVersion: output.schemaVersion,
      originatingSystem: output.originatingSystem,
      ...(output.options ? { conversionOptions: output.options } : {}),
    });
    let oldKey: string | null = null;
    let oldConversion: string | null = null;
    // The slow part (an object store's upload) before the write transaction, so it holds no lock meanwhile.
    await this.storage.prepare(tmpDir);
    const number = await this.db
      .transaction()
      .execute(async (trx) => {
        let project = await trx.selectFrom('projects').select('id').where('name', '=', name).executeTakeFirst();
        if (!project) {
          project = await trx
            .insertInto('projects')
            .values({ name, created_at: now })
            .returning('id')
            .executeTakeFirstOrThrow();
          const starter = startedBy
            ? await trx
                .selectFrom('users')
                .select('id')
                .where('email', '=', startedBy)
                .where('user_type', '!=', 'administrator')
                .executeTakeFirst()
            : undefined;
          if (starter)
            await trx
              .insertInto('project_access')
              .values({ user_id: starter.id, project_name: name, valid_until: null })
              .onConflict((oc) => oc.doNothing())
              .execute();
        }
        // Only an unfinished conversion completes, and only once: a cancel from another process, or a
        // second process retrying the job, rolls this commit back instead of adding a second revision.
        const markReady = async (n: number) => {
          if (!conversionId) return;
          const r = await trx
            .updateTable('conversions')
            .set({ status: 2, progress: 100, message: `Revision ${n} is ready`, finished_at: now, worker: null })
            .where('id', '=', conversionId)
            .where('finished_at', 'is', null)
            .executeTakeFirst();
          if (Number(r.numUpdatedRows) !== 1)
            throw Object.assign(new Error('Conversion canceled'), { name: 'AbortError' });
        };
        const latest = await trx
          .selectFrom('revisions')
          .selectAll()
          .where('project_id', '=', project.id)
          .orderBy('number', 'desc')
          .executeTakeFirst();
        const values = {
          description,
          last_updated: now,
          thumbnail: output.thumbnail,
          info,
          warnings: output.warnings,
          conversion_id: conversionId ?? null,
        };
        if (replace && latest) {
          const relDir = path.join(
            'projects',
            name,
            `rev-${latest.number}-${path.basename(tmpDir).replace(/^\.tmp-/, '')}`,
          );
          await trx
            .updateTable('revisions')
            .set({ ...values, dir: relDir })
            .where('id', '=', latest.id)
            .execute();
          await markReady(latest.number);
          await this.storage.publish(tmpDir, relDir);
          oldKey = latest.dir;
          oldConversion = latest.conversion_id;
          return latest.number;
        }
        const n = (latest?.number ?? 0) + 1;
        const relDir = path.join('projects', name, `rev-${n}`);
        await trx
          .insertInto('revisions')
          .values({ ...values, project_id: project.id, number: n, dir: relDir })
          .execute();
        await markReady(n);
        await this.storage.publish(tmpDir, relDir);
        return n;
      })
      .catch(async (e: unknown) => {
        await this.storage.discard(tmpDir).catch(() => {});
        throw e;
      });
    // Open readers keep their file handles; the replaced files go once the row points elsewhere.
    // The revision is committed: a leftover old directory must not turn the conversion into a failure.
    if (oldKey) await this.storage.remove(oldKey).catch(() => {});
    // The replaced revision's uploaded original goes with it.
    if (oldConversion && oldConversion !== conversionId) await this.removeUploads([oldConversion]);
    return number;
  }

  /**
   * Start-up clean-up after a process that stopped mid-conversion, for the conversions `staleIds` (left
   * InProgress; they cannot finish): their staged revisions (never visible), revisions no row points to
   * (a process killed between publishing a revision and committing its row, or before removing a replaced
   * revision), project directories left empty by them, and their uploads/{id}-* files (the original and
   * the extracted archive entry). It runs as a write transaction, so another server process's commit is
   * either finished (its revision referenced) or not begun, and only the staged revisions of `staleIds` go
   * (other processes' running conversions keep theirs). Errors are ignored: a leftover is harmless, a
   * refused start is not.
   */
  async removeLeftovers(staleIds: string[]): Promise<void> {
    await this.db
      .transaction()
      .execute(async (trx) => {
        const referenced = new Set((await trx.selectFrom('revisions').select('dir').execute()).map((r) => r.dir));
        await this.storage.removeLeftovers(referenced, staleIds);
      })
      .catch(() => {});
    await this.removeUploads(staleIds);
  }

  /** Removes the stored uploads (uploads/{id}-*) of these conversions. Errors are ignored. */
  async removeUploads(conversionIds: string[]): Promise<void> {
    if (conversionIds.length === 0) return;
    const uploads = path.join(this.dataDir, 'uploads');
    for (const f of await readdir(uploads).catch(() => [] as string[])) {
      if (conversionIds.some((id) => f.startsWith(`${id}-`)))
        await rm(path.join(uploads, f), { recursive: true, force: true }).catch(() => {});
    }
  }

  /** A fresh staged directory for a conversion's revision (RevisionStorage.stage; DATA_DIR/projects/{NAME}/.tmp-{id}). */
  createTempDir(name: string, conversionId: string): Promise<string> {
    return this.storage.stage(name, conversionId);
  }

  /**
   * Deletes a project: its revisions, saved sections, access rows, files and the uploaded originals of
   * its conversions. @throws ApiError 404 when unknown.
   */
  async deleteProject(name: string): Promise<void> {
    const p = await this.db.selectFrom('projects').select('id').where('name', '=', name).executeTakeFirst();
    if (!p) throw Errors.projectNotFound(name);
    const conversions = await this.db.selectFrom('conversions').select('id').where('project_name', '=', name).execute();
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('revisions').where('project_id', '=', p.id).execute();
      await trx.deleteFrom('ship_sections').where('project_name', '=', name).execute();
      await trx.deleteFrom('project_access').where('project_name', '=', name).execute();
      await trx.deleteFrom('projects').where('id', '=', p.id).execute();
    });
    await this.storage.removeProject(name);
    await rm(this.projectDir(name), { recursive: true, force: true });
    await this.removeUploads(conversions.map((c) => c.id));
  }

  /**
   * Deletes one revision (application.md §6: only when more than one exists) with its files and the
   * uploaded original it was converted from.
   * @throws ApiError 404 for an unknown revision, 400 for the only revision.
   */
  async deleteRevision(name: string, number: number): Promise<void> {
    const revs = await this.revisions(name);
    const row = revs.find((r) => r.number === number);
    if (!row) throw Errors.revisionNotFound(name, number);
    if (revs.length < 2) throw Errors.lastRevision();
    await this.db.deleteFrom('revisions').where('id', '=', row.id).execute();
    await this.storage.remove(row.dir);
    if (row.conversion_id) await this.removeUploads([row.conversion_id]);
  }
}
