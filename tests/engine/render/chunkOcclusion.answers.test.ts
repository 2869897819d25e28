/**
 * The decisions of engine/render/chunkOcclusion.ts from query answers, in Node: the WebGL2 queries are
 * answered by a scripted context (which samples passed is what the browser test measures for real,
 * tests/browser/occlusion.culling.test.ts); here, what the culler draws, tests and waits for follows.
 */
import { describe, expect, it } from 'vitest';
import { Mesh } from 'three';
import { ChunkOcclusion, crossesNearPlane, type OcclusionGl } from '../../../engine/render/chunkOcclusion';

/** A query context whose answers the test sets per query (samples passed; undefined = not available yet). */
class ScriptedGl implements OcclusionGl {
  readonly ANY_SAMPLES_PASSED = 1;
  readonly QUERY_RESULT_AVAILABLE = 2;
  readonly QUERY_RESULT = 3;
  readonly answers = new Map<WebGLQuery, number | undefined>();
  active: WebGLQuery | null = null;
  begun = 0;
  createQuery(): WebGLQuery {
    const q = {} as WebGLQuery;
    this.answers.set(q, undefined);
    return q;
  }
  deleteQuery(q: WebGLQuery | null): void {
    if (q) this.answers.delete(q);
  }
  beginQuery(_t: number, q: WebGLQuery): void {
    if (this.active) throw new Error('a query is already active');
    this.active = q;
    this.answers.set(q, undefined);
    this.begun++;
  }
  endQuery(): void {
    if (!this.active) throw new Error('no active query');
    this.active = null;
  }
  getQueryParameter(q: WebGLQuery, p: number): unknown {
    const a = this.answers.get(q);
    return p === this.QUERY_RESULT_AVAILABLE ? a !== undefined : (a ?? 0);
  }
}

/** An orthographic view-projection along −z: x, y in ±1000 mm visible, depth 0..−2000 mm. */
const VIEW = [0.001, 0, 0, 0, 0, 0.001, 0, 0, 0, 0, -0.001, 0, 0, 0, -1, 1];
/** Two chunks in front of the camera: 0 near, 1 behind it. */
const BOXES = new Float64Array([-500, -500, -600, 500, 500, -500, -400, -400, -1500, 400, 400, -1400]);
const ALL = new Uint8Array([1, 1]);

/** Runs three's render hooks of the drawn meshes and the visible test boxes, as the renderer would. */
function render(occ: ChunkOcclusion, meshes: Mesh[][], draw: Uint8Array): void {
  const call = (m: Mesh) => {
    m.onBeforeRender(null as never, null as never, null as never, null as never, null as never, null as never);
    m.onAfterRender(null as never, null as never, null as never, null as never, null as never, null as never);
  };
  meshes.forEach((ms, i) => {
    if (draw[i]) call(ms[0]);
  });
  for (const b of occ.group.children) if (b.visible) call(b as Mesh);
}

function setup() {
  const gl = new ScriptedGl();
  const occ = new ChunkOcclusion(gl);
  const meshes = [0, 1].map(() => [new Mesh(), new Mesh()]);
  meshes.forEach((ms, i) => occ.wrapDraw(i, ms));
  const answerAll = (samples: (q: WebGLQuery) => number) => {
    for (const q of gl.answers.keys()) if (gl.answers.get(q) === undefined) gl.answers.set(q, samples(q));
  };
  return { gl, occ, meshes, answerAll };
}

