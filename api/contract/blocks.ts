/**
 * Blocks, block systems and the arrangement trees (viewer.md §3 "Block", "Block system"; §7 Steel and Ship
 * model). The API speaks metres and tonnes: weights in t, centres of gravity and boxes in m.
 *
 * - GET  /api/keelson-instance/steel/block-system?modelName&revision[&name]   → BlockSystemResponse (with
 *   `name`) or BlockSystemNamesResponse (without: the names of the model's block systems, in file order)
 * - POST /api/keelson-instance/steel/blocks?modelName&revision[&blockSystem]  body: block or block-system
 *   names → BlocksResponse (one entry per block, in the order asked; a block-system name gives all its blocks)
 * - GET  /api/keelson-instance/steel/arrangement?modelName&revision[&limits][&blockRoot][&blockSystem]
 *   → ArrangementResponse (the structures of the model tree)
 * - GET  /api/keelson-instance/ship-model/arrangement?modelName&revision[&limits] → ArrangementResponse
 *   (the compartments)
 */
import * as v from 'valibot';
import { boundedString, requiredString, STRING_MAX_LENGTH, viewerIdParam } from './common';
import { BoxMSchema, PointMSchema, revisionParam } from './models';

/** Most names one POST /steel/blocks asks for. */
export const BLOCK_NAMES_MAX = 1000;

const modelFields = { modelName: requiredString(), revision: revisionParam(), viewerId: viewerIdParam() };

/** An optional, non-empty name of at most STRING_MAX_LENGTH characters. */
const optionalName = () => v.optional(requiredString('Must not be empty'));

export const BlockSystemQuerySchema = v.object({ ...modelFields, name: optionalName() });
export type BlockSystemQuery = v.InferOutput<typeof BlockSystemQuerySchema>;

/** A block system: its name and its blocks' names (viewer.md §3 "Block system"). */
export const BlockSystemResponseSchema = v.object({ name: v.string(), blockNames: v.array(v.string()) });
export type BlockSystemResponse = v.InferOutput<typeof BlockSystemResponseSchema>;

/** The names of the model's block systems. */
export const BlockSystemNamesResponseSchema = v.array(v.string());
export type BlockSystemNamesResponse = v.InferOutput<typeof BlockSystemNamesResponseSchema>;

export const BlocksQuerySchema = v.object({ ...modelFields, blockSystem: optionalName() });
export const BlocksBodySchema = v.pipe(
  v.array(requiredString('Must not be empty', STRING_MAX_LENGTH), 'Must be a list of block names'),
  v.minLength(1, 'At least one name'),
  v.maxLength(BLOCK_NAMES_MAX, `At most ${BLOCK_NAMES_MAX} names`),
);

/**
 * A block (viewer.md §3 "Block"): weight (t, the sum of its parts' weights), centerOfGravity (m, the
 * weight-weighted mean of its parts' centres; null when no part has a weight and a centre) and boundingBox
 * ([minX, minY, minZ, maxX, maxY, maxZ] m over its parts' geometry; null when none has geometry), and the
 * block system it was found in and its number of objects.
 */
export const BlockSchema = v.object({
  name: v.string(),
  blockSystem: v.string(),
  objectCount: v.number(),
  weight: v.number(),
  centerOfGravity: v.nullable(PointMSchema),
  boundingBox: v.nullable(BoxMSchema),
});
export type Block = v.InferOutput<typeof BlockSchema>;
export const BlocksResponseSchema = v.array(BlockSchema);
export type BlocksResponse = v.InferOutput<typeof BlocksResponseSchema>;

const LIMITS_MESSAGE = 'Must be six numbers in metres: xMin,xMax,yMin,yMax,zMin,zMax (each min ≤ max)';

/**
 * Limits of an arrangement: 'xMin,xMax,yMin,yMax,zMin,zMax' in metres (the clipping box order of viewer.md
 * §3) → [minX, minY, minZ, maxX, maxY, maxZ] m.
 */
export const LimitsParamSchema = v.pipe(
  boundedString(300, LIMITS_MESSAGE),
  v.transform((s) => s.split(',').map((x) => (x.trim() === '' ? NaN : Number(x)))),
  v.check(
    (a) => a.length === 6 && a.every(Number.isFinite) && a[0] <= a[1] && a[2] <= a[3] && a[4] <= a[5],
    LIMITS_MESSAGE,
  ),
  v.transform((a) => [a[0], a[2], a[4], a[1], a[3], a[5]] as [number, number, number, number, number, number]),
);

export const SteelArrangementQuerySchema = v.object({
  ...modelFields,
  limits: v.optional(LimitsParamSchema),
  blockRoot: optionalName(),
  blockSystem: optionalName(),
});
export type SteelArrangementQuery = v.InferOutput<typeof SteelArrangementQuerySchema>;

export const ShipModelArrangementQuerySchema = v.object({ ...modelFields, limits: v.optional(LimitsParamSchema) });
export type ShipModelArrangementQuery = v.InferOutput<typeof ShipModelArrangementQuerySchema>;

/** A node of an arrangement tree: an object of the object table with its children (those kept). */
export interface ArrangementNode {
  /** Object-table index (the engine's node id). */
  index: number;
  /** OCX @id. */
  id: string;
  name: string;
  /** Model object type (viewer.md §3). */
  type: string;
  children: ArrangementNode[];
}
export const ArrangementNodeSchema: v.GenericSchema<ArrangementNode> = v.object({
  index: v.number(),
  id: v.string(),
  name: v.string(),
  type: v.string(),
  children: v.array(v.lazy(() => ArrangementNodeSchema)),
});

/**
 * An arrangement as the model tree shows it: `name` is the tree folder ('Structures ({model})' or
 * 'Compartments ({model})'), `nodes` its top-level objects. Limits keep the objects whose box meets them
 * (and their ancestors); a block root keeps that block's objects (and their ancestors).
 */
export const ArrangementResponseSchema = v.object({
  name: v.string(),
  objectCount: v.number(),
  nodes: v.array(ArrangementNodeSchema),
});
export type ArrangementResponse = v.InferOutput<typeof ArrangementResponseSchema>;
