/**
 * One ArrayBuffer for the meshes of many parts (fewer allocations and less garbage
 * collection on large imports). Each part's four arrays (positions, normals, indices, edges) were four
 * ArrayBuffers of their own: four backing stores to allocate, zero and sweep, four more heap objects
 * per part to mark. A slab collects the parts' arrays in a reusable scratch buffer; seal() copies them
 * into one ArrayBuffer of exactly the size needed and returns the PartMeshes, whose arrays are views
 * of it (byteOffset > 0 in general: consumers must honour byteOffset and byteLength).
 *
 * The ArrayBuffer of one seal() belongs to the meshes of that seal alone, so the meshes of one top-level
 * group can be transferred to another thread without detaching any other group's arrays
 * (engine/node/ocx/partWorker.ts transfers each distinct buffer once).
 */
import type { PartMesh } from '../model/types';
import type { MeshBuilder } from './MeshBuilder';

/** Words (4 bytes) of scratch a slab keeps between seals; a larger scratch is dropped after the seal. */
const KEEP_WORDS = 1 << 22;

/** Per added part: object index, then offset (words) and length of positions, normals, indices, edges. */
const SLOT = 9;

export class MeshSlab {
  private scratch = new ArrayBuffer(1 << 16);
  private f32 = new Float32Array(this.scratch);
  private u32 = new Uint32Array(this.scratch);
  /** Words used in the scratch. */
  private used = 0;
  /** SLOT numbers per added part (see SLOT); -1 as normals/edges offset means null. */
  private slots: number[] = [];

  /** Parts added since the last seal. */
  get size(): number {
    return this.slots.length / SLOT;
  }

  /**
   * Adds the mesh of `object` from a finished builder: the same arrays as MeshBuilder.build()
   * (float32 positions and normals, the indices of the non-degenerate triangles, float32 edges; normals
   * null without triangles, edges null without edges), then ends the builder (MeshBuilder.release).
   */
  add(object: number, mb: MeshBuilder): void {
    const np = mb.positions.length,
      ni = mb.indices.length,
      ne = mb.edges.length;
    this.ensure(this.used + 2 * np + ni + ne);
    const f32 = this.f32;
    let at = this.used;
    const pos = at;
    f32.set(mb.positions, at);
    at += np;
    let nor = -1;
    if (ni) {
      nor = at;
      f32.set(mb.normals, at);
      at += np;
    }
    const idx = at;
    const nk = mb.writeKeptIndices(this.u32, at);
    at += nk;
    let edg = -1;
    if (ne) {
      edg = at;
      f32.set(mb.edges, at);
      at += ne;
    }
    this.used = at;
    this.slots.push(object, pos, np, nor, np, idx, nk, edg, ne);
    mb.release();
  }

  /**
   * The meshes added since the last seal, in the order added, their arrays views of one new
   * ArrayBuffer of exactly their size (none when nothing was added). Empties the slab.
   */
  seal(): PartMesh[] {
    const S = this.slots;
    if (!S.length) return [];
    const buf = this.scratch.slice(0, 4 * this.used);
    const meshes: PartMesh[] = new Array(S.length / SLOT);
    for (let k = 0, m = 0; k < S.length; k += SLOT, m++) {
      meshes[m] = {
        object: S[k],
        positions: new Float32Array(buf, 4 * S[k + 1], S[k + 2]),
        normals: S[k + 3] < 0 ? null : new Float32Array(buf, 4 * S[k + 3], S[k + 4]),
        indices: new Uint32Array(buf, 4 * S[k + 5], S[k + 6]),
        edges: S[k + 7] < 0 ? null : new Float32Array(buf, 4 * S[k + 7], S[k + 8]),
      };
    }
    this.slots = [];
    this.used = 0;
    if (this.u32.length > KEEP_WORDS) this.resize(1 << 16);
    return meshes;
  }

  /** Drops the parts added since the last seal (after a failed group). */
  clear(): void {
    this.slots = [];
    this.used = 0;
  }

  /** Grows the scratch to hold at least `words` words, keeping what it holds. */
  private ensure(words: number): void {
    if (words > this.u32.length) this.resize(Math.max(words, 2 * this.u32.length));
  }

  private resize(words: number): void {
    const old = this.u32.subarray(0, this.used);
    this.scratch = new ArrayBuffer(4 * words);
    this.f32 = new Float32Array(this.scratch);
    this.u32 = new Uint32Array(this.scratch);
    this.u32.set(old);
  }
}
