/**
 * 2D sections in the 3D view (viewer.md §2 "Create section dialog", §3 "Section results", §4 "Section
 * drawing", §9 "Drawing"). createSection cuts the loaded model with the section
 * kernel (engine/section/section.ts computeSection) over a SectionIndex built once, lazily, from the
 * loaded `.sc` chunks, in the spec's steps — grid, compartments, structures, CAD components, annotations
 * (plate labels) — recording a failed step's error for its entity and marking the section unsuccessful.
 * Each section is a group of line sets, one per entity class and relation, with the draw priority of
 * §9 as render order (drawn over the model), compartments in their purpose colour and intersected plates
 * labelled. A section is drawn once; a section being drawn is skipped. Exports go through engine/export.
 * mm.
 */
import { BufferAttribute, BufferGeometry, Color, Group, LineBasicMaterial, LineSegments } from 'three';
import type { EngineModelDetails, SectionCreated, SectionStepError } from '../EngineApi';
import { steelLayer } from '../export/sectionDrawing';
import { sectionToDxf } from '../export/sectionDxf';
import { layerColor, sectionToSvg } from '../export/sectionSvg';
import type { ModelObject, PropertyRecord } from '../model/types';
import { computeSection, emptySteelSection, type SectionModel } from '../section/section';
import { SectionIndex } from '../section/SectionIndex';
import {
  drawPriority,
  SECTION_RELATIONS,
  STEEL_CLASSES,
  type SectionAxis,
  type SectionEntityKind,
  type PolylineLike,
  type SectionPolyline,
  type SectionResult,
} from '../section/types';
import { SECTION_CURVE_GROUPS, type SceneTreeSource, type SectionCurveGroup } from '../scene/sceneGraph';
import { LabelLayer, type CanvasFactory, type LabelSpec } from './LabelLayer';
import type { ToolHost } from './ToolHost';

/** Section label text height, mm (viewer.md §9 default text height 200). */
export const SECTION_TEXT_MM = 200;
/** Render order of section lines: above the model, ordered by draw priority. */
const ORDER_BASE = 600;

interface DrawnSection {
  name: string;
  result: SectionResult;
  ok: boolean;
  errors: SectionStepError[];
  group: Group;
  labels: LabelLayer;
}

/** Drawn sections by name, the lazily built index, the model details. */
export class SectionManager {
  readonly group = new Group();
  private readonly sections = new Map<string, DrawnSection>();
  private readonly drawing = new Set<string>();
  private index: SectionIndex | null = null;
  private indexChunks = 0;
  private details: EngineModelDetails = {};
  private objects: ModelObject[] | null = null;

  constructor(
    private readonly host: ToolHost,
    private readonly canvas?: CanvasFactory,
  ) {
    this.group.name = 'sections';
    host.scene.add(this.group);
  }

  /** Names, properties, frames (mm) of the model. */
  setDetails(details: EngineModelDetails): void {
    this.details = { ...this.details, ...details };
    this.objects = null;
  }

  /** A new model: drops the index, objects and all drawn sections. */
  reset(): void {
    for (const name of [...this.sections.keys()]) this.remove(name, false);
    this.index = null;
    this.indexChunks = 0;
    this.objects = null;
    this.details = {};
  }

  /** Names of drawn sections with their flags. */
  list(): { name: string; visible: boolean; ok: boolean }[] {
    return [...this.sections.values()].map((s) => ({ name: s.name, visible: s.group.visible, ok: s.ok }));
  }

  /** The drawn sections with their 'SectionCurve' groups, in drawing order (the scene-graph panel). */
  sceneParts(): SceneTreeSource['sections'] {
    return [...this.sections.values()].map((s) => ({
      name: s.name,
      visible: s.group.visible,
      ok: s.ok,
      curves: SECTION_CURVE_GROUPS.flatMap((g) => {
        const parts = this.curveLines(s, g);
        return parts.length
          ? [
              {
                group: g,
                visible: parts.some((l) => l.visible),
                polylines: parts.reduce((k, l) => k + polylineCount(l), 0),
              },
            ]
          : [];
      }),
    }));
  }

