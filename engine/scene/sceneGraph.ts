/**
 * The scene-graph panel's data (viewer.md §2 "Scene-graph panel": "Tree of nodes with a visibility toggle
 * per node, id and type labels ... a property table (Name plus node properties) for the active node"),
 * named as viewer.md §3 "Scene tree node names" says rather than after the renderer's batches: the root
 * 'Models'; the structure model 'STR {model}' with 'Structures', the compartment model 'ARR {model}' with
 * 'Compartments', 'CAD Components' (objects named '@…'), and 'Sections' with one node per section
 * ('X=…', 'Y=…', 'Z=…') holding its 'SectionCurve' groups (Grid, Structures, Compartments, CAD Components).
 * An object node's name starts with its id (its first word), then its name. Plain data, built from the
 * object table, so it crosses the worker boundary; the renderer's helpers (lights, chunk batches, snap
 * marker, label pages) are not part of it.
 *
 * Node ids: an object node's id is its node id (≥ 0); the spec's group nodes have fixed negative ids
 * (SCENE_NODE_IDS), sections and their curve groups −100 − 10·section − (1 + group); −1 is a summary row.
 */
import type { EngineObjectTable, SceneGraphNode } from '../EngineApi';
import type { ObjectType } from '../model/types';

/** Children listed per node at most; longer lists end with a summary node (id −1). */
export const MAX_CHILDREN = 2000;
/** Object nodes in one snapshot at most (a 500k-part ship stays a small message). */
export const MAX_OBJECT_NODES = 20_000;

/** Fixed ids of the spec's group nodes. */
export const SCENE_NODE_IDS = {
  summary: -1,
  root: -2,
  structureModel: -3,
  structures: -4,
  compartmentModel: -5,
  compartments: -6,
  cadComponents: -7,
  sections: -8,
} as const;

/** The 'SectionCurve' groups of a section node, in order. */
export const SECTION_CURVE_GROUPS = ['Grid', 'Structures', 'Compartments', 'CAD Components'] as const;
/** One of SECTION_CURVE_GROUPS. */
export type SectionCurveGroup = (typeof SECTION_CURVE_GROUPS)[number];

/** Which model node an object type belongs under. */
export type ObjectCategory = 'structures' | 'compartments' | 'cadComponents';

/** The model node of an object type: compartments (ARR*), CAD components (@), else structures (STR*). */
export function objectCategory(type: ObjectType): ObjectCategory {
  if (type === 'COMPARTMENT' || type === 'COMPARTMENT ARRANGEMENT') return 'compartments';
  if (type === 'CAD COMPONENT' || type === 'CAD COMPONENT SECTION') return 'cadComponents';
  return 'structures';
}

/** Id of section `s`'s node, or of its curve group `g` (index into SECTION_CURVE_GROUPS). */
export function sectionNodeId(s: number, g?: number): number {
  return -100 - 10 * s - (g === undefined ? 0 : 1 + g);
}

/** The section (and curve group) a negative id ≤ −100 names, or null. */
export function sectionOfNodeId(id: number): { section: number; group: number | null } | null {
  if (!Number.isInteger(id) || id > -100) return null;
  const k = -100 - id;
  const r = k % 10;
  if (r > SECTION_CURVE_GROUPS.length) return null;
  return { section: Math.floor(k / 10), group: r === 0 ? null : r - 1 };
}

/** What the snapshot is built from (the engine's model, names and drawn sections). */
export interface SceneTreeSource {
  /** Model (project) name, '' when unknown. */
  modelName: string;
  table: EngineObjectTable | null;
  /** Object names by node id (falls back to the id). */
  names?: readonly (string | undefined)[];
  hidden(nodeId: number): boolean;
  /** World bounds of node i (mm), or null when it has no geometry. */
  bounds(nodeId: number): readonly number[] | null;
  sections: readonly {
    name: string;
    visible: boolean;
    ok: boolean;
    curves: readonly { group: SectionCurveGroup; visible: boolean; polylines: number }[];
  }[];
}

type Row = { name: string; value: string };

