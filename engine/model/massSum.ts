/**
 * Weight and centre of gravity of a set of parts (viewer.md §3 Block; the weight tables and block figures of
 * the API): weights summed, the centre of gravity the weight-weighted mean of the centres of the parts that
 * have both a weight and a centre. Units are the caller's (the API: t and m).
 */
export class MassSum {
  /** Sum of the weights added. */
  weight = 0;
  private cogWeight = 0;
  private mx = 0;
  private my = 0;
  private mz = 0;

  /** Adds one part: its weight and, when known, its centre of gravity (null coordinates: weight only). */
  add(w: number, x: number | null, y: number | null, z: number | null): void {
    this.weight += w;
    if (x === null || y === null || z === null || !(w > 0)) return;
    this.cogWeight += w;
    this.mx += w * x;
    this.my += w * y;
    this.mz += w * z;
  }

  /** The centre of gravity, or null when no part with a positive weight had a centre. */
  cog(): { x: number; y: number; z: number } | null {
    const c = this.cogWeight;
    return c > 0 ? { x: this.mx / c, y: this.my / c, z: this.mz / c } : null;
  }
}
