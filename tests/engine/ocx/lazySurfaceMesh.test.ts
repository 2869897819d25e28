/**
 * A reference surface whose parametric form is read without a warning gets its triangle mesh (only the
 * projection-and-lift fallback uses it) when first asked for: resolving it makes none, asking gives
 * surfaceMesh's, made once. A surface whose form warns is meshed at once, and its warnings come in the
 * order they always had — the mesh's own first, then those of the parametric form.
 */
import { describe, expect, it } from 'vitest';
import { resolveSurface, type SurfaceContext, surfaceMesh } from '../../../engine/ocx/surfaces';
import { UnitTable } from '../../../engine/ocx/units';
import type { XNode } from '../../../engine/ocx/xmlTree';

const el = (n: string, a: Record<string, string> = {}, ...c: XNode[]): XNode => ({ n, a, c, line: 1 });
const cp = (xyz: string) => el('ControlPoint', { coordinates: xyz });

/** A bilinear NURBS patch 1 m × 1 m (or, with `bad`, one control point short of its 2 × 2). */
function patch(id: string, bad = false): XNode {
  const pts = [cp('0 0 0'), cp('0 1 0'), cp('1 0 0.2'), ...(bad ? [] : [cp('1 1 0')])];
  return el(
    'NURBSSurface',
    { id },
    el('U_NURBSproperties', { degree: '1', numCtrlPts: '2' }),
    el('V_NURBSproperties', { degree: '1', numCtrlPts: '2' }),
    el('UknotVector', { value: '0 0 1 1' }),
    el('VknotVector', { value: '0 0 1 1' }),
    el('ControlPtList', {}, ...pts),
  );
}

/** An ExtrudedSurface over a NURBS3D base curve whose knot vector is unusable (its polygon is used, with a warning). */
function badBaseExtrusion(id: string): XNode {
  return el(
    'ExtrudedSurface',
    { id },
    el(
      'BaseCurve',
      {},
      el(
        'NURBS3D',
        { id: `${id}-base` },
        el('NURBSproperties', { degree: '2' }),
        el('KnotVector', { value: '1 0' }),
        el('ControlPtList', {}, cp('0 0 0'), cp('1 0 0'), cp('2 0.5 0')),
      ),
    ),
    el('Sweep', {}, el('Vector3D', { direction: '0 0 1' }), el('SweepLength', { numericvalue: '2' })),
  );
}

function context(warnings: string[]): SurfaceContext {
  return {
    units: new UnitTable(new Map()),
    chordMm: 1,
    angRad: (15 * Math.PI) / 180,
    warn: (code, message) => warnings.push(`${code}: ${message}`),
    refPlanes: new Map(),
    surfaces: new Map(),
    meshCache: new Map(),
  };
}

describe('reference surface meshes', () => {
  it('are made when first asked for, as surfaceMesh makes them, once', () => {
    const warnings: string[] = [];
    const ctx = context(warnings);
    const s = resolveSurface(el('UnboundedGeometry', {}, patch('p1')), ctx);
    expect(s?.kind).toBe('mesh');
    if (s?.kind !== 'mesh') return;
    expect(s.params?.length).toBe(1);
    expect(ctx.meshCache.size).toBe(0);
    const want = surfaceMesh(patch('p1'), context([]));
    expect(s.mesh).toEqual(want);
    expect(s.mesh).toBe(s.mesh);
    expect(ctx.meshCache.get('p1')).toBe(s.mesh);
    // the same element resolved again (another plate on it) still waits, and shares the mesh
    const again = resolveSurface(el('UnboundedGeometry', {}, patch('p1')), ctx);
    expect(again?.kind === 'mesh' && again.mesh).toEqual(want);
    expect(warnings).toEqual([]);
  });

  it('are made at once when the parametric form warns, the mesh’s warnings first', () => {
    const warnings: string[] = [];
    const ctx = context(warnings);
    // the collection's parametric form reads the extrusion (a warning) and stops at the short patch; its
    // mesh reads both (the extrusion's warning, then the patch's)
    const col = el('SurfaceCollection', { id: 'c1' }, badBaseExtrusion('e1'), patch('p2', true));
    const s = resolveSurface(el('UnboundedGeometry', {}, col), ctx);
    expect(s?.kind).toBe('mesh');
    expect(ctx.meshCache.has('c1')).toBe(true);
    expect(warnings.map((w) => w.split(':')[0])).toEqual(['bad-nurbs', 'bad-surface', 'bad-nurbs']);
  });
});
