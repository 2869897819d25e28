/**
 * Custom model tree calls (viewer.md §7 "Tags" and "Tagging"; paths, shapes and rules in
 * api/contract/tags.ts and api/tags/TagStore.ts). Every call names the project: a project the caller may
 * not see answers 404 'Project X not found' before the handler runs. Tags are shared by all users who see
 * the project, so reading and changing them both need that access (application.md §6 has no read-only
 * project access); a tag of another project answers 404 'Tag N not found'. Geometry names are resolved
 * against the project's latest revision. Each stored change is pushed to the project's realtime room
 * ('tags', TagsEvent).
 */
import type { FastifyInstance } from 'fastify';
import { Access } from '../access/rules';
import type { User } from '../auth/UserStore';
import {
  AddTagQuerySchema,
  GeometriesByTagQuerySchema,
  type GeometryTags,
  GeometryNamesSchema,
  RemoveTagQuerySchema,
  type Tag,
  TagByNameQuerySchema,
  TagCreateBodySchema,
  TagIdQuerySchema,
  type TaggingResult,
  TagProjectQuerySchema,
  TagRenameQuerySchema,
  TagRootQuerySchema,
  TagsAllQuerySchema,
  TagsByGeometriesBodySchema,
  TagsByGeometriesQuerySchema,
  TagsByGeometryQuerySchema,
} from '../contract/tags';
import { normaliseProjectName } from '../projects/ProjectStore';
import { loadRevision } from '../projects/loadRevision';
import { type GeometryIndex, geometryIndex } from '../tags/geometryKeys';
import { defineRoute } from './define';

/** Base paths of the tag and tagging calls. */
export const TAGS_BASE = '/api/viewer/tags';
export const TAGGING_BASE = '/api/viewer/tagging';

/** Registers the tag and tagging calls. */
export default async function tagRoutes(app: FastifyInstance): Promise<void> {
  const { tags, tagEvents } = app.ctx;
  const byQuery = Access.byProject;
  const name = (project: string | undefined, raw: string) => project ?? normaliseProjectName(raw);

  /** The geometry lookups of the project's latest revision. @throws ApiError 404 / 500 as loadRevision. */
  async function latest(project: string): Promise<GeometryIndex> {
    return geometryIndex((await loadRevision(app, project, 'latest')).data.objects);
  }

  const changed = (projectName: string, by: User) => tagEvents.send({ projectName, by: by.email });

  defineRoute(app, {
    method: 'GET',
    url: `${TAGS_BASE}/all`,
    access: byQuery,
    query: TagsAllQuerySchema,
    handler: async ({ query, project }): Promise<Tag[]> => tags.all(name(project, query.projectName)),
  });

  defineRoute(app, {
    method: 'GET',
    url: `${TAGS_BASE}/root`,
    access: byQuery,
    query: TagRootQuerySchema,
    handler: async ({ query, project }): Promise<Tag> => tags.root(name(project, query.projectName), query.rootName),
  });

  defineRoute(app, {
    method: 'GET',
    url: TAGS_BASE,
    access: byQuery,
    query: TagByNameQuerySchema,
    handler: async ({ query, project }): Promise<Tag> =>
      tags.byName(name(project, query.projectName), query.tagName, query.parentId),
  });

  defineRoute(app, {
    method: 'POST',
    url: TAGS_BASE,
    access: byQuery,
    query: TagProjectQuerySchema,
    body: TagCreateBodySchema,
    handler: async ({ query, body, project, user }): Promise<Tag> => {
      const p = name(project, query.projectName);
      // Tags hang off a project that exists (404 otherwise, as for every project call).
      await app.ctx.projects.revision(p, 'latest');
      const tag = await tags.create(p, body, user.email);
      changed(p, user);
      return tag;
    },
  });

  defineRoute(app, {
    method: 'PATCH',
    url: TAGS_BASE,
    access: byQuery,
    query: TagRenameQuerySchema,
    handler: async ({ query, project, user }): Promise<Tag> => {
      const p = name(project, query.projectName);
      const tag = await tags.rename(p, query.tagId, query.newName);
      changed(p, user);
      return tag;
    },
  });

  defineRoute(app, {
    method: 'DELETE',
    url: TAGS_BASE,
    access: byQuery,
    query: TagIdQuerySchema,
    handler: async ({ query, project, user }): Promise<{ success: boolean }> => {
      const p = name(project, query.projectName);
      await tags.remove(p, query.tagId);
      changed(p, user);
      return { success: true };
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: `${TAGGING_BASE}/tags-by-geometries`,
    access: byQuery,
    query: TagsByGeometriesQuerySchema,
    body: TagsByGeometriesBodySchema,
    handler: async ({ query, body, project }): Promise<GeometryTags[]> => {
      const p = name(project, query.projectName);
      const hits = await tags.taggedInTree(p, query.tagTreeRootName, await latest(p), body);
      return hits.map((h) => ({ geometryName: h.object.name, id: h.object.id, guid: h.object.guid, tagIds: h.tagIds }));
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: `${TAGGING_BASE}/tags-by-geometry`,
    access: byQuery,
    query: TagsByGeometryQuerySchema,
    handler: async ({ query, project }): Promise<Tag[]> => {
      const p = name(project, query.projectName);
      return tags.tagsOfGeometry(p, query.geometryName, query.tagTreeRootName, await latest(p));
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: `${TAGGING_BASE}/geometries-by-tag`,
    access: byQuery,
    query: GeometriesByTagQuerySchema,
    handler: async ({ query, project }): Promise<string[]> => {
      const p = name(project, query.projectName);
      return tags.geometriesOf(p, query.tagId, await latest(p));
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: `${TAGGING_BASE}/add-tag-to-geometries`,
    access: byQuery,
    query: AddTagQuerySchema,
    body: GeometryNamesSchema,
    handler: async ({ query, body, project, user }): Promise<TaggingResult> => {
      const p = name(project, query.projectName);
      const r = await tags.addToGeometries(p, query.tagId, body, query.replaceSiblings, await latest(p));
      if (r.geometryNamesSucceeded.length) changed(p, user);
      return r;
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: `${TAGGING_BASE}/remove-tag-from-geometries`,
    access: byQuery,
    query: RemoveTagQuerySchema,
    body: GeometryNamesSchema,
    handler: async ({ query, body, project, user }): Promise<TaggingResult> => {
      const p = name(project, query.projectName);
      const r = await tags.removeFromGeometries(p, query.tagId, body, await latest(p));
      if (r.geometryNamesSucceeded.length) changed(p, user);
      return r;
    },
  });

  defineRoute(app, {
    method: 'DELETE',
    url: `${TAGGING_BASE}/delete-tag`,
    access: byQuery,
    query: TagIdQuerySchema,
    handler: async ({ query, project, user }): Promise<{ success: boolean }> => {
      const p = name(project, query.projectName);
      await tags.clearTagging(p, query.tagId);
      changed(p, user);
      return { success: true };
    },
  });
}
