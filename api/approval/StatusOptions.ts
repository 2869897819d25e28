/**
 * The object status options (application.md §3 "Approval status", §4 "Status options editing", §5 "Status
 * option name"): listing, creating, renaming, recolouring and deleting them. The default status (objects
 * never given one) and the removed status (objects whose option was deleted) are fixed rows, not editable.
 */
import type { Kysely, Selectable } from 'kysely';
import {
  type ApprovalStatus,
  type ApprovalStatusOptions,
  DEFAULT_STATUS_COLOR,
  statusNameError,
} from '../contract/approval';
import type { ApprovalStatusesTable, DB } from '../db/database';
import { ApiError, Errors } from '../errors';

type Row = Selectable<ApprovalStatusesTable>;

/** The API shape of a stored option. */
export const statusToApi = (r: Row): ApprovalStatus => ({
  id: r.id,
  name: r.name,
  color: r.color,
  isEditable: r.is_editable === 1,
});

/** 404 for an unknown option id. */
const notFound = (id: number) => new ApiError('NotFound', 404, `Status option ${id} not found`, 'notFound');

/** Reads and changes the status options. */
export class StatusOptions {
  constructor(private readonly db: Kysely<DB>) {}

  /** Every option in list order (the fixed ones first). */
  async rows(): Promise<Row[]> {
    return this.db.selectFrom('approval_statuses').selectAll().orderBy('position').orderBy('id').execute();
  }

  /** One option. @throws ApiError 404 'Status option {id} not found'. */
  async get(id: number): Promise<Row> {
    const r = await this.db.selectFrom('approval_statuses').selectAll().where('id', '=', id).executeTakeFirst();
    if (!r) throw notFound(id);
    return r;
  }

  /** The default and removed statuses and the order of all options. */
  async options(): Promise<ApprovalStatusOptions & { byId: Map<number, Row> }> {
    const rows = await this.rows();
    const def = rows.find((r) => r.is_default === 1);
    const removed = rows.find((r) => r.is_removed === 1);
    if (!def || !removed) throw Errors.internal();
    return {
      defaultStatus: def.id,
      removedStatus: removed.id,
      order: rows.map((r) => r.id),
      byId: new Map(rows.map((r) => [r.id, r])),
    };
  }

  /**
   * Creates an editable option at the end of the list (colour DEFAULT_STATUS_COLOR when none is given).
   * @throws ApiError 400 with the §5 text the name breaks.
   */
  async create(name: string, color = DEFAULT_STATUS_COLOR): Promise<number> {
    const clean = await this.checkName(name, null);
    const last = await this.db
      .selectFrom('approval_statuses')
      .select((eb) => eb.fn.max('position').as('p'))
      .executeTakeFirst();
    const r = await this.db
      .insertInto('approval_statuses')
      .values({
        name: clean,
        color: color.toLowerCase(),
        is_editable: 1,
        is_default: 0,
        is_removed: 0,
        position: Number(last?.p ?? 0) + 1,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return r.id;
  }

  /**
   * Renames and recolours an editable option (objects with it show the new name at once: they refer to it).
   * @throws ApiError 404 unknown id; 403 for the fixed statuses; 400 with the §5 text the name breaks.
   */
  async update(id: number, name: string, color: string | undefined): Promise<void> {
    const row = await this.editable(id);
    const clean = await this.checkName(name, id);
    await this.db
      .updateTable('approval_statuses')
      .set({ name: clean, color: (color ?? row.color).toLowerCase() })
      .where('id', '=', id)
      .execute();
  }

  /**
   * Deletes an editable option; the objects that had it get the removed status (an invalid status, shown
   * as such) and each such change is recorded in their history as made by `by`.
   * @throws ApiError 404 unknown id; 403 for the fixed statuses.
   */
  async remove(id: number, by: { email: string; name: string }): Promise<void> {
    const row = await this.editable(id);
    const { removedStatus, byId } = await this.options();
    const removedName = byId.get(removedStatus)?.name ?? 'Removed';
    const now = new Date().toISOString();
    await this.db.transaction().execute(async (trx) => {
      const affected = await trx.selectFrom('object_statuses').selectAll().where('status_id', '=', id).execute();
      for (let i = 0; i < affected.length; i += 500) {
        await trx
          .insertInto('object_status_history')
          .values(
            affected.slice(i, i + 500).map((a) => ({
              project_name: a.project_name,
              object_key: a.object_key,
              revision: a.revision,
              from_status_id: id,
              from_name: row.name,
              to_status_id: removedStatus,
              to_name: removedName,
              changed_by: by.email.toLowerCase(),
              changed_by_name: by.name,
              changed_at: now,
            })),
          )
          .execute();
      }
      await trx.updateTable('object_statuses').set({ status_id: removedStatus }).where('status_id', '=', id).execute();
      await trx.deleteFrom('approval_statuses').where('id', '=', id).execute();
    });
  }

  /** How many object statuses (any project and revision) use option `id`. */
  async usage(id: number): Promise<number> {
    await this.get(id);
    const r = await this.db
      .selectFrom('object_statuses')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status_id', '=', id)
      .executeTakeFirst();
    return Number(r?.n ?? 0);
  }

  private async editable(id: number): Promise<Row> {
    const row = await this.get(id);
    if (row.is_editable !== 1) throw Errors.forbidden(`Status option "${row.name}" cannot be changed`);
    return row;
  }

  /** The trimmed name. @throws ApiError 400 with the §5 text it breaks (uniqueness among the other options). */
  private async checkName(name: string, id: number | null): Promise<string> {
    const others = (await this.rows()).filter((r) => r.id !== id).map((r) => r.name);
    const err = statusNameError(name, others);
    if (err) throw Errors.badRequest(err);
    return name.trim();
  }
}
