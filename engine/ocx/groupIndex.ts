/**
 * The records of one top-level part group (a Panel with its plates, stiffeners, brackets and holes, or a
 * free part) indexed for phases 2–3 of the import (engine/ocx/buildModel.ts): records by global index,
 * each record's children, and the per-group look-ups several parts of a panel share — hole outlines,
 * hole children, plate counts and the panel's steel layer (OCX_GUIDE §5.3.3) — computed once per group.
 */
import { directionOf } from './curveRead';
import { holeOutline, type HoleOutline } from './holes';
import { HOLE_ELEMENTS, type PartRecord } from './reader';
import { resolveSurface, type SurfaceContext } from './surfaces';
import type { UnitTable } from './units';
import { child, type XNode } from './xmlTree';

/** A warning sink: code, message, the part's line and id (see ModelBuilder). */
export type WarnFn = (code: string, message: string, line?: number, part?: string) => void;

/** The steel layer of a panel: its plane's normal and the faces' offsets from the reference surface, mm. */
export interface PanelLayer {
  n: [number, number, number];
  o1: number;
  o2: number;
}

/** A length element's value in mm (the unit table converts to m), or undefined when absent or invalid. */
export function lengthMm(units: UnitTable, n: XNode | undefined): number | undefined {
  const v = units.value(n, 'length');
  return v === undefined ? undefined : v * 1000;
}

/**
 * One part group by global record index: `group` in document order (parents first), `base` the global
 * index of group[0]; parent indices are global.
 */
export class GroupIndex {
  /** Global indices of each record's children, by local index. */
  readonly kids: number[][];
  private readonly holes = new Map<number, HoleOutline | null>();
  private readonly holeKidsOf = new Map<number, number[]>();
  private readonly plates = new Map<number, number>();
  private readonly layers = new Map<number, PanelLayer | null>();
  private readonly votes = new Map<string, ReturnType<GroupIndex['stiffenerVotes']>>();

  constructor(
    readonly group: PartRecord[],
    readonly base: number,
    private readonly catalogue: Map<string, XNode>,
    private readonly ctx: SurfaceContext,
    private readonly units: UnitTable,
    private readonly warn: WarnFn,
    /** The writer means "the stiffeners' side" by an Offset of 0 or none (VendorHabits). */
    private readonly offsetFollowsStiffeners = false,
    /**
     * Height (mm) of a stiffener's section centroid above the face it stands on (centroid v plus
     * OffsetV), or undefined when its section is unknown.
     */
    private readonly profileHeight?: (stiffener: XNode) => number | undefined,
  ) {
    this.kids = group.map(() => []);
    group.forEach((p, k) => p.parent >= base && this.kids[p.parent - base].push(base + k));
  }

  /** The record at global index i. */
  at(i: number): PartRecord {
    return this.group[i - this.base];
  }

  /** Global indices of the children of record i. */
  kidsOf(i: number): number[] {
    return this.kids[i - this.base];
  }

  /** The outline of hole record i, or null (with a 'bad-hole' warning, once) when it cannot be built. */
  holeOf(i: number): HoleOutline | null {
    if (!this.holes.has(i)) {
      const rec = this.at(i);
      const r = holeOutline(rec.node, this.catalogue, this.ctx);
      if (typeof r === 'string') {
        this.warn('bad-hole', `${rec.kind} ${rec.node.a.id ?? ''}: ${r}`, rec.line, rec.node.a.id);
        this.holes.set(i, null);
      } else this.holes.set(i, r);
    }
    return this.holes.get(i)!;
  }

  /** The hole children of record i (none for i < 0); per panel once, as all of a panel's plates ask. */
  holeKids(i: number): number[] {
    if (i < 0) return [];
    let h = this.holeKidsOf.get(i);
    if (!h) this.holeKidsOf.set(i, (h = this.kidsOf(i).filter((k) => HOLE_ELEMENTS.has(this.at(k).kind))));
    return h;
  }

  /** The number of Plate children of panel p. */
  plateCount(p: number): number {
    let n = this.plates.get(p);
    if (n === undefined) this.plates.set(p, (n = this.kidsOf(p).filter((k) => this.at(k).kind === 'Plate').length));
    return n;
  }

