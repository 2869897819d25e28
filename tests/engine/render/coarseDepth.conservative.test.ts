/**
 * engine/render/coarseDepth.ts in Node: a box is reported hidden only when it really is. Random walls
 * and boxes under a perspective camera are checked against an exact reference: rays through a dense grid
 * of screen points over the box's projection, each intersected with every occluder triangle; a hidden
 * box must have, at every such point, an occluder strictly nearer than the box's nearest corner.
 */
import { describe, expect, it } from 'vitest';
import { Matrix4, PerspectiveCamera, Vector3 } from 'three';
import { CoarseDepthBuffer } from '../../../engine/render/coarseDepth';

/** Deterministic random numbers in [0, 1). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function camera(eye: [number, number, number], target: [number, number, number], aspect = 16 / 9): number[] {
  const cam = new PerspectiveCamera(45, aspect, 100, 200_000);
  cam.up.set(0, 0, 1);
  cam.position.set(...eye);
  cam.lookAt(new Vector3(...target));
  cam.updateMatrixWorld(true);
  return new Matrix4().multiplyMatrices(cam.projectionMatrix, cam.matrixWorldInverse).toArray();
}

/** A rectangle (two triangles, 18 values) spanned from corner `o` by edges `u` and `v` (mm). */
function quad(o: number[], u: number[], v: number[]): number[] {
  const p = (a: number, b: number) => [0, 1, 2].map((k) => o[k] + a * u[k] + b * v[k]);
  return [...p(0, 0), ...p(1, 0), ...p(1, 1), ...p(0, 0), ...p(1, 1), ...p(0, 1)];
}

/** NDC depth of the nearest occluder along the screen point (ndcX, ndcY), +Infinity when none. */
function occluderDepthAt(m: number[], tris: number[], ndcX: number, ndcY: number): number {
  const inv = new Matrix4().fromArray(m).invert();
  const a = new Vector3(ndcX, ndcY, -1).applyMatrix4(inv),
    b = new Vector3(ndcX, ndcY, 1).applyMatrix4(inv);
  const dir = b.clone().sub(a);
  let best = Infinity;
  for (let t = 0; t < tris.length; t += 9) {
    const p0 = new Vector3(tris[t], tris[t + 1], tris[t + 2]);
    const e1 = new Vector3(tris[t + 3], tris[t + 4], tris[t + 5]).sub(p0);
    const e2 = new Vector3(tris[t + 6], tris[t + 7], tris[t + 8]).sub(p0);
    const h = dir.clone().cross(e2);
    const det = e1.dot(h);
    if (Math.abs(det) < 1e-12) continue;
    const s = a.clone().sub(p0);
    const u = s.dot(h) / det;
    const q = s.clone().cross(e1);
    const v = dir.dot(q) / det;
    const k = e2.dot(q) / det;
    if (u < 0 || v < 0 || u + v > 1 || k < 0 || k > 1) continue;
    const hit = a.clone().addScaledVector(dir, k).applyMatrix4(new Matrix4().fromArray(m));
    if (hit.z < best) best = hit.z;
  }
  return best;
}

/** Nearest NDC depth and NDC rectangle of a box's corners. */
function projectBox(m: number[], box: number[]): { near: number; x0: number; x1: number; y0: number; y1: number } {
  const mm = new Matrix4().fromArray(m);
  const r = { near: Infinity, x0: Infinity, x1: -Infinity, y0: Infinity, y1: -Infinity };
  for (let c = 0; c < 8; c++) {
    const p = new Vector3(box[c & 1 ? 3 : 0], box[c & 2 ? 4 : 1], box[c & 4 ? 5 : 2]).applyMatrix4(mm);
    r.near = Math.min(r.near, p.z);
    r.x0 = Math.min(r.x0, p.x);
    r.x1 = Math.max(r.x1, p.x);
    r.y0 = Math.min(r.y0, p.y);
    r.y1 = Math.max(r.y1, p.y);
  }
  return r;
}

