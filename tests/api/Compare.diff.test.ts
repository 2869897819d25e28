/**
 * The pairing and tolerance rules of api/compare/diffRevisions.ts and partShapes.ts on small hand-made
 * revisions: GUID first, then name and type; ambiguous matches reported (never guessed); a type change under
 * one GUID is a removal and an addition; differences below the tolerances are not changes, above them are.
 */
import { describe, expect, it } from 'vitest';
import { type RevisionSnapshot, diffRevisions } from '../../api/compare/diffRevisions';
import { type PartShapes, shapeChanged } from '../../api/compare/partShapes';
import type { ModelObject, ObjectType, PropertyRecord } from '../../engine/model/types';

interface PartSpec {
  id: string;
  guid?: string | null;
  name: string;
  type?: ObjectType;
  props?: PropertyRecord;
  bounds?: ModelObject['bounds'];
}

function snapshot(number: number, parts: PartSpec[]): RevisionSnapshot {
  const objects: ModelObject[] = parts.map((p, index) => ({
    index,
    id: p.id,
    guid: p.guid ?? null,
    name: p.name,
    type: p.type ?? 'PLATE',
    element: 'Plate',
    parent: -1,
    block: null,
    bounds: p.bounds ?? [0, 0, 0, 1000, 1000, 10],
  }));
  const properties = parts.map((p) => ({ PLTH: 0.012, MAT: 'A', W: 1, XCG: 0.5, YCG: 0.5, ZCG: 0.005, ...p.props }));
  return { number, objects, properties, shapes: null };
}

describe('pairing', () => {
  it('pairs by GUID, then by name and type for parts without a partner GUID', () => {
    const a = snapshot(1, [
      { id: 'a1', guid: 'G1', name: 'P1' },
      { id: 'a2', guid: 'OLD', name: 'P2' },
      { id: 'a3', name: 'P3' },
    ]);
    const b = snapshot(2, [
      { id: 'b1', guid: 'G1', name: 'P1 renamed', props: { MAT: 'D36' } },
      { id: 'b2', guid: 'NEW', name: 'P2', props: { PLTH: 0.014 } },
      { id: 'b3', name: 'P3' },
    ]);
    const d = diffRevisions(a, b);
    expect(d.steelObjectsAdded).toEqual([]);
    expect(d.steelObjectsRemoved).toEqual([]);
    expect(d.steelObjectsChanged.map((r) => [r.stId, r.fromIndex, r.matchedBy])).toEqual([
      ['b1', 0, 'guid'],
      ['b2', 1, 'name'],
    ]);
    expect(d.summary.perType[0]).toMatchObject({ type: 'PLATE', changed: 2, unchanged: 1 });
  });

  it('reports ambiguous matches by name and by GUID instead of guessing', () => {
    const a = snapshot(1, [
      { id: 'a1', name: 'TWIN' },
      { id: 'a2', name: 'TWIN' },
      { id: 'a3', guid: 'DUP', name: 'X' },
    ]);
    const b = snapshot(2, [
      { id: 'b1', name: 'TWIN' },
      { id: 'b2', guid: 'DUP', name: 'X' },
      { id: 'b3', guid: 'DUP', name: 'Y' },
    ]);
    const d = diffRevisions(a, b);
    expect(d.ambiguous).toEqual([
      {
        key: 'guid',
        value: 'DUP',
        type: 'PLATE',
        fromCandidates: [{ stId: 'a3', index: 2 }],
        toCandidates: [
          { stId: 'b2', index: 1 },
          { stId: 'b3', index: 2 },
        ],
      },
      {
        key: 'name',
        value: 'TWIN',
        type: 'PLATE',
        fromCandidates: [
          { stId: 'a1', index: 0 },
          { stId: 'a2', index: 1 },
        ],
        toCandidates: [{ stId: 'b1', index: 0 }],
      },
    ]);
    expect(d.steelObjectsChanged).toEqual([]);
    expect(d.steelObjectsAdded).toEqual([]);
    expect(d.steelObjectsRemoved).toEqual([]);
  });

  it('treats a type change under one GUID as a removal and an addition; ignores types outside the record', () => {
    const a = snapshot(1, [
      { id: 'a1', guid: 'G', name: 'S1', type: 'STIFFENER' },
      { id: 'a2', guid: 'H', name: 'BLOCK 1', type: 'BLOCK' },
    ]);
    const b = snapshot(2, [{ id: 'b1', guid: 'G', name: 'S1', type: 'BRACKET' }]);
    const d = diffRevisions(a, b);
    expect(d.steelObjectsRemoved.map((r) => [r.stId, r.type])).toEqual([['a1', 'STIFFENER']]);
    expect(d.steelObjectsAdded.map((r) => [r.stId, r.type])).toEqual([['b1', 'BRACKET']]);
  });
});

