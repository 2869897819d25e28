/**
 * Tags and tagging of a project (viewer.md §3 "Tag", §7 "Tags" and "Tagging"): the tag trees and which
 * geometries carry which tag, in SQLite (tables `tags` and `tag_geometries`, migration 009_tags). Geometry
 * names are resolved against an object table (api/tags/geometryKeys.ts) and stored by stable key.
 *
 * Rules: a root (no parent) is a ContextRoot and only a root is; a Flat tag has no children; names are
 * unique among the children of one parent; geometries cannot be added to a ContextRoot; a geometry already
 * carrying the tag is not added again (reported as failed); when the tag is an ExclusiveTree a geometry may
 * carry at most one of the tags sharing its parent: with replaceSiblings it leaves the sibling, otherwise it
 * fails.
 */
import type { Kysely } from 'kysely';
import type { ModelObject } from '../../engine/model/types';
import { MAX_TAGS_PER_PROJECT, type Tag, type TagCreateBody, type TagType, type TaggingResult } from '../contract/tags';
import type { DB } from '../db/database';
import { uniqueViolation } from '../db/errors';
import { ApiError, Errors } from '../errors';
import { type GeometryIndex, geometryKey } from './geometryKeys';

interface TagRow {
  id: number;
  name: string;
  type: TagType;
  parent_id: number | null;
}

/** 404 'Tag {id} not found' (also for a tag of another project). */
const tagNotFound = (id: number | string) => new ApiError('NotFound', 404, `Tag ${id} not found`, 'notFound');
const tagExists = (name: string) => new ApiError('Conflict', 409, `Tag "${name}" already exists`, 'conflict');

/** One tagged geometry of a tree: the object in the revision and the tree's tag ids it carries. */
export interface TaggedGeometry {
  object: ModelObject;
  tagIds: number[];
}

/** Reads and changes the tags of projects. Project names are upper case (normaliseProjectName). */
export class TagStore {
  constructor(private readonly db: Kysely<DB>) {}

  private async rows(project: string): Promise<TagRow[]> {
    return this.db
      .selectFrom('tags')
      .select(['id', 'name', 'type', 'parent_id'])
      .where('project_name', '=', project)
      .orderBy('name')
      .orderBy('id')
      .execute();
  }