/** Object node name: the id (first word), then the name when it differs. */
export function objectNodeName(id: string, name: string | undefined): string {
  return name && name !== id ? `${id} ${name}` : id;
}

/** Snapshot of the scene tree of viewer.md §3 for the scene-graph panel. */
export function describeSceneTree(src: SceneTreeSource): SceneGraphNode {
  const t = src.table;
  const n = t ? t.ids.length : 0;
  // Children per node and the top-level objects of each model node, from the parent column.
  const kids: number[][] = Array.from({ length: n }, () => []);
  const tops: Record<ObjectCategory, number[]> = { structures: [], compartments: [], cadComponents: [] };
  for (let i = 0; i < n; i++) {
    const p = t!.parents[i];
    const cat = objectCategory(t!.types[i]);
    if (p >= 0 && p < n && objectCategory(t!.types[p]) === cat) kids[p].push(i);
    else tops[cat].push(i);
  }
  let budget = MAX_OBJECT_NODES;
  const objectNode = (i: number): SceneGraphNode => {
    budget--;
    const id = t!.ids[i];
    const b = src.bounds(i);
    const rows: Row[] = [
      { name: 'Name', value: src.names?.[i] ?? id },
      { name: 'Id', value: id },
      { name: 'Type', value: t!.types[i] },
      { name: 'Visible', value: src.hidden(i) ? 'no' : 'yes' },
      { name: 'Parent', value: t!.parents[i] >= 0 ? (t!.ids[t!.parents[i]] ?? '-') : '-' },
      { name: 'Children', value: String(kids[i].length) },
    ];
    if (b) rows.push({ name: 'Bounding box (mm)', value: boxText(b) });
    return {
      id: i,
      name: objectNodeName(id, src.names?.[i]),
      type: t!.types[i],
      visible: !src.hidden(i),
      children: list(kids[i], objectNode),
      properties: rows,
    };
  };
  const list = (ids: readonly number[], make: (i: number) => SceneGraphNode): SceneGraphNode[] => {
    const out: SceneGraphNode[] = [];
    for (const i of ids) {
      if (out.length >= MAX_CHILDREN || budget <= 0) break;
      out.push(make(i));
    }
    if (out.length < ids.length) out.push(summary(ids.length - out.length));
    return out;
  };
  const anyVisible = (ids: readonly number[]): boolean => ids.some((i) => !src.hidden(i));
  const count = (cat: ObjectCategory) => t!.types.filter((ty) => objectCategory(ty) === cat).length;
  const group = (
    id: number,
    name: string,
    type: string,
    children: SceneGraphNode[],
    objects: number,
    visible: boolean,
  ) =>
    ({
      id,
      name,
      type,
      visible,
      children,
      properties: [
        { name: 'Name', value: name },
        { name: 'Type', value: type },
        { name: 'Visible', value: visible ? 'yes' : 'no' },
        { name: 'Objects', value: String(objects) },
      ],
    }) satisfies SceneGraphNode;

  const model = src.modelName;
  const children: SceneGraphNode[] = [];
  if (t) {
    const s = tops.structures;
    const structures = group(
      SCENE_NODE_IDS.structures,
      'Structures',
      'Structures',
      list(s, objectNode),
      count('structures'),
      anyVisible(s),
    );
    children.push(
      group(
        SCENE_NODE_IDS.structureModel,
        model ? `STR ${model}` : 'STR',
        'Structure model',
        [structures],
        count('structures'),
        structures.visible,
      ),
    );
    const c = tops.compartments;
    if (c.length) {
      const compartments = group(
        SCENE_NODE_IDS.compartments,
        'Compartments',
        'Compartments',
        list(c, objectNode),
        count('compartments'),
        anyVisible(c),
      );
      children.push(
        group(
          SCENE_NODE_IDS.compartmentModel,
          model ? `ARR ${model}` : 'ARR',
          'Compartment model',
          [compartments],
          count('compartments'),
          compartments.visible,
        ),
      );
    }
    const cad = tops.cadComponents;
    if (cad.length)
      children.push(
        group(
          SCENE_NODE_IDS.cadComponents,
          'CAD Components',
          'CAD Components',
          list(cad, objectNode),
          count('cadComponents'),
          anyVisible(cad),
        ),
      );
  }
  const sections = src.sections.map((sec, si) => {
    const curves = sec.curves.map((cv) => {
      const g = SECTION_CURVE_GROUPS.indexOf(cv.group);
      return {
        id: sectionNodeId(si, g),
        name: cv.group,
        type: 'SectionCurve',
        visible: cv.visible,
        children: [],
        properties: [
          { name: 'Name', value: cv.group },
          { name: 'Type', value: 'SectionCurve' },
          { name: 'Visible', value: cv.visible ? 'yes' : 'no' },
          { name: 'Polylines', value: String(cv.polylines) },
        ],
      } satisfies SceneGraphNode;
    });
    return {
      id: sectionNodeId(si),
      name: sec.name,
      type: 'Section',
      visible: sec.visible,
      children: curves,
      properties: [
        { name: 'Name', value: sec.name },
        { name: 'Type', value: 'Section' },
        { name: 'Visible', value: sec.visible ? 'yes' : 'no' },
        { name: 'Result', value: sec.ok ? 'complete' : 'failed' },
        { name: 'Section curves', value: String(curves.length) },
      ],
    } satisfies SceneGraphNode;
  });
  const sectionsVisible = src.sections.some((s) => s.visible);
  children.push({
    ...group(SCENE_NODE_IDS.sections, 'Sections', 'Sections', sections, 0, sectionsVisible),
    properties: [
      { name: 'Name', value: 'Sections' },
      { name: 'Type', value: 'Sections' },
      { name: 'Visible', value: sectionsVisible ? 'yes' : 'no' },
      { name: 'Sections', value: String(sections.length) },
    ],
  });
  const rootVisible = children.some((c) => c.visible);
  return group(SCENE_NODE_IDS.root, 'Models', 'Models', children, n, rootVisible);
}

