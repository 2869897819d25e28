/**
 * Object statuses per project (viewer.md §3 "Approval status", §7 "Geometry approval"; application.md §7
 * "Object status"). A status is stored per project and part key — the part's GUID, or 'id:' + its OCX id when
 * it has none — from the revision in which it was set; the status of a part in revision R is the one set in
 * the highest revision ≤ R, so statuses follow parts by GUID into later revisions while earlier revisions
 * keep what they had. Parts never given a status have the default status. Every change is recorded
 * (who, when, from, to).
 */
import type { Kysely } from 'kysely';
import type { ApprovalHistoryEntry } from '../contract/approval';
import type { DB } from '../db/database';

/** The key a part's status is stored under: its GUID, else 'id:' + its OCX id. */
export const objectKey = (o: { id: string; guid: string | null }): string => o.guid ?? `id:${o.id}`;

/** Keys per SQL statement (well under SQLite's bound-parameter limit). */
const CHUNK = 500;
/** Below this many keys a read asks for the keys; above it reads the project's rows at once. */
const BY_KEY_LIMIT = 2000;

/** Reads and changes object statuses. */
export class ObjectStatuses {
  /** Keys being changed now, per project (readers see `changeInProgress`). */
  private readonly changing = new Map<string, Map<string, number>>();

  constructor(private readonly db: Kysely<DB>) {}

  /**
   * The status ids of `keys` in `revision` of `project` (upper case); keys without a status are absent.
   * @param keys part keys (objectKey); 'all' reads every part of the project
   */
  async read(project: string, revision: number, keys: readonly string[] | 'all'): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    // Rows come in primary-key order (key, then revision), so the last row of a key is its status.
    const take = (rows: { object_key: string; status_id: number }[], wanted: Set<string> | null) => {
      for (const r of rows) if (!wanted || wanted.has(r.object_key)) out.set(r.object_key, r.status_id);
    };
    const base = () =>
      this.db
        .selectFrom('object_statuses')
        .select(['object_key', 'status_id'])
        .where('project_name', '=', project)
        .where('revision', '<=', revision)
        .orderBy('object_key')
        .orderBy('revision');
    if (keys === 'all' || keys.length > BY_KEY_LIMIT) {
      take(await base().execute(), keys === 'all' ? null : new Set(keys));
    } else {
      for (let i = 0; i < keys.length; i += CHUNK)
        take(
          await base()
            .where('object_key', 'in', keys.slice(i, i + CHUNK))
            .execute(),
          null,
        );
    }
    return out;
  }

  /** True while a change of `key` in `project` is being written. */
  inProgress(project: string, key: string): boolean {
    return (this.changing.get(project)?.get(key) ?? 0) > 0;
  }

  /**
   * Gives `keys` of `project` status `statusId` from `revision` on and records one history entry per part
   * whose status changes. `names` gives each status id's current name (null = default status).
   * @returns how many parts changed.
   */
  async set(input: {
    project: string;
    revision: number;
    keys: readonly string[];
    statusId: number;
    names: Map<number, string>;
    defaultStatus: number;
    by: { email: string; name: string };
  }): Promise<number> {
    const { project, revision, statusId, names, by } = input;
    const keys = [...new Set(input.keys)];
    const marks = this.changing.get(project) ?? new Map<string, number>();
    this.changing.set(project, marks);
    for (const k of keys) marks.set(k, (marks.get(k) ?? 0) + 1);
    try {
      const current = await this.read(project, revision, keys);
      const changed = keys.filter((k) => (current.get(k) ?? input.defaultStatus) !== statusId);
      const now = new Date().toISOString();
      const nameOf = (id: number) => names.get(id) ?? String(id);
      await this.db.transaction().execute(async (trx) => {
        for (let i = 0; i < changed.length; i += CHUNK) {
          const part = changed.slice(i, i + CHUNK);
          await trx
            .insertInto('object_statuses')
            .values(part.map((k) => ({ project_name: project, object_key: k, revision, status_id: statusId })))
            .onConflict((oc) =>
              oc.columns(['project_name', 'object_key', 'revision']).doUpdateSet({ status_id: statusId }),
            )
            .execute();
          await trx
            .insertInto('object_status_history')
            .values(
              part.map((k) => {
                const from = current.get(k) ?? input.defaultStatus;
                return {
                  project_name: project,
                  object_key: k,
                  revision,
                  from_status_id: current.has(k) ? from : null,
                  from_name: nameOf(from),
                  to_status_id: statusId,
                  to_name: nameOf(statusId),
                  changed_by: by.email.toLowerCase(),
                  changed_by_name: by.name,
                  changed_at: now,
                };
              }),
            )
            .execute();
        }
      });
      return changed.length;
    } finally {
      for (const k of keys) {
        const n = (marks.get(k) ?? 1) - 1;
        if (n > 0) marks.set(k, n);
        else marks.delete(k);
      }
      if (marks.size === 0) this.changing.delete(project);
    }
  }

  /**
   * Forgets the statuses and history of `project` set in revisions after `latest` (every revision when
   * `latest` is 0): after a project or its latest revision is deleted, a new revision that gets the same
   * number must not inherit them. Statuses set in a deleted earlier revision still carry into later ones.
   */
  async forgetAfter(project: string, latest: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('object_statuses')
        .where('project_name', '=', project)
        .where('revision', '>', latest)
        .execute();
      await trx
        .deleteFrom('object_status_history')
        .where('project_name', '=', project)
        .where('revision', '>', latest)
        .execute();
    });
  }

  /** The recorded changes of one part up to `revision`, oldest first. */
  async history(project: string, key: string, revision: number): Promise<ApprovalHistoryEntry[]> {
    const rows = await this.db
      .selectFrom('object_status_history')
      .selectAll()
      .where('project_name', '=', project)
      .where('object_key', '=', key)
      .where('revision', '<=', revision)
      .orderBy('id')
      .execute();
    return rows.map((r) => ({
      revision: r.revision,
      from: { id: r.from_status_id, name: r.from_name },
      to: { id: r.to_status_id, name: r.to_name },
      changedBy: r.changed_by,
      changedByName: r.changed_by_name,
      changedAt: r.changed_at,
    }));
  }
}
