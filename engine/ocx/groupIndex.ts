/**
 * The records of one top-level part group (a Panel with its plates, stiffeners, brackets and holes, or a
 * free part) indexed for phases 2–3 of the import (engine/ocx/buildModel.ts): records by global index,
 * each record's children, and the per-group look-ups several parts of a panel share — hole outlines,
 * hole children, plate counts and the panel's steel layer (OCX_GUIDE §5.3.3) — computed once per group.
 */
import { chainLoops } from '../geometry/chainLoops';
import { len, newellNormal } from '../geometry/curves';
import { curveSegments, directionOf } from './curveRead';
import { holeOutline, type HoleOutline, type SurfaceDistance } from './holes';
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

/** A plate's outer loop (xyz mm), its box [min xyz, max xyz] and its steel layer o1 < o2 (mm). */
export interface PlateOutline {
  loop: number[];
  box: number[];
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
  private readonly outlines = new Map<number, PlateOutline | null>();
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
      const r = holeOutline(rec.node, this.catalogue, this.ctx, this.surfaceDistance(rec.parent));
      if (typeof r === 'string') {
        this.warn('bad-hole', `${rec.kind} ${rec.node.a.id ?? ''}: ${r}`, rec.line, rec.node.a.id);
        this.holes.set(i, null);
      } else this.holes.set(i, r);
    }
    return this.holes.get(i)!;
  }

  /**
   * Distance from the plane of the part record p (its own UnboundedGeometry, else its panel's), or
   * undefined when that surface is not a plane or not known.
   */
  private surfaceDistance(p: number): SurfaceDistance | undefined {
    if (p < this.base) return undefined;
    const rec = this.at(p);
    const s =
      resolveSurface(child(rec.node, 'UnboundedGeometry'), this.ctx) ??
      (rec.parent >= this.base
        ? resolveSurface(child(this.at(rec.parent).node, 'UnboundedGeometry'), this.ctx)
        : undefined);
    if (s?.kind !== 'plane') return undefined;
    const [ox, oy, oz] = s.origin,
      [nx, ny, nz] = s.normal;
    return (x, y, z) => Math.abs((x - ox) * nx + (y - oy) * ny + (z - oz) * nz);
  }

  /** The hole children of record i (none for i < 0); per panel once, as all of a panel's plates ask. */
  holeKids(i: number): number[] {
    if (i < 0) return [];
    let h = this.holeKidsOf.get(i);
    if (!h) this.holeKidsOf.set(i, (h = this.kidsOf(i).filter((k) => HOLE_ELEMENTS.has(this.at(k).kind))));
    return h;
  }

  /**
   * The outer loop (xyz mm), its box and steel layer (offsets along the normal, mm) of plate record k,
   * or null when its OuterContour forms no closed loop.
   */
  plateOutline(k: number): PlateOutline | null {
    let o = this.outlines.get(k);
    if (o === undefined) {
      const node = this.at(k).node;
      const { loops } = chainLoops(
        curveSegments(child(node, 'OuterContour'), this.ctx),
        0.01,
        Math.max(1, this.ctx.chordMm * 2),
      );
      loops.sort((a, b) => len(newellNormal(b)) - len(newellNormal(a)));
      const loop = loops[0];
      if (loop) {
        const box = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
        for (let i = 0; i < loop.length; i += 3)
          for (let c = 0; c < 3; c++) {
            box[c] = Math.min(box[c], loop[i + c]);
            box[3 + c] = Math.max(box[3 + c], loop[i + c]);
          }
        const off = lengthMm(this.units, child(node, 'Offset')) ?? 0;
        const mat = child(node, 'PlateMaterial') ?? child(node, 'MaterialRef');
        const t = lengthMm(this.units, child(mat, 'Thickness')) ?? 0;
        o = { loop, box, o1: Math.min(off, off + t), o2: Math.max(off, off + t) };
      } else o = null;
      this.outlines.set(k, o);
    }
    return o;
  }

  /**
   * Outer loops of the other plates of panel p that are inserts of plate k: plates whose outline box
   * lies within k's (1 mm) and whose steel layer overlaps k's (a doubler on k's face does not), so k
   * loses their area (OCX_GUIDE §5.2: a plate's OuterContour need not exclude an insert inside it).
   */
  insertsOf(k: number, p: number): number[][] {
    if (p < 0 || this.plateCount(p) < 2) return [];
    const me = this.plateOutline(k);
    if (!me) return [];
    const out: number[][] = [];
    for (const s of this.kidsOf(p)) {
      if (s === k || this.at(s).kind !== 'Plate') continue;
      const o = this.plateOutline(s);
      if (!o || o.o1 >= me.o2 || o.o2 <= me.o1) continue;
      let inside = true;
      for (let c = 0; c < 3 && inside; c++) inside = o.box[c] >= me.box[c] - 1 && o.box[3 + c] <= me.box[3 + c] + 1;
      if (inside && len(newellNormal(o.loop)) < len(newellNormal(me.loop))) out.push(o.loop);
    }
    return out;
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
