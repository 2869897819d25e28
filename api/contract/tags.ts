/**
 * Custom model trees: tags and tagging (viewer.md §3 "Tag", §7 "Tags" and "Tagging", §2 model tree names).
 * Tags belong to a project and are shared by everyone who may see it; every call names the project
 * (`projectName`, where the spec is silent) and answers 404 for a project the caller may not see.
 *
 * Tags (/api/viewer/tags):
 * - GET    /all?projectName                           → Tag[] (the roots, each with its whole subtree)
 * - GET    /root?projectName&rootName                 → Tag (the root tag of that name, with its subtree) | 404
 * - GET    ?projectName&tagName&parentId              → Tag (the child of `parentId` named `tagName`) | 404
 * - POST   ?projectName  body TagCreateBody           → Tag (409 when the parent has a child of that name)
 * - PATCH  ?projectName&tagId&newName                 → Tag (409 as above)
 * - DELETE ?projectName&tagId                         → { success } (the tag, its subtree and their tagging)
 * Tagging (/api/viewer/tagging):
 * - POST   /tags-by-geometries?projectName&tagTreeRootName  body optional names → GeometryTags[]
 * - GET    /tags-by-geometry?projectName&geometryName&tagTreeRootName        → Tag[] (flat, no children)
 * - GET    /geometries-by-tag?projectName&tagId                              → string[] (geometry names)
 * - POST   /add-tag-to-geometries?tagId&projectName&replaceSiblings  body names → TaggingResult
 * - POST   /remove-tag-from-geometries?tagId&projectName             body names → TaggingResult
 * - DELETE /delete-tag?projectName&tagId → { success } (the tag leaves every geometry; the tag stays)
 *
 * A geometry name is an object's OCX id or its display name in the project's latest revision (the id wins
 * when both match). Tagging is stored by the part's GUID (its OCX id when the file gives none), so a tag
 * follows the part into later revisions even when its name changes.
 */
import * as v from 'valibot';
import { boolParam, intParam, requiredString } from './common';

/** Tag types (viewer.md §3 "Tag"). */
export const TAG_TYPES = ['ContextRoot', 'UnrestrictedTree', 'ExclusiveTree', 'Flat'] as const;
export type TagType = (typeof TAG_TYPES)[number];

/** Root tag of the model tree's custom trees (viewer.md §2). */
export const CUSTOM_TREE_ROOT = 'Custom-model-tree';
/** Default name of a new custom tree folder (viewer.md §2). */
export const NEW_CUSTOM_TREE_NAME = 'New custom tree';
/** Tree item type of viewer.md §2: a folder or a leaf (geometry). */
export const TreeItemType = { Folder: 0, Leaf: 1 } as const;

/** Longest tag name, characters. */
export const TAG_NAME_MAX_LENGTH = 100;
/** Longest geometry name (OCX id or display name), characters. */
export const GEOMETRY_NAME_MAX_LENGTH = 200;
/** Most geometry names one tagging call takes (the UI sends larger selections in batches). */
export const MAX_TAGGING_NAMES = 20_000;
/** Most tags one project holds. */
export const MAX_TAGS_PER_PROJECT = 5_000;

/** A tag name: trimmed, non-empty, at most TAG_NAME_MAX_LENGTH characters. */
export const TagNameSchema = requiredString('Field is required', TAG_NAME_MAX_LENGTH);

export const TagTypeSchema = v.picklist(TAG_TYPES, `Must be one of ${TAG_TYPES.join(', ')}`);

/** A tag with its child tags (viewer.md §3 "Tag"); `parent` is null for a root. */
export interface Tag {
  id: number;
  name: string;
  type: TagType;
  parent: number | null;
  children: Tag[];
}

export const TagSchema: v.GenericSchema<Tag> = v.object({
  id: v.number(),
  name: v.string(),
  type: TagTypeSchema,
  parent: v.nullable(v.number()),
  children: v.array(v.lazy(() => TagSchema)),
});
export const TagListSchema = v.array(TagSchema);