/**
 * The node ids an object-tree node stands for: an object and its descendants of the same model node,
 * a model or group node all objects of its category, the root every object. Empty for section nodes.
 * @throws Error for an id that names no node (the summary row, an unknown negative id, an id past the table).
 */
export function sceneNodeObjects(table: EngineObjectTable | null, id: number): number[] {
  const n = table ? table.ids.length : 0;
  const byCategory = (cat: ObjectCategory | null) => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) if (cat === null || objectCategory(table!.types[i]) === cat) out.push(i);
    return out;
  };
  if (id >= 0) {
    if (!table || !Number.isInteger(id) || id >= n) throw new Error(`No scene node with id ${id}`);
    const kids: number[][] = Array.from({ length: n }, () => []);
    for (let i = 0; i < n; i++) {
      const p = table.parents[i];
      if (p >= 0 && p < n) kids[p].push(i);
    }
    const out: number[] = [];
    const stack = [id];
    while (stack.length) {
      const i = stack.pop()!;
      out.push(i);
      stack.push(...kids[i]);
    }
    return out;
  }
  switch (id) {
    case SCENE_NODE_IDS.root:
      return byCategory(null);
    case SCENE_NODE_IDS.structureModel:
    case SCENE_NODE_IDS.structures:
      return byCategory('structures');
    case SCENE_NODE_IDS.compartmentModel:
    case SCENE_NODE_IDS.compartments:
      return byCategory('compartments');
    case SCENE_NODE_IDS.cadComponents:
      return byCategory('cadComponents');
    case SCENE_NODE_IDS.sections:
      return [];
  }
  if (sectionOfNodeId(id)) return [];
  throw new Error(`No scene node with id ${id}`);
}

function summary(more: number): SceneGraphNode {
  return {
    id: SCENE_NODE_IDS.summary,
    name: `… ${more} more`,
    type: 'More',
    visible: true,
    children: [],
    properties: [],
  };
}

function boxText(b: readonly number[]): string {
  const f = (v: number) => String(Math.round(v));
  return `${f(b[0])}, ${f(b[1])}, ${f(b[2])} … ${f(b[3])}, ${f(b[4])}, ${f(b[5])}`;
}
