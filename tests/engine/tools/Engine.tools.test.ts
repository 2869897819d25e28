import { describe, expect, it } from 'vitest';
import type { EngineEvent, PointerInput } from '../../../engine/EngineApi';
import { pointerInput } from '../interaction/pointerInput';
import { loadedSideView, sx, sy, twoPanelBytes as bytes, twoPanelTable as table } from '../scene/engineFixtures';

async function loaded() {
  const { engine, events } = await loadedSideView(bytes, table);
  const internals = engine.inspect();
  return { engine, events, internals };
}

const ptr = (kind: PointerInput['kind'], x: number, y: number, over: Partial<PointerInput> = {}): PointerInput =>
  pointerInput(kind, x, y, { buttons: kind === 'move' ? 0 : 1, ...over });
const last = <T extends EngineEvent['type']>(events: EngineEvent[], type: T) =>
  events.filter((e) => e.type === type).pop() as Extract<EngineEvent, { type: T }> | undefined;

describe('clipping through the facade', () => {
  it('activates with the default box, shows planes at 0.6 and reduces the model opacity', async () => {
    const { engine, events, internals } = await loaded();
    engine.setClipping(true);
    const ev = last(events, 'clip-changed')!;
    expect(ev).toMatchObject({
      active: true,
      visible: true,
      box: { xMin: -100, xMax: 5100, yMin: -100, yMax: 3100, zMin: -100, zMax: 1100 },
    });
    const q = internals.clip.quad('xMax');
    expect(q.visible).toBe(true);
    expect((q.material as { opacity: number }).opacity).toBe(0.6);
    expect(internals.uniforms.uModelOpacity.value).toBeLessThan(1);
    engine.setClipVisible(false);
    expect(q.visible).toBe(false);
    expect((q.material as { opacity: number }).opacity).toBe(0);
    expect(internals.uniforms.uModelOpacity.value).toBe(1);
    engine.dispose();
  });
  it('refuses a plane set that would cross its opposite, and clips picks and caps the cut chunks', async () => {
    const { engine, internals } = await loaded();
    engine.setClipping(true);
    expect(engine.setClipPlaneValue('xMax', -200)).toBe(false);
    expect(engine.setClipPlaneValue('xMax', 500)).toBe(true);
    expect(engine.getClipBox().box.xMax).toBe(500);
    // Plate 2 (x 2000..3000) is clipped away: no pick there.
    expect(engine.pick(sx(2500), sy(500))).toEqual({ type: 'miss' });
    expect(engine.pick(sx(250), sy(500))).toMatchObject({ type: 'hit', nodeId: 1 });
    // The xMax plane cuts the chunks of plates 1 and 5: two stencil passes and the xMax cap.
    expect(internals.clip.caps.stencilCount).toBe(2);
    expect(internals.clip.caps.cap('xMax').visible).toBe(true);
    expect(internals.clip.caps.cap('xMin').visible).toBe(false);
    // Chunk materials carry the six planes.
    const mat = (internals.model!.chunks[0].mesh.material as { clippingPlanes: unknown[] | null }[])[0];
    expect(mat.clippingPlanes).toHaveLength(6);
    engine.setClipping(false);
    expect(mat.clippingPlanes).toBeNull();
    expect(engine.pick(sx(2500), sy(500))).toMatchObject({ type: 'hit', nodeId: 2 });
    engine.dispose();
  });
  it('drags a plane along its normal in the view and hides the planes on a click that hits none', async () => {
    const { engine, internals } = await loaded();
    engine.orbitTo(30, 20, 0); // camera on the +X side: the xMax quad faces it
    engine.fitToWindow();
    engine.setClipping(true);
    // Find a screen point on the xMax quad by projecting its centre.
    const cams = internals.cams;
    cams.viewProjection();
    const box = engine.getClipBox().box;
    const [px, py] = cams.project(box.xMax, (box.yMin + box.yMax) / 2, (box.zMin + box.zMax) / 2)!;
    engine.pointer(ptr('down', px, py));
    expect(internals.clip.dragging).toBe(true);
    const [qx, qy] = cams.project(box.xMax - 2000, (box.yMin + box.yMax) / 2, (box.zMin + box.zMax) / 2)!;
    engine.pointer(ptr('move', qx, qy, { buttons: 1 }));
    engine.pointer(ptr('up', qx, qy));
    expect(engine.getClipBox().box.xMax).toBeCloseTo(box.xMax - 2000, 0);
    // A click far from every plane hides them (clipping stays active).
    engine.pointer(ptr('down', 2, 2));
    engine.pointer(ptr('up', 2, 2));
    expect(engine.getClipBox()).toMatchObject({ active: true, visible: false });
    engine.dispose();
  });
  it('clip to section makes a ±100 slab', async () => {
    const { engine } = await loaded();
    engine.clipToSection('X', 2500);
    expect(engine.getClipBox()).toMatchObject({
      active: true,
      box: { xMin: 2400, xMax: 2600, yMin: -100, yMax: 3100 },
    });
    engine.dispose();
  });
});

