import { describe, expect, it } from 'vitest';
import type { ObjectType } from '../../../engine/model/types';
import {
  describeSceneTree,
  MAX_CHILDREN,
  sceneNodeObjects,
  SCENE_NODE_IDS,
  sectionNodeId,
  sectionOfNodeId,
} from '../../../engine/scene/sceneGraph';

function table(types: ObjectType[], parents: number[]) {
  return { ids: types.map((_, i) => `O${i}`), types, parents: Int32Array.from(parents) };
}

const source = (t: ReturnType<typeof table>, hidden = new Set<number>()) => ({
  modelName: 'M8',
  table: t,
  hidden: (i: number) => hidden.has(i),
  bounds: () => null,
  sections: [],
});

describe('scene tree of viewer.md §3 (pure)', () => {
  it("puts compartments under 'ARR {model}' and CAD components under 'CAD Components'", () => {
    const t = table(['MAIN OBJECT', 'PLATE', 'COMPARTMENT', 'CAD COMPONENT'], [-1, 0, -1, -1]);
    const g = describeSceneTree(source(t, new Set([3])));
    expect(g.children.map((c) => [c.name, c.type, c.visible])).toEqual([
      ['STR M8', 'Structure model', true],
      ['ARR M8', 'Compartment model', true],
      ['CAD Components', 'CAD Components', false],
      ['Sections', 'Sections', true],
    ]);
    expect(g.children[1].children[0].children.map((c) => c.name)).toEqual(['O2']);
    expect(sceneNodeObjects(t, SCENE_NODE_IDS.compartmentModel)).toEqual([2]);
    expect(sceneNodeObjects(t, SCENE_NODE_IDS.root)).toEqual([0, 1, 2, 3]);
    expect(sceneNodeObjects(t, SCENE_NODE_IDS.sections)).toEqual([]);
  });
  it("lists at most 2000 children per node and ends the list with '… N more'", () => {
    const n = MAX_CHILDREN + 345;
    const t = table(
      Array.from({ length: n }, () => 'PLATE' as const),
      Array.from({ length: n }, () => -1),
    );
    const kids = describeSceneTree(source(t)).children[0].children[0].children;
    expect(kids).toHaveLength(MAX_CHILDREN + 1);
    expect(kids.at(-1)).toMatchObject({ id: -1, name: '… 345 more', type: 'More' });
    expect(() => sceneNodeObjects(t, -1)).toThrow('No scene node');
  });
  it('numbers section nodes and their curve groups below −100, both ways', () => {
    expect(sectionOfNodeId(sectionNodeId(3))).toEqual({ section: 3, group: null });
    expect(sectionOfNodeId(sectionNodeId(3, 2))).toEqual({ section: 3, group: 2 });
    expect(sectionOfNodeId(-8)).toBeNull();
    expect(sectionOfNodeId(-100 - 9)).toBeNull();
  });
});
