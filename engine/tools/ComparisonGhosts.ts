/**
 * Ghosts of removed parts while comparing revisions (beyond application.md §4 "Revision comparison": the
 * anchors only colour what is in the later revision). The earlier revision's `.sc` package is streamed and
 * only the listed objects' triangles and edges are kept, in world millimetres, drawn translucent red over
 * the model. Ghosts are not part of the model: they are not picked, hidden, clipped or painted with it.
 */
import {
  BufferAttribute,
  BufferGeometry,
  DoubleSide,
  Group,
  LineBasicMaterial,
  LineSegments,
  Mesh,
  MeshBasicMaterial,
} from 'three';
import type { SceneChunk } from '../package/types';
import { streamScenePackage } from '../scene/streamScenePackage';
import type { ToolHost } from './ToolHost';

/** Ghost fill (sRGB) and opacity, and the edge colour: a removed part reads as a red shadow. */
export const GHOST_RGB = 0xd04040;
export const GHOST_OPACITY = 0.35;
export const GHOST_EDGE_RGB = 0x902020;

/** Triangles and edges of some objects in world coordinates (mm), grown chunk by chunk. */
export class GhostBuffers {
  positions: number[] = [];
  indices: number[] = [];
  edges: number[] = [];
  /** Object indices that had geometry. */
  readonly found = new Set<number>();

  /**
   * Appends the rows of `chunk` whose object index is in `wanted`: dequantises the object's vertices
   * (world = min + q · (max − min) / 65535) and rebases its triangle and edge indices.
   */
  addChunk(chunk: SceneChunk, wanted: ReadonlySet<number>): void {
    const { objects, positions, indices, bounds } = chunk;
    const scale = [0, 1, 2].map((a) => (bounds[3 + a] - bounds[a]) / 65535);
    for (let r = 0; r * 5 < objects.length; r++) {
      const [object, vStart, vCount, iStart, iCount] = objects.subarray(r * 5, r * 5 + 5);
      if (!wanted.has(object)) continue;
      this.found.add(object);
      const base = this.positions.length / 3;
      for (let v = vStart; v < vStart + vCount; v++)
        for (let a = 0; a < 3; a++) this.positions.push(bounds[a] + positions[v * 3 + a] * scale[a]);
      // Chunk indices address the chunk's vertices; the object's own start at vStart.
      for (let i = iStart; i < iStart + iCount; i++) this.indices.push(indices[i] - vStart + base);
      const e = chunk.edgeObjects;
      for (let k = 0; k * 3 < e.length; k++) {
        if (e[k * 3] !== object) continue;
        const s0 = e[k * 3 + 1];
        for (let s = s0; s < s0 + e[k * 3 + 2]; s++)
          this.edges.push(chunk.edges[s * 2] - vStart + base, chunk.edges[s * 2 + 1] - vStart + base);
      }
    }
  }
}

/** Draws and removes the ghosts; one set at a time. */
export class ComparisonGhosts {
  private group: Group | null = null;
  private abort: AbortController | null = null;

  constructor(
    private readonly host: ToolHost,
    private readonly fetchFn?: typeof fetch,
  ) {}

  /** Objects drawn as ghosts now. */
  count = 0;

  /**
   * Streams the earlier revision's package from `url` and draws the objects `objectIndices` (object-table
   * indices of that revision) as ghosts, replacing any shown. Resolves with how many had geometry.
   * @throws Error 'Loading model failed: ...' when the package cannot be read; an AbortError when
   *   cleared or replaced meanwhile.
   */
  async show(url: string, headers: Record<string, string>, objectIndices: Uint32Array): Promise<number> {
    this.clear();
    const abort = new AbortController();
    this.abort = abort;
    const wanted = new Set(objectIndices);
    const buffers = new GhostBuffers();
    if (wanted.size > 0)
      await streamScenePackage(url, headers, {
        onHeader: () => {},
        onChunk: (chunk) => buffers.addChunk(chunk, wanted),
        signal: abort.signal,
        fetchFn: this.fetchFn,
      });
    if (abort.signal.aborted) throw new DOMException('Ghosts replaced', 'AbortError');
    this.abort = null;
    this.group = buildGhosts(buffers);
    this.host.scene.add(this.group);
    this.count = buffers.found.size;
    this.host.invalidate();
    return this.count;
  }

  /** Removes the ghosts (and stops a stream still running). */
  clear(): void {
    this.abort?.abort();
    this.abort = null;
    if (this.group) {
      this.group.removeFromParent();
      this.group.traverse((o) => {
        if (o instanceof Mesh || o instanceof LineSegments) {
          o.geometry.dispose();
          (o.material as MeshBasicMaterial).dispose();
        }
      });
      this.group = null;
      this.host.invalidate();
    }
    this.count = 0;
  }

  dispose(): void {
    this.clear();
  }
}

function buildGhosts(b: GhostBuffers): Group {
  const group = new Group();
  group.name = 'comparison ghosts';
  if (b.indices.length === 0) return group;
  const pos = new BufferAttribute(new Float32Array(b.positions), 3);
  const fill = new BufferGeometry();
  fill.setAttribute('position', pos);
  fill.setIndex(new BufferAttribute(new Uint32Array(b.indices), 1));
  const mesh = new Mesh(
    fill,
    new MeshBasicMaterial({
      color: GHOST_RGB,
      transparent: true,
      opacity: GHOST_OPACITY,
      depthWrite: false,
      side: DoubleSide,
    }),
  );
  mesh.name = 'removed parts';
  // Drawn after the model's opaque and translucent passes.
  mesh.renderOrder = 10;
  group.add(mesh);
  if (b.edges.length) {
    const lines = new BufferGeometry();
    lines.setAttribute('position', pos);
    lines.setIndex(new BufferAttribute(new Uint32Array(b.edges), 1));
    const edges = new LineSegments(lines, new LineBasicMaterial({ color: GHOST_EDGE_RGB }));
    edges.name = 'removed part edges';
    edges.renderOrder = 11;
    group.add(edges);
  }
  return group;
}