  /**
   * Scene-graph toggle of the `index`-th drawn section (drawing order), or of one of its curve groups.
   * @throws Error for an index or group the section does not have.
   */
  setSceneVisible(index: number, group: number | null, visible: boolean): void {
    const s = [...this.sections.values()][index];
    if (!s) throw new Error(`No section number ${index}`);
    if (group === null) return this.setVisible(s.name, visible);
    const g = SECTION_CURVE_GROUPS[group];
    const parts = g ? this.curveLines(s, g) : [];
    if (parts.length === 0) throw new Error(`Section ${s.name} has no ${g ?? `group ${group}`} curves`);
    for (const l of parts) l.visible = visible;
    this.host.invalidate();
  }

  /** Shows or hides every drawn section. */
  setAllVisible(visible: boolean): void {
    for (const s of this.sections.values()) s.group.visible = visible;
    this.changed();
  }

  private curveLines(s: DrawnSection, g: SectionCurveGroup): LineSegments[] {
    return s.group.children.filter((o): o is LineSegments => o instanceof LineSegments && o.userData.sceneGroup === g);
  }

  /** The stored result of a drawn section. */
  result(name: string): SectionResult | undefined {
    return this.sections.get(name)?.result;
  }

  /** The section index over the loaded chunks (built on first use; rebuilt when more chunks arrived). */
  sectionIndex(): SectionIndex {
    const m = this.host.model();
    if (!m) throw new Error('No model loaded: cannot create a section');
    if (!this.index || this.indexChunks !== m.chunks.length) {
      this.index = SectionIndex.fromChunks(m.chunks.map((c) => c.chunk));
      this.indexChunks = m.chunks.length;
    }
    return this.index;
  }

  /**
   * Cuts and draws the section `name` at `axis` = `mm`. Returns null when that section is being drawn;
   * the stored result when it was drawn before. @throws Error without a model or for a non-finite mm.
   */
  create(axis: SectionAxis, mm: number, name: string): SectionCreated | null {
    if (this.drawing.has(name)) return null;
    const old = this.sections.get(name);
    if (old) return { name, ok: old.ok, errors: old.errors.map((e) => ({ ...e })), result: old.result };
    if (!Number.isFinite(mm)) throw new Error(`Section ${name}: coordinate ${mm} is not a finite number of mm`);
    if (axis !== 'X' && axis !== 'Y' && axis !== 'Z')
      throw new Error(`Section ${name}: unknown axis "${axis}" (X, Y, Z)`);
    this.drawing.add(name);
    try {
      const model: SectionModel = {
        objects: this.modelObjects(),
        properties: this.properties(),
        frames: this.details.frames,
        index: this.sectionIndex(),
      };
      const result: SectionResult = {
        axis,
        coordinate: mm,
        steel: emptySteelSection(axis, mm),
        compartments: [],
        cadComponents: [],
        grid: [],
      };
      const errors: SectionStepError[] = [];
      const none = { steel: false, compartments: false, cadComponents: false, grid: false };
      const step = (entity: SectionStepError['entity'], fn: () => void) => {
        try {
          fn();
        } catch (e) {
          errors.push({ entity, message: e instanceof Error ? e.message : String(e) });
        }
      };
      const group = new Group();
      group.name = `section ${name}`;
      const labels = new LabelLayer(`section ${name} labels`, { canvas: this.canvas, onTop: true, fontPx: 40 });
      step('grid', () => {
        result.grid = computeSection(model, axis, mm, { ...none, grid: true }).grid;
        for (const g of result.grid)
          group.add(lines(`grid ${g.name}`, [{ points: g.points, closed: false }], layerColor('GRID'), 'grid'));
      });
      step('compartments', () => {
        result.compartments = computeSection(model, axis, mm, { ...none, compartments: true }).compartments;
        for (const c of result.compartments) {
          const rgb = new Color(c.purposeColor.r / 255, c.purposeColor.g / 255, c.purposeColor.b / 255);
          group.add(lines(`compartment ${c.compartmentName}`, c.curves, rgb, 'compartments'));
        }
      });
      step('structures', () => {
        const s = computeSection(model, axis, mm, { ...none, steel: true }).steel;
        result.steel = s;
        for (const cls of STEEL_CLASSES) {
          for (const rel of SECTION_RELATIONS) {
            const items = s[cls][rel];
            if (items.length === 0) continue;
            const layer = steelLayer(cls, rel);
            const l = lines(
              layer,
              items.flatMap((i) => i.curves),
              layerColor(layer.toUpperCase()),
              cls,
              rel,
            );
            group.add(l);
          }
        }
      });
      step('cad components', () => {
        result.cadComponents = computeSection(model, axis, mm, { ...none, cadComponents: true }).cadComponents;
        for (const c of result.cadComponents)
          group.add(lines(`cad ${c.componentName}`, c.curves, layerColor('CAD'), 'cadComponents'));
      });
      step('annotations', () => {
        const specs: LabelSpec[] = [];
        for (const p of result.steel.plates.intersected.concat(
          result.steel.plates.connectingNegative,
          result.steel.plates.connectingPositive,
        )) {
          if (!p.label) continue;
          const at = labelPoint(p.curves);
          if (at) specs.push({ text: p.label, position: at, heightMm: SECTION_TEXT_MM, color: layerColor('LABELS') });
        }
        labels.set(specs);
        labels.group.renderOrder = ORDER_BASE + Math.round(drawPriority('labels') * 100);
        group.add(labels.group);
      });
      // A cut through nothing is a failure the user must hear of (viewer.md §8), not an empty drawing.
      if (errors.length === 0) errors.push(...emptyCutErrors(result, model.objects));
      this.group.add(group);
      const drawn: DrawnSection = { name, result, ok: errors.length === 0, errors, group, labels };
      this.sections.set(name, drawn);
      this.changed();
      return { name, ok: drawn.ok, errors: errors.map((e) => ({ ...e })), result };
    } finally {
      this.drawing.delete(name);
    }
  }

