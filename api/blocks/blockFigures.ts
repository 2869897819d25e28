/**
 * A block's figures from its parts (viewer.md §3 "Block"; §7 POST /steel/blocks): weight in t, centre of
 * gravity and bounding box in m. A block's objects are its parts and their descendants
 * (engine/model/blocks.ts); the weight sums the objects whose parent is not in the block, so a part's own
 * weight is never counted again through its children (a panel's W already sums its plates).
 */
import { blockIndexOf, objectsOfBlock } from '../../engine/model/blocks';
import { MassSum } from '../../engine/model/massSum';
import {
  type BlockSystem,
  type ModelObject,
  type PropertyRecord,
  emptyBox,
  isBoxValid,
} from '../../engine/model/types';
import type { Block } from '../contract/blocks';
import { boxToMetres } from '../projects/loadRevision';

/** The parts of the revision the figures read. */
export interface BlockSource {
  objects: readonly ModelObject[];
  properties: readonly PropertyRecord[];
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** The objects of block `k` of `system`, ascending (its parts and their descendants). */
export function blockObjects(src: BlockSource, system: BlockSystem, k: number): number[] {
  return objectsOfBlock(blockIndexOf(src.objects, system), k);
}

/**
 * Weight (t, W summed over the block's top objects), centre of gravity (m, W-weighted mean of XCG/YCG/ZCG
 * over the top objects that have both; null when none) and bounding box (m, union of the objects' bounds;
 * null when none has geometry) of a set of objects that is closed under "child of a member".
 */
export function figuresOf(src: BlockSource, members: readonly number[]): Omit<Block, 'name' | 'blockSystem'> {
  const inSet = new Set(members);
  const mass = new MassSum();
  const box = emptyBox();
  for (const i of members) {
    const o = src.objects[i];
    const b = o.bounds;
    if (b)
      for (let a = 0; a < 3; a++) {
        box[a] = Math.min(box[a], b[a]);
        box[a + 3] = Math.max(box[a + 3], b[a + 3]);
      }
    if (o.parent >= 0 && o.parent !== i && inSet.has(o.parent)) continue;
    const p = src.properties[i] ?? {};
    const w = num(p.W);
    if (w === null) continue;
    mass.add(w, num(p.XCG), num(p.YCG), num(p.ZCG));
  }
  return {
    objectCount: members.length,
    weight: mass.weight,
    centerOfGravity: mass.cog(),
    boundingBox: isBoxValid(box) ? boxToMetres(box) : null,
  };
}