describe('sections, measure, snap and annotations through the facade', () => {
  it('creates a section from the loaded chunks, draws it once and exports it', async () => {
    const { engine, events } = await loaded();
    engine.setModelDetails({
      names: ['A', 'P1', 'P2', 'B', 'S4', 'P5'],
      properties: [null, { PLTH: 0.012 }, null, null, null, null],
    });
    const s = engine.createSection('X', 500, 'X=500')!;
    expect(s.ok).toBe(true);
    const cut = s.result.steel.plates.intersected.map((c) => c.name).sort();
    expect(cut).toEqual(['P1', 'P5']);
    // Every cut is one closed square loop of the 1000 mm box.
    for (const c of s.result.steel.plates.intersected) expect(c.curves[0].closed).toBe(true);
    expect(last(events, 'sections-changed')!.sections).toEqual([{ name: 'X=500', visible: true, ok: true }]);
    // Drawn once: the same name returns the stored result.
    expect(engine.createSection('X', 900, 'X=500')!.result.coordinate).toBe(500);
    expect(engine.exportSection('X=500', 'svg')).toMatch(/<svg/);
    expect(engine.exportSection('X=500', 'dxf')).toMatch(/SECTION/);
    engine.setSectionVisible('X=500', false);
    expect(last(events, 'sections-changed')!.sections[0].visible).toBe(false);
    engine.removeSection('X=500');
    expect(() => engine.exportSection('X=500', 'svg')).toThrow(/No section named/);
    engine.dispose();
  });
  it('a cut through nothing fails with the structures entity (the §8 toast names it)', async () => {
    const { engine, events } = await loaded();
    // The model spans x 0…5000 mm: a plane at 9000 mm crosses no plate.
    const s = engine.createSection('X', 9000, 'X=9000')!;
    expect(s.ok).toBe(false);
    expect(s.errors.map((e) => e.entity)).toEqual(['structures']);
    expect(s.errors[0].message).toBe('No structure crosses X=9000 mm');
    expect(last(events, 'sections-changed')!.sections).toEqual([{ name: 'X=9000', visible: true, ok: false }]);
    // A plane through the plates is a result: no error.
    expect(engine.createSection('X', 500, 'X=500')!.errors).toEqual([]);
    engine.dispose();
  });
  it('snaps to a box corner as an end point', async () => {
    const { engine } = await loaded();
    const r = engine.snapAt(sx(1000) + 3, sy(1000) - 2);
    expect(r.type).toBe('snap');
    if (r.type !== 'snap') return;
    expect(r.snapType).toBe(1);
    expect(r.point[0]).toBeCloseTo(1000, 0);
    expect(r.point[2]).toBeCloseTo(1000, 0);
    engine.dispose();
  });
  it('measures between two snapped clicks, ends after one line, survives clipping, right click cancels', async () => {
    const { engine, events } = await loaded();
    engine.startMeasure();
    expect(last(events, 'measure-changed')!.state).toBe('start');
    const click = (x: number, y: number, button = 0) => {
      engine.pointer(ptr('down', x, y, { button }));
      engine.pointer(ptr('up', x, y, { button }));
    };
    click(sx(0) + 2, sy(1000) + 2);
    expect(last(events, 'measure-changed')!.state).toBe('end');
    click(sx(3000) - 2, sy(0) - 2);
    const done = last(events, 'measure-changed')!;
    expect(done.state).toBe('off');
    expect(done.measurements).toHaveLength(1);
    const m = done.measurements[0];
    expect(m.distance).toBeCloseTo(Math.hypot(3000, 1000), 0);
    expect(m.text).toBe(`${Math.hypot(3000, 1000).toFixed(1)} mm`);
    expect(m.components.map((c) => c.visible)).toEqual([true, false, true]);
    engine.setClipping(true);
    engine.setClipPlaneValue('xMax', 500);
    const measureGroup = engine.inspect().measure.group;
    expect(measureGroup.visible).toBe(true);
    expect(
      measureGroup.children.every((c) => !(c as { material?: { clippingPlanes?: unknown } }).material?.clippingPlanes),
    ).toBe(true);
    // Right click cancels an armed operator without a context menu.
    engine.startMeasure();
    const menus = events.filter((e) => e.type === 'context-menu').length;
    click(10, 10, 2);
    expect(last(events, 'measure-changed')!.state).toBe('off');
    expect(events.filter((e) => e.type === 'context-menu').length).toBe(menus);
    engine.deleteMeasurements([m.id]);
    expect(last(events, 'measure-changed')!.measurements).toHaveLength(0);
    engine.dispose();
  });
  it('labels visible plates by name and thickness, selects and deletes annotations', async () => {
    const { engine, events } = await loaded();
    engine.setModelDetails({
      names: ['A', 'P1', 'P2', 'B', 'S4', 'P5'],
      properties: [null, { PLTH: 0.012 }, null, null, null, null],
    });
    engine.setAnnotationSettings({ plates: true });
    await new Promise((r) => setTimeout(r, 0));
    const ann = engine.inspect().annotations;
    expect(ann.texts().sort()).toEqual(['P1 t=12', 'P2', 'P5']);
    engine.setVisibility([2], false);
    await new Promise((r) => setTimeout(r, 0));
    expect(ann.texts().sort()).toEqual(['P1 t=12', 'P5']);
    // Click the label of P1 (centred on the box centre, x 500, z 500).
    engine.pointer(ptr('down', sx(500), sy(500)));
    engine.pointer(ptr('up', sx(500), sy(500)));
    expect(last(events, 'annotations-changed')).toMatchObject({ count: 2, selected: 1 });
    engine.deleteSelectedAnnotations();
    expect(last(events, 'annotations-changed')).toMatchObject({ count: 1, selected: 0 });
    engine.dispose();
  });
  it('emits the cursor point on hover and null off the model', async () => {
    const { engine, events } = await loaded();
    engine.pointer(ptr('move', sx(500), sy(500), { time: 1000 }));
    const c = last(events, 'cursor')!;
    expect(c.point![0]).toBeCloseTo(500, 0);
    engine.pointer(ptr('move', 5, 5, { time: 2000 }));
    expect(last(events, 'cursor')!.point).toBeNull();
    engine.dispose();
  });
});