  /** Removes a section (no-op when unknown). */
  remove(name: string, emit = true): void {
    const s = this.sections.get(name);
    if (!s) return;
    s.labels.dispose();
    s.group.traverse((o) => {
      if (o instanceof LineSegments) {
        o.geometry.dispose();
        (o.material as LineBasicMaterial).dispose();
      }
    });
    s.group.removeFromParent();
    this.sections.delete(name);
    if (emit) this.changed();
  }

  /** Shows or hides a section. @throws Error for an unknown name. */
  setVisible(name: string, visible: boolean): void {
    const s = this.sections.get(name);
    if (!s) throw new Error(`No section named "${name}"`);
    s.group.visible = visible;
    this.changed();
  }

  /** SVG or DXF text of a drawn section. @throws Error for an unknown name or format. */
  export(name: string, format: 'svg' | 'dxf'): string {
    const s = this.sections.get(name);
    if (!s) throw new Error(`No section named "${name}"`);
    if (format === 'svg') return sectionToSvg(s.result, { textHeight: SECTION_TEXT_MM });
    if (format === 'dxf') return sectionToDxf(s.result, { textHeight: SECTION_TEXT_MM });
    throw new Error(`Unknown section export format "${format as string}" (svg, dxf)`);
  }

  dispose(): void {
    this.reset();
    this.group.removeFromParent();
  }

  private changed(): void {
    this.host.emit({ type: 'sections-changed', sections: this.list() });
    this.host.invalidate();
  }

  /** ModelObjects for the kernel from the engine's object table and the names of the details. */
  private modelObjects(): ModelObject[] {
    if (this.objects) return this.objects;
    const t = this.host.model()?.objectTable;
    if (!t) throw new Error('No object table: cannot classify a section');
    const names = this.details.names;
    this.objects = t.ids.map((id, i) => ({
      index: i,
      id,
      guid: null,
      name: names?.[i] ?? id,
      type: t.types[i],
      element: '',
      parent: t.parents[i],
      block: null,
      bounds: null,
    }));
    return this.objects;
  }

