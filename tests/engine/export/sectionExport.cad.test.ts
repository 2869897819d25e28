/**
 * CAD component curves in the section exports (viewer.md §3 object type CAD COMPONENT SECTION; issue "CAD
 * components" §3): a box component cut by computeSection is drawn on the layer 'CAD COMPONENT SECTION' in
 * the DXF (a LAYER entry and its closed polyline) and the SVG (a group whose data-layer names it).
 */
import { describe, expect, it } from 'vitest';
import type { ModelObject, PartMesh } from '../../../engine/model/types';
import { CAD_SECTION_LAYER } from '../../../engine/export/sectionDrawing';
import { sectionToDxf } from '../../../engine/export/sectionDxf';
import { sectionToSvg } from '../../../engine/export/sectionSvg';
import { SectionIndex } from '../../../engine/section/SectionIndex';
import { computeSection } from '../../../engine/section/section';

/** A 400 × 300 × 200 mm box centred at (1000, 2000, 3000), 12 triangles. */
function pumpMesh(): PartMesh {
  const [x0, y0, z0, x1, y1, z1] = [800, 1850, 2900, 1200, 2150, 3100];
  // biome-ignore format: the 8 corners
  const positions = new Float32Array([x0,y0,z0, x1,y0,z0, x1,y1,z0, x0,y1,z0, x0,y0,z1, x1,y0,z1, x1,y1,z1, x0,y1,z1]);
  // biome-ignore format: two triangles per face
  const indices = new Uint32Array([0,2,1, 0,3,2, 4,5,6, 4,6,7, 0,1,5, 0,5,4, 1,2,6, 1,6,5, 2,3,7, 2,7,6, 3,0,4, 3,4,7]);
  return { object: 0, positions, normals: null, indices, edges: null };
}

describe('CAD component section export', () => {
  const object: ModelObject = {
    index: 0,
    id: 'g1',
    guid: null,
    name: '@Ballast pump 1',
    type: 'CAD COMPONENT',
    element: 'Equipment',
    parent: -1,
    block: null,
    bounds: [800, 1850, 2900, 1200, 2150, 3100],
  };
  const index = SectionIndex.fromMeshes([pumpMesh()]);
  const s = computeSection({ objects: [object], properties: [{}], frames: { x: [], y: [], z: [] }, index }, 'X', 1000, {
    grid: false,
  });

  it('cuts the component into one closed 300 × 200 outline', () => {
    expect(s.cadComponents.map((c) => c.componentName)).toEqual(['@Ballast pump 1']);
    const pts = s.cadComponents[0].curves.flatMap((c) => Array.from(c.points));
    const ys = pts.filter((_, i) => i % 3 === 1);
    const zs = pts.filter((_, i) => i % 3 === 2);
    expect([Math.min(...ys), Math.max(...ys), Math.min(...zs), Math.max(...zs)]).toEqual([1850, 2150, 2900, 3100]);
  });

  it("draws it on the layer 'CAD COMPONENT SECTION' in DXF and SVG", () => {
    expect(CAD_SECTION_LAYER).toBe('CAD COMPONENT SECTION');
    const dxf = sectionToDxf(s);
    expect(dxf).toMatch(/\r\n2\r\nCAD COMPONENT SECTION\r\n/);
    expect(dxf).toMatch(/POLYLINE\r\n8\r\nCAD COMPONENT SECTION\r\n/);
    const svg = sectionToSvg(s);
    expect(svg).toContain('id="CAD_COMPONENT_SECTION" data-layer="CAD COMPONENT SECTION"');
    expect(svg).toMatch(/data-layer="CAD COMPONENT SECTION"[^>]*>\s*<(polygon|polyline|path)/);
  });
});
