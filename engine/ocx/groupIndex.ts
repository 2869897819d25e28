/**
 * The records of one top-level part group (a Panel with its plates, stiffeners, brackets and holes, or a
 * free part) indexed for phases 2–3 of the import (engine/ocx/buildModel.ts): records by global index,
 * each record's children, and the per-group look-ups several parts of a panel share — hole outlines,
 * hole children, plate counts and the panel's steel layer (OCX_GUIDE §5.3.3) — computed once per group.
 */
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

  constructor(
    readonly group: PartRecord[],
    readonly base: number,
    private readonly catalogue: Map<string, XNode>,
    private readonly ctx: SurfaceContext,
    private readonly units: UnitTable,
    private readonly warn: WarnFn,
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
        const off = lengthMm(this.units, child(r.node, 'Offset')) ?? 0;
        const mat = child(r.node, 'PlateMaterial') ?? child(r.node, 'MaterialRef');
        const t = lengthMm(this.units, child(mat, 'Thickness')) ?? 0;
        layer = { n: surface.normal, o1: off, o2: off + t };
        break;
      }
      this.layers.set(p, layer);
    }
    return this.layers.get(p) ?? undefined;
  }
}
