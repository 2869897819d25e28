import { describe, expect, it } from 'vitest';
import { ObjectStateTable } from '../../../engine/scene/ObjectStateTable';
import { paintStateTable } from '../../../engine/scene/objectPaint';
import { colorForType } from '../../../engine/scene/typeColors';
import type { ObjectType } from '../../../engine/model/types';
import { loadedSideView, twoPanelBytes, twoPanelTable } from './engineFixtures';

const rgbOf = (s: ObjectStateTable, n: number) => Array.from(s.colors.subarray(n * 4, n * 4 + 3));
const alphaOf = (s: ObjectStateTable, n: number) => s.colors[n * 4 + 3];

describe('painting objects in one call (comparison colours, restore)', () => {
  it('colours exactly the listed nodes, dims the rest, and restores type colours through the facade', async () => {
    const { engine } = await loadedSideView(twoPanelBytes, twoPanelTable);
    const model = engine.inspect().model!;
    engine.paintObjects(
      [
        { nodeIds: Uint32Array.of(1), rgb: [0, 204, 255], opacity: 1 },
        { nodeIds: Uint32Array.of(4), rgb: [0, 255, 0], opacity: 1 },
      ],
      { rgb: null, opacity: 0.3 },
    );
    expect(rgbOf(model.state, 1)).toEqual([0, 204, 255]);
    expect(rgbOf(model.state, 4)).toEqual([0, 255, 0]);
    // Panel A (node 0) is not listed: its plate 2 keeps its type colour and is dimmed, not coloured.
    expect(rgbOf(model.state, 2)).toEqual([...colorForType('PLATE')]);
    expect(alphaOf(model.state, 2)).toBe(Math.round(0.3 * 255));
    expect(alphaOf(model.state, 1)).toBe(255);
    expect(model.state.translucentCount).toBe(4); // 0, 2, 3, 5
    expect(model.chunks.some((c) => c.translucentMesh.visible)).toBe(true);

    engine.paintObjects([], { rgb: null, opacity: null });
    for (let n = 0; n < twoPanelTable.ids.length; n++) {
      expect(rgbOf(model.state, n)).toEqual([...colorForType(twoPanelTable.types[n])]);
      expect(alphaOf(model.state, n)).toBe(255);
    }
    expect(model.state.translucentCount).toBe(0);
  });

  it('restores compartments to their see-through default and ignores ids outside the model', () => {
    const types: ObjectType[] = ['PLATE', 'COMPARTMENT', 'STIFFENER'];
    const state = new ObjectStateTable(3);
    paintStateTable(state, types, [{ nodeIds: Uint32Array.of(0, 99), rgb: [1, 2, 3], opacity: 1 }], null, 0.25);
    expect(rgbOf(state, 0)).toEqual([1, 2, 3]);
    expect(alphaOf(state, 1)).toBe(255); // no rest: untouched
    paintStateTable(state, types, [], { rgb: null, opacity: null }, 0.25);
    expect(rgbOf(state, 0)).toEqual([...colorForType('PLATE')]);
    expect(alphaOf(state, 1)).toBe(Math.round(0.25 * 255));
    expect(alphaOf(state, 2)).toBe(255);
    expect(state.translucentCount).toBe(1);
  });

  it('rejects invalid styles before writing anything', async () => {
    const { engine } = await loadedSideView(twoPanelBytes, twoPanelTable);
    const model = engine.inspect().model!;
    const before = Array.from(model.state.colors);
    expect(() =>
      engine.paintObjects(
        [
          { nodeIds: Uint32Array.of(1), rgb: [0, 0, 0], opacity: 1 },
          { nodeIds: Uint32Array.of(2), rgb: [300, 0, 0], opacity: 1 },
        ],
        null,
      ),
    ).toThrow('paint group 1: colour [300,0,0] is not three bytes');
    expect(() => engine.paintObjects([], { rgb: null, opacity: 1.5 })).toThrow('not between 0 and 1');
    expect(Array.from(model.state.colors)).toEqual(before);
  });
});