  /**
   * The steel layer of panel p (§5.3.3): normal and the faces' offsets (mm) of its first Plate on a
   * plane, in document order — whether the panel's StiffenedBy comes before or after its ComposedOf;
   * undefined for p < 0 or a panel without a plate on a plane.
   */
  layerOf(p: number): PanelLayer | undefined {
    if (p < 0) return undefined;
    if (!this.layers.has(p)) {
      let layer: PanelLayer | null = null;
      for (const k of this.kidsOf(p)) {
        const r = this.at(k);
        if (r.kind !== 'Plate') continue;
        const surface =
          resolveSurface(child(r.node, 'UnboundedGeometry'), this.ctx) ??
          resolveSurface(child(this.at(p).node, 'UnboundedGeometry'), this.ctx);
        if (surface?.kind !== 'plane') continue;
        const mat = child(r.node, 'PlateMaterial') ?? child(r.node, 'MaterialRef');
        const t = lengthMm(this.units, child(mat, 'Thickness')) ?? 0;
        const off = this.plateOffset(k, p, surface, t);
        layer = { n: surface.normal, o1: off, o2: off + t };
        break;
      }
      this.layers.set(p, layer);
    }
    return this.layers.get(p) ?? undefined;
  }

  /**
   * The Offset (mm) of plate record k in panel p on a plane (origin, unit normal n), thickness t (mm):
   * the file's Offset, except for an Offset of 0 (or none) under stiffeners standing on the −n side,
   * where writers differ: some mean "steel on the + side" (the schema's reading), AVEVA means "steel
   * under the stiffeners" (−t). The panel's own figures decide when they can (stiffenerVotes); else the
   * writer's habit (VendorHabits.offsetFollowsStiffeners).
   */
  plateOffset(
    k: number,
    p: number,
    plane: { origin: readonly number[]; normal: readonly number[] },
    t: number,
  ): number {
    const off = lengthMm(this.units, child(this.at(k).node, 'Offset'));
    if (off !== undefined && off !== 0) return off;
    if (!(t > 0) || p < 0) return 0;
    // a panel's plates mostly share one plane and thickness: its stiffeners are counted once per such
    const key = `${p}|${t}|${plane.normal.join(',')}|${plane.origin.join(',')}`;
    let votes = this.votes.get(key);
    if (!votes) this.votes.set(key, (votes = this.stiffenerVotes(p, plane, t)));
    const { under, beside, side } = votes;
    if (side >= 0) return 0;
    if (under !== beside) return under > beside ? -t : 0;
    return this.offsetFollowsStiffeners ? -t : 0;
  }

  /**
   * The stiffeners of panel p against a plane (origin, unit normal n) and plate thickness t (mm): side =
   * +1 when most webs (first Inclination's WebDirection) point along n, −1 against, 0 when none tells;
   * for the stiffeners on the −n side with a vendor CenterOfGravity and a known section, how many put it
   * at the section's centroid height below the plate's far face (under: the steel lies between the
   * plane and them) and how many below the plane itself (beside), within min(5 mm, t/3).
   */
  stiffenerVotes(
    p: number,
    plane: { origin: readonly number[]; normal: readonly number[] },
    t: number,
  ): { side: -1 | 0 | 1; under: number; beside: number } {
    const n = plane.normal,
      o = plane.origin;
    let plus = 0,
      minus = 0,
      under = 0,
      beside = 0;
    const tol = Math.min(5, t / 3);
    for (const k of this.kidsOf(p)) {
      const r = this.at(k);
      if (r.kind !== 'Stiffener') continue;
      const w = directionOf(child(child(r.node, 'Inclination'), 'WebDirection'));
      if (!w) continue;
      const L = Math.hypot(w[0], w[1], w[2]);
      const d = L > 0 ? (w[0] * n[0] + w[1] * n[1] + w[2] * n[2]) / L : 0;
      if (d > 0.5) plus++;
      else if (d < -0.5) {
        minus++;
        const h = this.profileHeight?.(r.node);
        const cog = this.units.pointMm(child(child(r.node, 'PhysicalProperties'), 'CenterOfGravity'));
        if (h === undefined || !cog) continue;
        const depth = -((cog[0] - o[0]) * n[0] + (cog[1] - o[1]) * n[1] + (cog[2] - o[2]) * n[2]);
        if (Math.abs(depth - (t + h)) <= tol) under++;
        else if (Math.abs(depth - h) <= tol) beside++;
      }
    }
    return { side: plus > minus ? 1 : minus > plus ? -1 : 0, under, beside };
  }
}