describe('tolerances', () => {
  const pair = (propsB: PropertyRecord, boundsB?: ModelObject['bounds']) =>
    diffRevisions(
      snapshot(1, [{ id: 'a', guid: 'G', name: 'P' }]),
      snapshot(2, [{ id: 'b', guid: 'G', name: 'P', props: propsB, bounds: boundsB }]),
    ).steelObjectsChanged;

  it('ignores differences below the tolerances', () => {
    // 0.005 mm thickness, 0.05 % weight, 0.3 mm CoG, 0.4 mm bounds, trailing blanks in text.
    expect(pair({ PLTH: 0.012005, W: 1.0005, XCG: 0.5003, MAT: 'A ' }, [0.4, 0, 0, 1000, 1000.4, 10])).toEqual([]);
  });

  it('reports differences above them, with the old and new value and the unit', () => {
    const [r] = pair({ PLTH: 0.0121, W: 1.002, XCG: 0.501 }, [0.6, 0, 0, 1000, 1000, 10]);
    expect(r.changedProperties).toEqual([
      { name: 'thickness', code: 'PLTH', from: 0.012, to: 0.0121, unit: 'm' },
      { name: 'weight', code: 'W', from: 1, to: 1.002, unit: 't' },
      { name: 'cg', code: '', from: [0.5, 0.5, 0.005], to: [0.501, 0.5, 0.005], unit: 'm' },
      { name: 'boundingBox', code: '', from: [0, 0, 0, 1, 1, 0.01], to: [0.0006, 0, 0, 1, 1, 0.01], unit: 'm' },
    ]);
    expect(r.geometryChanged).toBe(true);
  });
});

describe('shapeChanged', () => {
  const shapes = (area: number, c: [number, number, number], triangles = 2, quant = 0.01): PartShapes => ({
    chordalMm: 1,
    area: Float64Array.of(area),
    cx: Float64Array.of(c[0]),
    cy: Float64Array.of(c[1]),
    cz: Float64Array.of(c[2]),
    quant: Float64Array.of(quant),
    triangles: Uint32Array.of(triangles),
  });
  const box = [0, 0, 0, 1000, 1000, 10];

  it('ignores re-export noise: centroid within 0.5 mm, area within 0.1 %', () => {
    expect(shapeChanged(box, box, shapes(1e6, [500, 500, 5]), 0, shapes(1.0009e6, [500.4, 499.7, 5]), 0)).toBe(false);
  });

  it('catches a part moved or reshaped inside the same bounds', () => {
    expect(shapeChanged(box, box, shapes(1e6, [500, 500, 5]), 0, shapes(1e6, [501, 500, 5]), 0)).toBe(true);
    expect(shapeChanged(box, box, shapes(1e6, [500, 500, 5]), 0, shapes(0.98e6, [500, 500, 5]), 0)).toBe(true);
    expect(shapeChanged(box, null, shapes(1e6, [500, 500, 5]), 0, shapes(0, [0, 0, 0], 0), 0)).toBe(true);
  });

  it('allows a new tessellation (other triangle count) twice the chordal tolerance and 0.5 % area', () => {
    const a = shapes(1e6, [500, 500, 5], 100);
    expect(shapeChanged(box, box, a, 0, shapes(1.004e6, [502, 500, 5], 96), 0)).toBe(false);
    expect(shapeChanged(box, box, a, 0, shapes(1.004e6, [502, 500, 5], 100), 0)).toBe(true);
  });
});