const projectName = () => requiredString();
const tagId = () => intParam('Must be a tag id');

export const TagsAllQuerySchema = v.object({ projectName: projectName() });
export const TagRootQuerySchema = v.object({ projectName: projectName(), rootName: TagNameSchema });
export const TagByNameQuerySchema = v.object({
  projectName: projectName(),
  tagName: TagNameSchema,
  parentId: tagId(),
});
export const TagProjectQuerySchema = v.object({ projectName: projectName() });

/** POST /api/viewer/tags body: a root (parent null) must be a ContextRoot, and only a root may be one. */
export const TagCreateBodySchema = v.object({
  name: TagNameSchema,
  type: TagTypeSchema,
  parent: v.nullable(tagId()),
});
export type TagCreateBody = v.InferOutput<typeof TagCreateBodySchema>;

export const TagRenameQuerySchema = v.object({ projectName: projectName(), tagId: tagId(), newName: TagNameSchema });
export const TagIdQuerySchema = v.object({ projectName: projectName(), tagId: tagId() });

/** A list of geometry names (bounded count and length). */
export const GeometryNamesSchema = v.pipe(
  v.array(
    v.pipe(
      v.string('Must be a list of geometry names'),
      v.trim(),
      v.nonEmpty('Geometry names must not be empty'),
      v.maxLength(GEOMETRY_NAME_MAX_LENGTH, `Geometry names have at most ${GEOMETRY_NAME_MAX_LENGTH} characters`),
    ),
    'Must be a list of geometry names',
  ),
  v.maxLength(MAX_TAGGING_NAMES, `At most ${MAX_TAGGING_NAMES} geometry names per call`),
);

export const TagsByGeometriesQuerySchema = v.object({ projectName: projectName(), tagTreeRootName: TagNameSchema });
/** Optional body of POST /tags-by-geometries: only these geometries (all tagged ones when absent). */
export const TagsByGeometriesBodySchema = v.optional(v.nullable(GeometryNamesSchema));

/** One tagged geometry of the project's latest revision and the tags (ids) of one tree it carries. */
export const GeometryTagsSchema = v.object({
  geometryName: v.string(),
  /** OCX id in the latest revision. */
  id: v.string(),
  /** GUID (upper case, no braces) or null. */
  guid: v.nullable(v.string()),
  tagIds: v.array(v.number()),
});
export type GeometryTags = v.InferOutput<typeof GeometryTagsSchema>;
export const GeometryTagsListSchema = v.array(GeometryTagsSchema);

export const TagsByGeometryQuerySchema = v.object({
  projectName: projectName(),
  geometryName: requiredString('Field is required', GEOMETRY_NAME_MAX_LENGTH),
  tagTreeRootName: TagNameSchema,
});

export const GeometriesByTagQuerySchema = TagIdQuerySchema;
export const GeometryNameListSchema = v.array(v.string());

export const AddTagQuerySchema = v.object({
  projectName: projectName(),
  tagId: tagId(),
  replaceSiblings: v.optional(boolParam(), false),
});
export const RemoveTagQuerySchema = TagIdQuerySchema;

/** Result of add / remove: which of the sent names succeeded and which failed. */
export const TaggingResultSchema = v.object({
  geometryNamesSucceeded: v.array(v.string()),
  geometryNamesFailed: v.array(v.string()),
});
export type TaggingResult = v.InferOutput<typeof TaggingResultSchema>;

/** socket.io event on `project:{NAME}` after any change of a project's tags or tagging. */
export const TAGS_EVENT = 'tags';
export const TagsEventSchema = v.object({
  projectName: v.string(),
  /** E-mail of the user who made the change. */
  by: v.string(),
});
export type TagsEvent = v.InferOutput<typeof TagsEventSchema>;
