/**
 * Grid of a section drawing (viewer.md §4 "Section drawing" order: grid first; §9 grid line widths
 * main 0.5, aux 0.25): the reference planes of the two other systems drawn as lines across the
 * section's extent. A plane is a main line when its number is a whole multiple of 5 (the frame scale's
 * medium step, frameScale.ts), else an auxiliary line. Millimetres.
 */
import type { FrameTables } from '../model/types';
import { GRID_LINE_WIDTH, type SectionAxis, type SectionGridLine, axisIndex } from './types';

/**
 * Grid lines on the plane `axis` = `coordinate` for the planes of the other two systems that fall
 * inside `extent` ([minX, minY, minZ, maxX, maxY, maxZ], mm); each line spans the extent along the
 * remaining axis.
 */
export function sectionGrid(
  frames: FrameTables,
  axis: SectionAxis,
  coordinate: number,
  extent: readonly number[],
): SectionGridLine[] {
  const k = axisIndex(axis);
  const out: SectionGridLine[] = [];
  const keys = ['x', 'y', 'z'] as const;
  for (let a = 0; a < 3; a++) {
    if (a === k) continue;
    const other = 3 - a - k;
    for (const p of frames[keys[a]]) {
      if (p.coordinate < extent[a] || p.coordinate > extent[a + 3]) continue;
      const p0 = [0, 0, 0],
        p1 = [0, 0, 0];
      p0[k] = p1[k] = coordinate;
      p0[a] = p1[a] = p.coordinate;
      p0[other] = extent[other];
      p1[other] = extent[other + 3];
      const main = p.number !== null && Number.isInteger(p.number) && p.number % 5 === 0;
      out.push({
        name: p.name,
        axis: keys[a],
        points: [p0[0], p0[1], p0[2], p1[0], p1[1], p1[2]],
        main,
        width: main ? GRID_LINE_WIDTH.main : GRID_LINE_WIDTH.aux,
      });
    }
  }
  return out;
}
