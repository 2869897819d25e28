/**
 * Reference system contract (viewer.md §7 "Reference system"; application.md §7 instance calls).
 * Coordinates in the API are metres (the engine's millimetres ÷ 1000). Types FRAME (X),
 * LONGITUDINAL (Y), VERTICAL (Z); `type` is accepted in any letter case.
 *
 * - GET  /api/keelson-instance/reference-system/coordinate?value&modelName&revision        → CoordinateResponse
 * - GET  /api/keelson-instance/reference-system/frame-number?type&coordinate&modelName&revision → FrameNumberResponse
 * - GET  /api/keelson-instance/reference-system/frame-coordinates?type&startFrame&endFrame&modelName&revision → FrameCoordinatesResponse
 * - GET  /api/keelson-instance/reference-system/frame?type&coordinate&modelName&revision   → FrameResponse
 * - POST /api/keelson-instance/reference-system/frames?modelName&revision  body { types? } → FramesResponse
 */
import * as v from 'valibot';
import { requiredString, viewerIdParam } from './common';
import { ApiRefPlaneSchema, revisionParam } from './models';

/** A finite number given as a query string ("12.5") or a number. */
export const numberParam = (message = 'Must be a number') =>
  v.pipe(
    v.union([v.string(message), v.number(message)], message),
    v.transform((x) => (typeof x === 'number' ? x : x.trim() === '' ? NaN : Number(x))),
    v.number(message),
    v.finite(message),
  );

/** FRAME | LONGITUDINAL | VERTICAL, any case. */
export const FrameTypeSchema = v.pipe(
  v.string("Must be 'FRAME', 'LONGITUDINAL' or 'VERTICAL'"),
  v.transform((s) => s.trim().toUpperCase()),
  v.picklist(['FRAME', 'LONGITUDINAL', 'VERTICAL'] as const, "Must be 'FRAME', 'LONGITUDINAL' or 'VERTICAL'"),
);
export type FrameType = v.InferOutput<typeof FrameTypeSchema>;

const modelFields = { modelName: requiredString(), revision: revisionParam(), viewerId: viewerIdParam() };

export const CoordinateQuerySchema = v.object({
  ...modelFields,
  value: v.pipe(v.string('Field is required'), v.maxLength(100, 'At most 100 characters')),
});
export const FrameNumberQuerySchema = v.object({ ...modelFields, type: FrameTypeSchema, coordinate: numberParam() });
export const FrameQuerySchema = FrameNumberQuerySchema;
export const FrameCoordinatesQuerySchema = v.object({
  ...modelFields,
  type: FrameTypeSchema,
  startFrame: numberParam(),
  endFrame: numberParam(),
});
export const FramesQuerySchema = v.object(modelFields);
export const FramesBodySchema = v.optional(
  v.object({ types: v.optional(v.pipe(v.array(FrameTypeSchema), v.maxLength(3, 'At most 3 types'))) }),
  {},
);

/** The evaluated coordinate (m); `type` is the system of the first prefixed term, null for plain metres. */
export const CoordinateResponseSchema = v.object({
  value: v.string(),
  coordinate: v.number(),
  type: v.nullable(v.picklist(['FRAME', 'LONGITUDINAL', 'VERTICAL'])),
});
export type CoordinateResponse = v.InferOutput<typeof CoordinateResponseSchema>;

/** Fractional frame number at the coordinate (m). */
export const FrameNumberResponseSchema = v.object({
  type: v.string(),
  coordinate: v.number(),
  frameNumber: v.number(),
});
export type FrameNumberResponse = v.InferOutput<typeof FrameNumberResponseSchema>;

/** Whole frame numbers from ceil(start) to floor(end) with coordinates in m. */
export const FrameCoordinatesResponseSchema = v.object({
  type: v.string(),
  frames: v.array(v.object({ number: v.number(), coordinate: v.number() })),
});
export type FrameCoordinatesResponse = v.InferOutput<typeof FrameCoordinatesResponseSchema>;

/** The reference plane nearest to the coordinate (m), and the fractional frame number there (null without numbered planes). */
export const FrameResponseSchema = v.object({
  type: v.string(),
  frame: ApiRefPlaneSchema,
  frameNumber: v.nullable(v.number()),
});
export type FrameResponse = v.InferOutput<typeof FrameResponseSchema>;

/** All reference planes (m) of the asked systems (all three by default). */
export const FramesResponseSchema = v.array(v.object({ type: v.string(), planes: v.array(ApiRefPlaneSchema) }));
export type FramesResponse = v.InferOutput<typeof FramesResponseSchema>;
