/** Small helpers for the geometry code's growable typed buffers. */

/** A copy of `a` (Float64Array or Uint32Array) with capacity `cap` (≥ a.length), its contents kept. */
export function grown<T extends Float64Array | Uint32Array>(a: T, cap: number): T {
  const b = new (a.constructor as new (n: number) => T)(cap);
  b.set(a);
  return b;
}

/** Writes the two triangles (v, v+1, v+2), (v, v+2, v+3) of the quad with corners v..v+3 at idx[at..at+5]. */
export function writeQuad(idx: Uint32Array, at: number, v: number): void {
  idx[at] = v;
  idx[at + 1] = v + 1;
  idx[at + 2] = v + 2;
  idx[at + 3] = v;
  idx[at + 4] = v + 2;
  idx[at + 5] = v + 3;
}
