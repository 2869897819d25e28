/**
 * What a TRIANGLE_STRIP draw of indices [start, end) rasterises, as a triangle list: GL's parity rule
 * (the odd triangles, counted from the draw's first index, with their first two vertices swapped) and the
 * degenerate triangles left out. For tests of engine/scene/triangleStrips.ts.
 */
export function stripToList(idx: ArrayLike<number>, start: number, end: number, out: number[] = []): number[] {
  for (let i = start; i + 2 < end; i++) {
    let a = idx[i],
      b = idx[i + 1];
    const c = idx[i + 2];
    if ((i - start) % 2 === 1) [a, b] = [b, a];
    if (a !== b && b !== c && c !== a) out.push(a, b, c);
  }
  return out;
}
