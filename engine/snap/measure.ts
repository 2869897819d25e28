/**
 * Measurement kernel (viewer.md §4 "Measuring", §5 "A measure segment component label shows only if
 * longer than 0.1 and shorter than the total length", §9 "measure text in mm with 1 decimal").
 * Points in world mm.
 */

/** One axis component of a measurement. */
export interface MeasureComponent {
  axis: 'x' | 'y' | 'z';
  /** Signed difference end − start, mm. */
  delta: number;
  /** |delta|, mm. */
  length: number;
  /** Label text, e.g. '1234.5 mm'. */
  text: string;
  /** viewer.md §5: shown only when length > 0.1 and length < total. */
  visible: boolean;
}

/** A completed measurement. */
export interface Measurement {
  start: [number, number, number];
  end: [number, number, number];
  /** Euclidean distance, mm. */
  distance: number;
  /** '1234.5 mm'. */
  text: string;
  components: MeasureComponent[];
}

/** Measure text of viewer.md §9: mm with one decimal, e.g. `formatMeasure(1234.56)` → '1234.6 mm'. */
export function formatMeasure(mm: number): string {
  return `${(Math.round(mm * 10) / 10).toFixed(1)} mm`;
}

/** viewer.md §5 component label rule. */
export function componentLabelVisible(length: number, total: number): boolean {
  return length > 0.1 && length < total;
}

/**
 * Measures from `start` to `end` (mm).
 * @throws Error 'Measure points must be finite' when a coordinate is NaN or infinite.
 */
export function measure(start: [number, number, number], end: [number, number, number]): Measurement {
  if (![...start, ...end].every(Number.isFinite)) throw new Error('Measure points must be finite');
  const deltas = [end[0] - start[0], end[1] - start[1], end[2] - start[2]];
  const distance = Math.hypot(deltas[0], deltas[1], deltas[2]);
  // Rounding noise must not make a component of an axis-aligned measurement "shorter than the total".
  const eps = 1e-9 * Math.max(1, distance);
  const components = (['x', 'y', 'z'] as const).map((axis, i) => {
    const length = Math.abs(deltas[i]);
    return {
      axis,
      delta: deltas[i],
      length,
      text: formatMeasure(length),
      visible: componentLabelVisible(length, distance - eps),
    };
  });
  return { start: [...start], end: [...end], distance, text: formatMeasure(distance), components };
}
