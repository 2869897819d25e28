/**
 * The tag and tagging calls of viewer.md §7 "Tags" and "Tagging", typed by api/contract/tags.ts. Every
 * call names the project. Failures go through the central handling of ui/api/client.ts (toast, ApiError)
 * unless marked silent (the caller shows the spec's own text).
 */
import {
  GeometryNameListSchema,
  GeometryTagsListSchema,
  SuccessResponseSchema,
  TaggingResultSchema,
  TagSchema,
  type TagType,
} from '../../api/contract';
import { request } from './client';

const TAGS = '/api/viewer/tags';
const TAGGING = '/api/viewer/tagging';

/** GET /root: the root tag `rootName` with its subtree. Silent: a missing root (404) means no trees yet. */
export const getRootTag = (projectName: string, rootName: string) =>
  request('GET', `${TAGS}/root`, TagSchema, { query: { projectName, rootName }, silent: true });

/** POST: a new tag under `parent` (null for a ContextRoot); `silent` when the caller handles a refusal. */
export const createTag = (
  projectName: string,
  tag: { name: string; type: TagType; parent: number | null },
  silent = false,
) => request('POST', TAGS, TagSchema, { query: { projectName }, body: tag, silent });

/** PATCH: renames a tag; the tag after the change. */
export const renameTag = (projectName: string, tagId: number, newName: string) =>
  request('PATCH', TAGS, TagSchema, { query: { projectName, tagId, newName } });

/** DELETE: the tag, its subtree and their tagging. Silent: the caller shows 'Unable to delete folder.' */
export const deleteTag = (projectName: string, tagId: number) =>
  request('DELETE', TAGS, SuccessResponseSchema, { query: { projectName, tagId }, silent: true });

/** POST /tags-by-geometries: every tagged geometry of the tree under `rootName` with its tag ids. */
export const getTagsByGeometries = (projectName: string, tagTreeRootName: string) =>
  request('POST', `${TAGGING}/tags-by-geometries`, GeometryTagsListSchema, {
    query: { projectName, tagTreeRootName },
    silent: true,
  });

/** GET /geometries-by-tag: names of the geometries carrying a tag. */
export const getGeometriesByTag = (projectName: string, tagId: number) =>
  request('GET', `${TAGGING}/geometries-by-tag`, GeometryNameListSchema, { query: { projectName, tagId } });

/** POST /add-tag-to-geometries: which names got the tag and which did not. */
export const addTagToGeometries = (projectName: string, tagId: number, names: string[], replaceSiblings = false) =>
  request('POST', `${TAGGING}/add-tag-to-geometries`, TaggingResultSchema, {
    query: { projectName, tagId, replaceSiblings },
    body: names,
  });

/** POST /remove-tag-from-geometries. Silent: the caller shows 'Geometry "{name}" could not be removed ...'. */
export const removeTagFromGeometries = (projectName: string, tagId: number, names: string[]) =>
  request('POST', `${TAGGING}/remove-tag-from-geometries`, TaggingResultSchema, {
    query: { projectName, tagId },
    body: names,
    silent: true,
  });