  private async row(project: string, id: number): Promise<TagRow> {
    const r = await this.db
      .selectFrom('tags')
      .select(['id', 'name', 'type', 'parent_id'])
      .where('project_name', '=', project)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!r) throw tagNotFound(id);
    return r;
  }

  /** Nests rows into trees; `top` picks the tags to return (each with its whole subtree). */
  private static nest(rows: TagRow[], top: (r: TagRow) => boolean): Tag[] {
    const kids = new Map<number | null, TagRow[]>();
    for (const r of rows) {
      const l = kids.get(r.parent_id);
      if (l) l.push(r);
      else kids.set(r.parent_id, [r]);
    }
    const build = (r: TagRow): Tag => ({
      id: r.id,
      name: r.name,
      type: r.type,
      parent: r.parent_id,
      children: (kids.get(r.id) ?? []).map(build),
    });
    return rows.filter(top).map(build);
  }

  /** Ids of `id` and all its descendants. */
  private static subtree(rows: TagRow[], id: number): Set<number> {
    const out = new Set([id]);
    // Rows are few (bounded per project); repeat until no new child joins.
    for (let grew = true; grew; ) {
      grew = false;
      for (const r of rows)
        if (r.parent_id !== null && out.has(r.parent_id) && !out.has(r.id)) {
          out.add(r.id);
          grew = true;
        }
    }
    return out;
  }

  /** Every tree of the project (roots with their subtrees), roots sorted by name. */
  async all(project: string): Promise<Tag[]> {
    return TagStore.nest(await this.rows(project), (r) => r.parent_id === null);
  }

  /** The root tag `name` with its subtree. @throws ApiError 404 'Tag {name} not found'. */
  async root(project: string, name: string): Promise<Tag> {
    const t = TagStore.nest(await this.rows(project), (r) => r.parent_id === null && r.name === name)[0];
    if (!t) throw tagNotFound(name);
    return t;
  }

  /** The child `name` of `parentId` with its subtree. @throws ApiError 404. */
  async byName(project: string, name: string, parentId: number): Promise<Tag> {
    const t = TagStore.nest(await this.rows(project), (r) => r.parent_id === parentId && r.name === name)[0];
    if (!t) throw tagNotFound(name);
    return t;
  }

  /**
   * Creates a tag. @throws ApiError 400 (root / ContextRoot / Flat rules, too many tags), 404 unknown parent,
   * 409 a sibling of that name.
   */
  async create(project: string, body: TagCreateBody, by: string): Promise<Tag> {
    if (body.parent === null && body.type !== 'ContextRoot')
      throw Errors.badRequest('A tag without a parent must be of type ContextRoot');
    if (body.parent !== null && body.type === 'ContextRoot')
      throw Errors.badRequest('A ContextRoot tag cannot have a parent');
    if (body.parent !== null) {
      const parent = await this.row(project, body.parent);
      if (parent.type === 'Flat') throw Errors.badRequest('A Flat tag cannot have child tags');
    }
    const count = await this.db
      .selectFrom('tags')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('project_name', '=', project)
      .executeTakeFirstOrThrow();
    if (Number(count.n) >= MAX_TAGS_PER_PROJECT)
      throw Errors.badRequest(`A project holds at most ${MAX_TAGS_PER_PROJECT} tags`);
    try {
      const r = await this.db
        .insertInto('tags')
        .values({
          project_name: project,
          name: body.name,
          type: body.type,
          parent_id: body.parent,
          created_by: by.toLowerCase(),
          created_at: new Date().toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { id: r.id, name: body.name, type: body.type, parent: body.parent, children: [] };
    } catch (e) {
      if (uniqueViolation(e) !== null) throw tagExists(body.name);
      throw e;
    }
  }

  /** Renames a tag; @returns it with its subtree. @throws ApiError 404, 409 a sibling of that name. */
  async rename(project: string, id: number, newName: string): Promise<Tag> {
    await this.row(project, id);
    try {
      await this.db.updateTable('tags').set({ name: newName }).where('id', '=', id).execute();
    } catch (e) {
      if (uniqueViolation(e) !== null) throw tagExists(newName);
      throw e;
    }
    return TagStore.nest(await this.rows(project), (r) => r.id === id)[0];
  }

  /** Deletes a tag, its subtree and their tagging. @returns the deleted tag (without children). @throws 404. */
  async remove(project: string, id: number): Promise<TagRow> {
    const row = await this.row(project, id);
    await this.db.deleteFrom('tags').where('id', '=', id).execute();
    return row;
  }

  /**
   * Adds tag `id` to the geometries `names` resolve to in `index`. A name succeeds when at least one of
   * its parts got the tag. @throws ApiError 404 unknown tag, 400 a ContextRoot.
   */
  async addToGeometries(
    project: string,
    id: number,
    names: readonly string[],
    replaceSiblings: boolean,
    index: GeometryIndex,
  ): Promise<TaggingResult> {
    const tag = await this.row(project, id);
    if (tag.type === 'ContextRoot') throw Errors.badRequest('Geometries cannot carry a ContextRoot tag');
    const siblings =
      tag.type === 'ExclusiveTree' && tag.parent_id !== null
        ? (
            await this.db
              .selectFrom('tags')
              .select('id')
              .where('project_name', '=', project)
              .where('parent_id', '=', tag.parent_id)
              .where('id', '!=', id)
              .execute()
          ).map((r) => r.id)
        : [];
    const out: TaggingResult = { geometryNamesSucceeded: [], geometryNamesFailed: [] };
    const now = new Date().toISOString();
    await this.db.transaction().execute(async (trx) => {
      const has = new Set(
        (await trx.selectFrom('tag_geometries').select('geometry_key').where('tag_id', '=', id).execute()).map(
          (r) => r.geometry_key,
        ),
      );
      const inSibling = new Set(
        siblings.length
          ? (
              await trx.selectFrom('tag_geometries').select('geometry_key').where('tag_id', 'in', siblings).execute()
            ).map((r) => r.geometry_key)
          : [],
      );
      for (const name of new Set(names)) {
        let added = 0;
        for (const o of index.resolve(name)) {
          const key = geometryKey(o);
          if (has.has(key)) continue;
          if (inSibling.has(key)) {
            if (!replaceSiblings) continue;
            await trx
              .deleteFrom('tag_geometries')
              .where('tag_id', 'in', siblings)
              .where('geometry_key', '=', key)
              .execute();
            inSibling.delete(key);
          }
          await trx
            .insertInto('tag_geometries')
            .values({ tag_id: id, geometry_key: key, geometry_name: o.name, created_at: now })
            .execute();
          has.add(key);
          added++;
        }
        (added > 0 ? out.geometryNamesSucceeded : out.geometryNamesFailed).push(name);
      }
    });
    return out;
  }

  /**
   * Removes tag `id` from the geometries `names` resolve to (or, for parts the revision lacks, that were
   * tagged under that name). A name succeeds when it carried the tag. @throws ApiError 404 unknown tag.
   */
  async removeFromGeometries(
    project: string,
    id: number,
    names: readonly string[],
    index: GeometryIndex,
  ): Promise<TaggingResult> {
    await this.row(project, id);
    const out: TaggingResult = { geometryNamesSucceeded: [], geometryNamesFailed: [] };
    await this.db.transaction().execute(async (trx) => {
      for (const name of new Set(names)) {
        const keys = index.resolve(name).map(geometryKey);
        let q = trx.deleteFrom('tag_geometries').where('tag_id', '=', id);
        q = keys.length
          ? q.where((eb) => eb.or([eb('geometry_key', 'in', keys), eb('geometry_name', '=', name)]))
          : q.where('geometry_name', '=', name);
        const r = await q.executeTakeFirst();
        (Number(r.numDeletedRows) > 0 ? out.geometryNamesSucceeded : out.geometryNamesFailed).push(name);
      }
    });
    return out;
  }

  /** Takes tag `id` off every geometry (the tag stays). @throws ApiError 404 unknown tag. */
  async clearTagging(project: string, id: number): Promise<void> {
    await this.row(project, id);
    await this.db.deleteFrom('tag_geometries').where('tag_id', '=', id).execute();
  }

  /** Names (in `index`) of the geometries carrying tag `id`; parts the revision lacks are left out. @throws 404. */
  async geometriesOf(project: string, id: number, index: GeometryIndex): Promise<string[]> {
    await this.row(project, id);
    const rows = await this.db
      .selectFrom('tag_geometries')
      .select('geometry_key')
      .where('tag_id', '=', id)
      .orderBy('created_at')
      .orderBy('geometry_key')
      .execute();
    const out: string[] = [];
    for (const r of rows) {
      const o = index.byKey(r.geometry_key);
      if (o) out.push(o.name);
    }
    return out;
  }

  /**
   * The geometries carrying tags of the tree under root `rootName` (only `names` when given), each with
   * the tree's tag ids it carries. @throws ApiError 404 unknown root.
   */
  async taggedInTree(
    project: string,
    rootName: string,
    index: GeometryIndex,
    names?: readonly string[] | null,
  ): Promise<TaggedGeometry[]> {
    const rows = await this.rows(project);
    const root = rows.find((r) => r.parent_id === null && r.name === rootName);
    if (!root) throw tagNotFound(rootName);
    const ids = [...TagStore.subtree(rows, root.id)];
    const only = names ? new Set(names.flatMap((n) => index.resolve(n).map(geometryKey))) : null;
    const tagged = await this.db
      .selectFrom('tag_geometries')
      .select(['tag_id', 'geometry_key'])
      .where('tag_id', 'in', ids)
      .orderBy('geometry_key')
      .orderBy('tag_id')
      .execute();
    const byKey = new Map<string, TaggedGeometry>();
    for (const r of tagged) {
      if (only && !only.has(r.geometry_key)) continue;
      const o = index.byKey(r.geometry_key);
      if (!o) continue;
      const g = byKey.get(r.geometry_key);
      if (g) g.tagIds.push(r.tag_id);
      else byKey.set(r.geometry_key, { object: o, tagIds: [r.tag_id] });
    }
    return [...byKey.values()];
  }

  /** The tags of tree `rootName` that `geometryName` carries (flat, no children). @throws 404 unknown root. */
  async tagsOfGeometry(project: string, geometryName: string, rootName: string, index: GeometryIndex): Promise<Tag[]> {
    const rows = await this.rows(project);
    const hits = await this.taggedInTree(project, rootName, index, [geometryName]);
    const ids = new Set(hits.flatMap((h) => h.tagIds));
    return rows
      .filter((r) => ids.has(r.id))
      .map((r) => ({ id: r.id, name: r.name, type: r.type, parent: r.parent_id, children: [] }));
  }
}
