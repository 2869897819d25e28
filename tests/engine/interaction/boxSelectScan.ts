/**
 * The box selection as it was before the hierarchy: every eligible object tested on its 8 projected corners,
 * then on its triangles. Kept as the reference the hierarchy query must match exactly
 * (boxSelect.query.test.ts, tests/engine/scene/ModelScene.boxSelect.test.ts).
 */
import {
  type BoxSelectMode,
  type BoxSelectSource,
  projectToScreen,
  type ScreenProjection,
  type ScreenRect,
  type TrianglePiece,
  triangleOverlapsRect,
} from '../../../engine/interaction/boxSelect';

/** Calls `fn` with each triangle (9 world numbers, mm) of object `id`, read from its pieces, until it returns true. */
export function forEachTriangleOf(src: BoxSelectSource, id: number, fn: (tri: Float64Array) => boolean): void {
  const t = new Float64Array(9);
  src.forEachPiece(id, (p) => {
    for (let i = p.start; i < p.end; i += 3) {
      for (let k = 0; k < 9; k++) {
        const v = p.indices[i + Math.floor(k / 3)] * 3 + (k % 3);
        t[k] = p.origin[k % 3] + p.positions[v] * p.step[k % 3];
      }
      if (fn(t)) return true;
    }
    return false;
  });
}

/** A piece holding plain world triangles (9 numbers each, mm): origin 0, step 1, indices 0, 1, 2, ... */
export function trianglePiece(triangles: ArrayLike<number>): TrianglePiece {
  const n = Math.floor(triangles.length / 9) * 3;
  return {
    positions: triangles,
    indices: Array.from({ length: n }, (_, i) => i),
    start: 0,
    end: n,
    origin: [0, 0, 0],
    step: [1, 1, 1],
  };
}

/**
 * The scan: every eligible object on its 8 projected corners, then its triangles (from `triangles`, by
 * default read from the source's pieces).
 */
export function scanBoxSelect(
  src: BoxSelectSource,
  rect: ScreenRect,
  mode: BoxSelectMode,
  view: ScreenProjection,
  triangles: (id: number, fn: (tri: Float64Array) => boolean) => void = (id, fn) => forEachTriangleOf(src, id, fn),
): number[] {
  const rx0 = Math.min(rect.x0, rect.x1),
    rx1 = Math.max(rect.x0, rect.x1);
  const ry0 = Math.min(rect.y0, rect.y1),
    ry1 = Math.max(rect.y0, rect.y1);
  const out: number[] = [];
  const s = new Float64Array(2);
  const b = src.bounds;
  for (let id = 0; id < src.objectCount; id++) {
    const o = id * 6;
    if (!(b[o] <= b[o + 3]) || !src.eligible(id)) continue;
    let sx0 = Infinity,
      sy0 = Infinity,
      sx1 = -Infinity,
      sy1 = -Infinity,
      behind = false;
    for (let c = 0; c < 8; c++) {
      if (!projectToScreen(view, b[o + (c & 1 ? 3 : 0)], b[o + (c & 2 ? 4 : 1)], b[o + (c & 4 ? 5 : 2)], s)) {
        behind = true;
        break;
      }
      sx0 = Math.min(sx0, s[0]);
      sx1 = Math.max(sx1, s[0]);
      sy0 = Math.min(sy0, s[1]);
      sy1 = Math.max(sy1, s[1]);
    }
    if (behind || sx1 < rx0 || sx0 > rx1 || sy1 < ry0 || sy0 > ry1) continue;
    if (sx0 >= rx0 && sx1 <= rx1 && sy0 >= ry0 && sy1 <= ry1) {
      out.push(id);
      continue;
    }
    let inside = true,
      any = false,
      touched = false;
    triangles(id, (t) => {
      any = true;
      const p: number[] = [];
      let front = true;
      for (let k = 0; k < 9; k += 3) {
        const ok = projectToScreen(view, t[k], t[k + 1], t[k + 2], s);
        if (!ok || s[0] < rx0 || s[0] > rx1 || s[1] < ry0 || s[1] > ry1) inside = false;
        if (!ok) front = false;
        p.push(s[0], s[1]);
      }
      if (front && triangleOverlapsRect(p, rx0, ry0, rx1, ry1)) touched = true;
      return false;
    });
    if (mode === 'inside' ? inside && any : touched) out.push(id);
  }
  return out;
}
