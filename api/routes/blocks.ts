/**
 * Blocks, block systems and the arrangement trees (viewer.md §3 "Block", "Block system"; §7 Steel, Ship
 * model), answered from the revision's object table, properties and block systems (objects.json) through the
 * RevisionCache. Weights in t, lengths in m (engine millimetres ÷ 1000).
 *
 * GET  /api/keelson-instance/steel/block-system   (name → name, blockNames; no name → the system names)
 * POST /api/keelson-instance/steel/blocks         (block or block-system names → name, weight, CoG, box)
 * GET  /api/keelson-instance/steel/arrangement    (structures; optional limits and block root)
 * GET  /api/keelson-instance/ship-model/arrangement (compartments; optional limits)
 * Errors: 404 'Block system "{name}" not found', 'Block "{name}" not found', unknown project/revision;
 * 400 naming a malformed field.
 */
import type { FastifyInstance } from 'fastify';
import { blockIndexOf } from '../../engine/model/blocks';
import type { BlockSystem } from '../../engine/model/types';
import { Access } from '../access/rules';
import { arrangementOf, meetsLimits } from '../blocks/arrangement';
import { blockObjects, figuresOf } from '../blocks/blockFigures';
import {
  type ArrangementResponse,
  BlockSystemQuerySchema,
  type BlockSystemNamesResponse,
  type BlockSystemResponse,
  BlocksBodySchema,
  BlocksQuerySchema,
  type BlocksResponse,
  ShipModelArrangementQuerySchema,
  SteelArrangementQuerySchema,
} from '../contract/blocks';
import { Errors } from '../errors';
import { loadRevision } from '../projects/loadRevision';
import { defineRoute } from './define';

/** The system named `name` among `systems`. @throws ApiError 404 'Block system "{name}" not found'. */
function systemNamed(systems: readonly BlockSystem[], name: string): BlockSystem {
  const s = systems.find((x) => x.name === name);
  if (!s) throw Errors.blockSystemNotFound(name);
  return s;
}

/**
 * The block named `name`: in `system` when given, else in the first system that has it.
 * @throws ApiError 404 'Block "{name}" not found'.
 */
function blockNamed(systems: readonly BlockSystem[], name: string, system?: BlockSystem): [BlockSystem, number] {
  for (const s of system ? [system] : systems) {
    const k = s.blocks.findIndex((b) => b.name === name);
    if (k >= 0) return [s, k];
  }
  throw Errors.blockNotFound(name);
}

export default async function blockRoutes(app: FastifyInstance): Promise<void> {
  const base = '/api/keelson-instance';

  defineRoute(app, {
    method: 'GET',
    url: `${base}/steel/block-system`,
    access: Access.byModel,
    query: BlockSystemQuerySchema,
    handler: async ({ query: q }): Promise<BlockSystemResponse | BlockSystemNamesResponse> => {
      const { data } = await loadRevision(app, q.modelName, q.revision);
      if (q.name === undefined) return data.blockSystems.map((s) => s.name);
      const s = systemNamed(data.blockSystems, q.name);
      return { name: s.name, blockNames: s.blocks.map((b) => b.name) };
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: `${base}/steel/blocks`,
    access: Access.byModel,
    query: BlocksQuerySchema,
    body: BlocksBodySchema,
    handler: async ({ query: q, body }): Promise<BlocksResponse> => {
      const { data } = await loadRevision(app, q.modelName, q.revision);
      const systems = data.blockSystems;
      const only = q.blockSystem === undefined ? undefined : systemNamed(systems, q.blockSystem);
      // One membership pass per system asked about, not per block.
      const memberships = new Map<BlockSystem, Int32Array>();
      const membership = (s: BlockSystem) => {
        let m = memberships.get(s);
        if (!m) memberships.set(s, (m = blockIndexOf(data.objects, s)));
        return m;
      };
      const out: BlocksResponse = [];
      for (const name of body) {
        const asSystem = only ? undefined : systems.find((s) => s.name === name);
        const found: [BlockSystem, number][] = asSystem
          ? asSystem.blocks.map((_, k) => [asSystem, k])
          : [blockNamed(systems, name, only)];
        for (const [s, k] of found) {
          const m = membership(s);
          const members: number[] = [];
          for (let i = 0; i < m.length; i++) if (m[i] === k) members.push(i);
          out.push({ name: s.blocks[k].name, blockSystem: s.name, ...figuresOf(data, members) });
        }
      }
      return out;
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: `${base}/steel/arrangement`,
    access: Access.byModel,
    query: SteelArrangementQuerySchema,
    handler: async ({ query: q }): Promise<ArrangementResponse> => {
      const { name, data } = await loadRevision(app, q.modelName, q.revision);
      const only = q.blockSystem === undefined ? undefined : systemNamed(data.blockSystems, q.blockSystem);
      let inBlock: Set<number> | null = null;
      if (q.blockRoot !== undefined) {
        const [s, k] = blockNamed(data.blockSystems, q.blockRoot, only);
        inBlock = new Set(blockObjects(data, s, k));
      }
      const limits = q.limits;
      const keep =
        inBlock || limits
          ? (i: number) => (!inBlock || inBlock.has(i)) && (!limits || meetsLimits(data.objects[i].bounds, limits))
          : null;
      return arrangementOf(data.objects, 'structures', `Structures (${name})`, keep);
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: `${base}/ship-model/arrangement`,
    access: Access.byModel,
    query: ShipModelArrangementQuerySchema,
    handler: async ({ query: q }): Promise<ArrangementResponse> => {
      const { name, data } = await loadRevision(app, q.modelName, q.revision);
      const limits = q.limits;
      const keep = limits ? (i: number) => meetsLimits(data.objects[i].bounds, limits) : null;
      return arrangementOf(data.objects, 'compartments', `Compartments (${name})`, keep);
    },
  });
}
