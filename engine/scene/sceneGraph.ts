/**
 * The scene-graph panel's data (viewer.md §2 "Scene-graph panel": "Tree of nodes with a visibility toggle
 * per node, id and type labels ... a property table (Name plus node properties) for the active node"):
 * plain-data snapshots of a three.js object tree that cross the worker boundary.
 */
import type { BufferGeometry, Object3D } from 'three';
import type { SceneGraphNode } from '../EngineApi';

/** Children listed per node at most; longer lists end with a summary node (id −1). */
const MAX_CHILDREN = 2000;

/** Snapshot of `root` and its descendants. */
export function describeSceneGraph(root: Object3D): SceneGraphNode {
  const children = root.children.slice(0, MAX_CHILDREN).map(describeSceneGraph);
  if (root.children.length > MAX_CHILDREN) {
    children.push({
      id: -1,
      name: `… ${root.children.length - MAX_CHILDREN} more`,
      type: 'More',
      visible: true,
      children: [],
      properties: [],
    });
  }
  return {
    id: root.id,
    name: root.name,
    type: root.type,
    visible: root.visible,
    children,
    properties: nodeProperties(root),
  };
}

/** Property rows of one node: Name first, then type, visibility, transform and geometry figures. */
export function nodeProperties(o: Object3D): { name: string; value: string }[] {
  const rows = [
    { name: 'Name', value: o.name || '(unnamed)' },
    { name: 'Type', value: o.type },
    { name: 'Id', value: String(o.id) },
    { name: 'Visible', value: o.visible ? 'yes' : 'no' },
    { name: 'Position', value: `${fmt(o.position.x)}, ${fmt(o.position.y)}, ${fmt(o.position.z)}` },
    { name: 'Scale', value: `${fmt(o.scale.x, 5)}, ${fmt(o.scale.y, 5)}, ${fmt(o.scale.z, 5)}` },
    { name: 'Children', value: String(o.children.length) },
  ];
  const g = (o as Object3D & { geometry?: BufferGeometry }).geometry;
  if (g?.isBufferGeometry) {
    const pos = g.getAttribute('position');
    const index = g.getIndex();
    rows.push({ name: 'Vertices', value: pos ? String(pos.count) : '0' });
    if (index)
      rows.push({
        name: (o as { isLineSegments?: boolean }).isLineSegments ? 'Segments' : 'Triangles',
        value: String(index.count / ((o as { isLineSegments?: boolean }).isLineSegments ? 2 : 3)),
      });
    let bytes = index ? index.array.byteLength : 0;
    for (const a of Object.values(g.attributes))
      bytes += (a as { array: ArrayLike<number> & { byteLength: number } }).array.byteLength;
    rows.push({ name: 'Geometry bytes', value: String(bytes) });
  }
  return rows;
}

/** Finds a node by three.js id under `root`, or null. */
export function findSceneNode(root: Object3D, id: number): Object3D | null {
  return root.getObjectById(id) ?? null;
}

function fmt(v: number, digits = 1): string {
  return Number.isInteger(v) ? String(v) : v.toFixed(digits);
}