describe('ChunkOcclusion', () => {
  it('draws new chunks, asks their draws once per view and drops the one whose draw showed nothing', () => {
    const { gl, occ, meshes } = setup();
    let draw = occ.select(ALL, BOXES, VIEW, 1);
    expect([...draw]).toEqual([1, 1]);
    expect(occ.tested).toBe(0); // drawn chunks are asked through their own draw, not a box
    render(occ, meshes, draw);
    expect(gl.begun).toBe(2);
    expect(occ.pending).toBe(true);
    // Chunk 0 showed samples, chunk 1 none.
    const [q0, q1] = [...gl.answers.keys()];
    gl.answers.set(q0, 1);
    gl.answers.set(q1, 0);
    occ.poll();
    expect(occ.pending).toBe(false);
    draw = occ.select(ALL, BOXES, VIEW, 1);
    expect([...draw]).toEqual([1, 0]);
    expect(occ.occluded).toBe(1);
    // Same view: nothing asked again, nothing pending.
    render(occ, meshes, draw);
    expect(gl.begun).toBe(2);
    expect(occ.pending).toBe(false);
  });

  it('tests a dropped chunk by its box at a new view and draws it again when the box shows a sample', () => {
    const { gl, occ, meshes, answerAll } = setup();
    render(occ, meshes, occ.select(ALL, BOXES, VIEW, 1));
    const [q0, q1] = [...gl.answers.keys()];
    gl.answers.set(q0, 1);
    gl.answers.set(q1, 0);
    occ.poll();
    // New view: chunk 1 is tested with its box (after the drawn chunks), chunk 0 through its draw.
    let draw = occ.select(ALL, BOXES, VIEW, 2);
    expect([...draw]).toEqual([1, 0]);
    expect(occ.tested).toBe(1);
    const box = occ.group.children.find((b) => b.visible)!;
    expect(box.position.toArray()).toEqual([-400, -400, -1500]);
    expect(box.scale.toArray()).toEqual([800, 800, 100]);
    render(occ, meshes, draw);
    // The answers are not in yet: the chunk stays dropped and the culler waits.
    occ.poll();
    expect(occ.pending).toBe(true);
    draw = occ.select(ALL, BOXES, VIEW, 2);
    expect([...draw]).toEqual([1, 0]);
    answerAll(() => 1);
    occ.poll();
    expect(occ.revealed).toBe(true);
    draw = occ.select(ALL, BOXES, VIEW, 2);
    expect([...draw]).toEqual([1, 1]);
    expect(occ.tested).toBe(0);
    expect(occ.pending).toBe(false);
  });

  it('asks chunks whose draw cannot answer (translucent, empty) with their box, and forgets answers on reset', () => {
    const { gl, occ, meshes, answerAll } = setup();
    const draw = occ.select(ALL, BOXES, VIEW, 1, new Uint8Array([0, 1]));
    expect([...draw]).toEqual([1, 1]);
    expect(occ.tested).toBe(1);
    render(occ, meshes, draw);
    answerAll(() => 0);
    occ.poll();
    expect([...occ.select(ALL, BOXES, VIEW, 1)]).toEqual([0, 0]);
    occ.reset();
    expect([...occ.select(ALL, BOXES, VIEW, 1)]).toEqual([1, 1]);
    expect(gl.begun).toBe(2);
  });

  it('gives up on a query that never answers and draws its chunk', () => {
    const { occ, meshes, gl } = setup();
    render(occ, meshes, occ.select(ALL, BOXES, VIEW, 1));
    const [q0, q1] = [...gl.answers.keys()];
    gl.answers.set(q0, 1);
    gl.answers.set(q1, 0);
    occ.poll();
    render(occ, meshes, occ.select(ALL, BOXES, VIEW, 2));
    let polls = 0;
    while (occ.pending && polls < 100) {
      occ.poll();
      polls++;
    }
    expect(occ.pending).toBe(false);
    expect(polls).toBeGreaterThan(1);
    expect(polls).toBeLessThan(100);
    expect([...occ.select(ALL, BOXES, VIEW, 2)]).toEqual([1, 1]);
  });

  it('withdraws a draw query whose mesh was not rendered, and always draws boxes at the near plane', () => {
    const { gl, occ } = setup();
    occ.select(ALL, BOXES, VIEW, 1);
    // Nothing rendered (e.g. the frame was skipped): the next poll withdraws the armed queries.
    occ.poll();
    expect(occ.pending).toBe(false);
    occ.select(ALL, BOXES, VIEW, 1);
    expect(gl.begun).toBe(0);
    // A box reaching in front of the near plane (z > 0 here) is drawn without a test.
    const near = new Float64Array([-10, -10, -100, 10, 10, 50]);
    expect(crossesNearPlane(VIEW, near, 0)).toBe(true);
    expect(crossesNearPlane(VIEW, BOXES, 0)).toBe(false);
    const n = new ChunkOcclusion(gl);
    expect([...n.select(new Uint8Array([1]), near, VIEW, 1)]).toEqual([1]);
    expect(n.tested).toBe(0);
  });
});
