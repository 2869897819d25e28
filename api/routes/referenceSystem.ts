/**
 * Reference system calls (viewer.md §7 "Reference system"; application.md §7), answered
 * from the revision's frame tables with the engine kernels engine/reference/{frameSyntax,frameSystem}.ts.
 * The API speaks metres: coordinates in queries and answers are m; plain numbers in `value` are m.
 *
 * GET  /api/keelson-instance/reference-system/coordinate?value&modelName&revision
 * GET  /api/keelson-instance/reference-system/frame-number?type&coordinate&modelName&revision
 * GET  /api/keelson-instance/reference-system/frame-coordinates?type&startFrame&endFrame&modelName&revision
 * GET  /api/keelson-instance/reference-system/frame?type&coordinate&modelName&revision
 * POST /api/keelson-instance/reference-system/frames?modelName&revision  body { types? }
 * Errors: 400 with the spec's syntax error text or 'Coordinate could not be calculated from the given
 * input: "{value}"'; 400 when a system has no numbered planes; 404 unknown project/revision.
 */
import type { FastifyInstance } from 'fastify';
import { evaluateFrameExpression, prefixAxis } from '../../engine/reference/frameSyntax';
import {
  FRAME_SYSTEM_TYPES,
  axisOfType,
  frameAxis,
  frameCoordinates,
  nearestPlane,
  numberAtCoordinate,
  typeOfAxis,
} from '../../engine/reference/frameSystem';
import {
  CoordinateQuerySchema,
  FrameCoordinatesQuerySchema,
  FrameNumberQuerySchema,
  FrameQuerySchema,
  FramesBodySchema,
  FramesQuerySchema,
  type CoordinateResponse,
  type FrameCoordinatesResponse,
  type FrameNumberResponse,
  type FrameResponse,
  type FramesResponse,
} from '../contract/reference';
import { defineRoute } from './define';
import { Access } from '../access/rules';
import { Errors } from '../errors';
import { loadRevision, planeToMetres } from '../projects/loadRevision';

export default async function referenceSystemRoutes(app: FastifyInstance): Promise<void> {
  const base = '/api/keelson-instance/reference-system';

  defineRoute(app, {
    method: 'GET',
    url: `${base}/coordinate`,
    access: Access.byModel,
    query: CoordinateQuerySchema,
    handler: async ({ query: q }): Promise<CoordinateResponse> => {
      const { data } = await loadRevision(app, q.modelName, q.revision);
      const r = evaluateFrameExpression(q.value, data.frames);
      if (!r.ok) throw Errors.badRequest(r.error);
      const first = r.terms.find((t) => t.prefix !== '');
      const axis = first ? prefixAxis(first.prefix) : null;
      return { value: q.value.toUpperCase(), coordinate: r.coordinate / 1000, type: axis ? typeOfAxis(axis) : null };
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: `${base}/frame-number`,
    access: Access.byModel,
    query: FrameNumberQuerySchema,
    handler: async ({ query: q }): Promise<FrameNumberResponse> => {
      const { data } = await loadRevision(app, q.modelName, q.revision);
      const n = numberAtCoordinate(frameAxis(data.frames, axisOfType(q.type)), q.coordinate * 1000);
      if (n === null)
        throw Errors.badRequest(`The ${q.type} system of this model has fewer than two numbered reference planes`);
      return { type: q.type, coordinate: q.coordinate, frameNumber: n };
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: `${base}/frame-coordinates`,
    access: Access.byModel,
    query: FrameCoordinatesQuerySchema,
    handler: async ({ query: q }): Promise<FrameCoordinatesResponse> => {
      const { data } = await loadRevision(app, q.modelName, q.revision);
      try {
        const frames = frameCoordinates(frameAxis(data.frames, axisOfType(q.type)), q.startFrame, q.endFrame);
        return { type: q.type, frames: frames.map((f) => ({ number: f.number, coordinate: f.coordinate / 1000 })) };
      } catch (e) {
        throw Errors.badRequest((e as Error).message);
      }
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: `${base}/frame`,
    access: Access.byModel,
    query: FrameQuerySchema,
    handler: async ({ query: q }): Promise<FrameResponse> => {
      const { data } = await loadRevision(app, q.modelName, q.revision);
      const fa = frameAxis(data.frames, axisOfType(q.type));
      const p = nearestPlane(fa, q.coordinate * 1000);
      if (!p) throw Errors.badRequest(`The ${q.type} system of this model has no reference planes`);
      return { type: q.type, frame: planeToMetres(p), frameNumber: numberAtCoordinate(fa, q.coordinate * 1000) };
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: `${base}/frames`,
    access: Access.byModel,
    query: FramesQuerySchema,
    body: FramesBodySchema,
    handler: async ({ query: q, body }): Promise<FramesResponse> => {
      const { data } = await loadRevision(app, q.modelName, q.revision);
      const types = body.types?.length ? body.types : FRAME_SYSTEM_TYPES;
      return types.map((type) => ({
        type,
        planes: frameAxis(data.frames, axisOfType(type)).planes.map(planeToMetres),
      }));
    },
  });
}