describe('CoarseDepthBuffer', () => {
  const vp = camera([-20_000, 0, 0], [0, 0, 0]);
  // A wall at x = 0 facing the camera, 20 m × 10 m.
  const wall = quad([0, -10_000, -5000], [0, 20_000, 0], [0, 0, 10_000]);

  it('hides a box behind a wall, not one in front of it, beside it or around the camera', () => {
    const buf = new CoarseDepthBuffer();
    buf.begin(vp, 320, 180);
    expect(buf.drawTriangle(wall, 0)).toBe(true);
    expect(buf.drawTriangle(wall, 9)).toBe(true);
    const behind = [1000, -1000, -1000, 3000, 1000, 1000];
    const before = [-3000, -1000, -1000, -1000, 1000, 1000];
    const straddling = [1000, 9000, -1000, 3000, 12_000, 1000];
    const camera = [-21_000, -500, -500, -19_000, 500, 500];
    expect(buf.boxVisible(behind, 0)).toBe(false);
    expect(buf.boxVisible(before, 0)).toBe(true);
    expect(buf.boxVisible(straddling, 0)).toBe(true);
    expect(buf.boxVisible(camera, 0)).toBe(true);
    // Nothing drawn: everything in the view is visible.
    buf.begin(vp, 320, 180);
    expect(buf.boxVisible(behind, 0)).toBe(true);
    expect(buf.trianglesDrawn).toBe(0);
  });

  it('rejects bad sizes and matrices with a message', () => {
    const buf = new CoarseDepthBuffer();
    expect(() => buf.begin(vp, 0, 10)).toThrow(/positive integers/);
    expect(() => buf.begin([...vp.slice(0, 15), Number.NaN], 10, 10)).toThrow(/matrix value 15/);
  });

  it('never reports a box hidden that an exact ray test sees (random walls, boxes and views)', () => {
    const rand = rng(7);
    let hidden = 0,
      checked = 0;
    for (let scene = 0; scene < 12; scene++) {
      const eye: [number, number, number] = [
        -15_000 - rand() * 10_000,
        (rand() - 0.5) * 20_000,
        (rand() - 0.5) * 10_000,
      ];
      const m = camera(eye, [(rand() - 0.5) * 4000, (rand() - 0.5) * 4000, (rand() - 0.5) * 4000], 1 + rand());
      const tris: number[] = [];
      for (let w = 0; w < 6; w++) {
        // Tilted plates of 3–15 m between the camera and the boxes.
        const o = [(rand() - 0.7) * 6000, (rand() - 0.5) * 16_000, (rand() - 0.5) * 10_000];
        const u = [(rand() - 0.5) * 6000, 3000 + rand() * 12_000, (rand() - 0.5) * 3000];
        const v = [(rand() - 0.5) * 6000, (rand() - 0.5) * 3000, 3000 + rand() * 8000];
        tris.push(...quad(o, u, v));
      }
      const buf = new CoarseDepthBuffer();
      buf.begin(m, 96, 64);
      for (let t = 0; t < tris.length; t += 9) buf.drawTriangle(tris, t);
      for (let k = 0; k < 40; k++) {
        const c = [rand() * 8000, (rand() - 0.5) * 16_000, (rand() - 0.5) * 10_000];
        const e = [200 + rand() * 3000, 200 + rand() * 3000, 200 + rand() * 3000];
        const box = [c[0], c[1], c[2], c[0] + e[0], c[1] + e[1], c[2] + e[2]];
        if (buf.boxVisible(box, 0)) continue;
        const r = projectBox(m, box);
        if (r.x1 < -1 || r.x0 > 1 || r.y1 < -1 || r.y0 > 1) continue; // outside the view
        hidden++;
        for (let i = 0; i <= 24; i++)
          for (let j = 0; j <= 24; j++) {
            const x = Math.max(-1, Math.min(1, r.x0 + ((r.x1 - r.x0) * i) / 24));
            const y = Math.max(-1, Math.min(1, r.y0 + ((r.y1 - r.y0) * j) / 24));
            const z = occluderDepthAt(m, tris, x, y);
            checked++;
            expect(z, `scene ${scene} box ${k} at (${x}, ${y})`).toBeLessThan(r.near);
          }
      }
    }
    // The scenes must actually hide boxes, or the test proves nothing.
    expect(hidden).toBeGreaterThan(10);
    expect(checked).toBeGreaterThan(1000);
  });
});