  private properties(): PropertyRecord[] | undefined {
    const p = this.details.properties;
    return p ? p.map((r) => r ?? {}) : undefined;
  }
}

/**
 * The failed-step errors of a section that cut nothing: when no structure, compartment or CAD component
 * crosses the plane, one error per kind of entity the model has ('structures' always), so the UI's toast
 * reads 'Failed to create a section {sectionName} for structures, compartments'. Empty when something was
 * cut (grid lines alone are no result: they exist wherever the plane is).
 */
export function emptyCutErrors(
  result: SectionResult,
  objects: readonly Pick<ModelObject, 'type'>[],
): SectionStepError[] {
  const steelCut = STEEL_CLASSES.some((c) => SECTION_RELATIONS.some((r) => result.steel[c][r].length > 0));
  if (steelCut || result.compartments.length > 0 || result.cadComponents.length > 0) return [];
  const where = `${result.axis}=${Math.round(result.coordinate)} mm`;
  const errors: SectionStepError[] = [{ entity: 'structures', message: `No structure crosses ${where}` }];
  if (objects.some((o) => o.type === 'COMPARTMENT'))
    errors.push({ entity: 'compartments', message: `No compartment crosses ${where}` });
  if (objects.some((o) => o.type === 'CAD COMPONENT'))
    errors.push({ entity: 'cad components', message: `No CAD component crosses ${where}` });
  return errors;
}

/** One LineSegments of polylines (flat xyz, mm; closed ones get their closing segment), ordered by draw priority. */
function lines(
  name: string,
  curves: readonly PolylineLike[],
  color: string | Color,
  kind: SectionEntityKind,
  rel?: (typeof SECTION_RELATIONS)[number],
): LineSegments {
  const seg: number[] = [];
  for (const c of curves) {
    const p = c.points,
      n = p.length / 3;
    for (let i = 0; i + 1 < n; i++)
      seg.push(p[i * 3], p[i * 3 + 1], p[i * 3 + 2], p[i * 3 + 3], p[i * 3 + 4], p[i * 3 + 5]);
    if (c.closed && n > 2) seg.push(p[(n - 1) * 3], p[(n - 1) * 3 + 1], p[(n - 1) * 3 + 2], p[0], p[1], p[2]);
  }
  const g = new BufferGeometry();
  g.setAttribute('position', new BufferAttribute(new Float32Array(seg), 3));
  if (seg.length) g.computeBoundingSphere();
  const l = new LineSegments(
    g,
    new LineBasicMaterial({ color, depthTest: false, depthWrite: false, transparent: true }),
  );
  l.name = name;
  l.userData.sceneGroup = sceneGroupOf(kind);
  l.userData.polylines = curves.length;
  l.renderOrder = ORDER_BASE + Math.round(drawPriority(kind, rel) * 100);
  l.frustumCulled = false;
  return l;
}

/** Polylines drawn by one LineSegments (its curves' count is kept when it is made). */
function polylineCount(l: LineSegments): number {
  return (l.userData.polylines as number | undefined) ?? 0;
}

/** The scene tree's 'SectionCurve' group of an entity kind (engine/scene/sceneGraph.ts). */
function sceneGroupOf(kind: SectionEntityKind): SectionCurveGroup {
  if (kind === 'grid') return 'Grid';
  if (kind === 'compartments') return 'Compartments';
  if (kind === 'cadComponents') return 'CAD Components';
  return 'Structures';
}

/** A label anchor for a cut: the middle point of its longest curve. */
function labelPoint(curves: readonly SectionPolyline[]): [number, number, number] | null {
  let best: SectionPolyline | null = null;
  for (const c of curves) if (!best || c.points.length > best.points.length) best = c;
  if (!best || best.points.length < 3) return null;
  const p = best.points,
    n = p.length / 3;
  const s = [0, 0, 0];
  for (let i = 0; i < n; i++) for (let a = 0; a < 3; a++) s[a] += p[i * 3 + a] / n;
  return [s[0], s[1], s[2]];
}
