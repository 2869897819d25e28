/**
 * Phases 2 and 3 of the OCX import (OCX_GUIDE §1.3, §5): resolve units, references and
 * catalogues, then tessellate every part and compute its properties. Produces the ImportResult of
 * engine/model/types.ts: the object table (parents before children, dense index), one PropertyRecord
 * per object (catalogue units: m, m², m³, t, t/m³, N/mm²), one PartMesh per part with geometry (mm).
 */
import type {
  Box3Tuple,
  ImportResult,
  ImportWarning,
  ModelObject,
  ObjectType,
  PartFidelity,
  PartMesh,
  PropertyRecord,
} from '../model/types';
import { emptyBox, growBox, isBoxValid } from '../model/types';
import type { MeshBuilder } from '../geometry/MeshBuilder';
import { MeshSlab } from '../geometry/MeshSlab';
import { frameTables, materialOf, ownText as own, sectionOf, type MaterialInfo, type SectionInfo } from './catalogue';
import { blockSystemsOf, blocksOf } from './blockSystems';
import { CatalogueRefs } from './catalogueRefs';
import { applyCogConventions } from './cogConventions';
import { comparePart, COMPARED_ELEMENTS } from './fidelity';
import { customProperties } from './compartments';
import { GroupIndex, type WarnFn } from './groupIndex';
import { partGeometry, type GeometryScope, type PartFacts } from './partGeometry';
import { habitsOf } from './vendorHabits';
import { abortError, type PartRecord, type RawModel } from './reader';
import type { SurfaceContext } from './surfaces';
import { UnitTable } from './units';
import { MAX_COORD_MM, meshExtent, sumPanels } from './groupFigures';
import { child, normGuid, type XNode } from './xmlTree';
import { sectionCentroid } from './memberMesh';

const TYPE_OF: Record<string, ObjectType> = {
  Panel: 'MAIN OBJECT',
  Plate: 'PLATE',
  Stiffener: 'STIFFENER',
  EdgeReinforcement: 'STIFFENER',
  Bracket: 'BRACKET',
  Pillar: 'PILLAR',
  Seam: 'SEAM',
  Hole2DContour: 'HOLE',
  InnerContour: 'HOLE',
  SlotContour: 'HOLE',
  Arrangement: 'COMPARTMENT ARRANGEMENT',
  Compartment: 'COMPARTMENT',
  PhysicalSpace: 'COMPARTMENT',
};

/** Options of phases 2–3. */
export interface BuildOptions {
  chordalMm: number;
  angularDeg: number;
  fileName: string;
  /**
   * Geometry details (default on): holes, openings and cut-outs are cut out of plates and brackets. Off:
   * plates and brackets keep their full outline (hole objects are still listed).
   */
  details?: boolean;
  /** Geometry healing (default on): the importer's knot-vector and degree repairs (CurveContext.heal). */
  healing?: boolean;
  /** Progress of this phase in [0, 1]. */
  onProgress?: (f: number, message: string) => void;
  signal?: AbortSignal;
  /** ImportOptions.onMeshes: each group's meshes go here, in document order, instead of into the result. */
  onMeshes?: (meshes: PartMesh[]) => void;
}

/**
 * What processGroup yields for one top-level group (structured-cloneable, so it can come from a worker
 * thread; meshes' buffers can be transferred): the group's objects, properties, meshes and fidelity
 * records in document order, its warnings with their de-duplication keys, and the unit problems
 * (key, message) first met in it.
 */
export interface GroupOutput {
  objects: ModelObject[];
  properties: PropertyRecord[];
  meshes: PartMesh[];
  fidelity: PartFidelity[];
  warnings: { key: string; warning: ImportWarning }[];
  unitProblems: [string, string][];
}

/** The shared data phases 2–3 need before the parts: header, units, catalogue, surfaces, frames, views. */
export type SharedData = Pick<
  RawModel,
  'header' | 'units' | 'catalogue' | 'surfaces' | 'coordinateSystems' | 'designViews'
>;

/**
 * Builds the ImportResult from the records of phase 1 (single-stream import): the parts are processed
 * top-level group by group (see ModelBuilder), yielding between groups for progress and abort.
 */
export async function buildModel(raw: RawModel, opts: BuildOptions): Promise<ImportResult> {
  const builder = new ModelBuilder(raw, opts);
  const parts = raw.parts;
  let next = 0;
  for (let i = 0; i < parts.length; ) {
    if (opts.signal?.aborted) throw abortError();
    let j = i + 1;
    while (j < parts.length && parts[j].parent !== -1) j++;
    builder.addGroup(parts.slice(i, j), i);
    i = j;
    if (i >= next) {
      next = i + 50;
      opts.onProgress?.(i / parts.length, `Tessellating part ${i} of ${parts.length}`);
      await Promise.resolve();
    }
  }
  opts.onProgress?.(1, 'Tessellation done');
  return builder.finish(raw);
}

/**
 * Phases 2–3 part by part: created from the shared data, it turns each complete
 * top-level part subtree (a Panel with its plates, stiffeners, brackets and holes, or a free part) into
 * objects, properties, meshes and fidelity records, keeping only those compact results, so the subtree's
 * nodes can be released at once. Parts whose geometry cannot be built keep their object and properties
 * and get a warning instead of a mesh.
 */
export class ModelBuilder {
  private readonly warnings: ImportWarning[] = [];
  private readonly seen = new Set<string>();
  private readonly units: UnitTable;
  private readonly habits: ReturnType<typeof habitsOf>;
  private readonly frames: ImportResult['frames'];
  private readonly ctx: SurfaceContext;
  private readonly blocks: Map<string, string>;
  private readonly materials = new Map<string, MaterialInfo>();
  private readonly sections = new Map<string, SectionInfo>();
  private readonly sectionRefs: CatalogueRefs;
  private readonly materialRefs: CatalogueRefs;
  private readonly objects: ModelObject[] = [];
  private readonly properties: PropertyRecord[] = [];
  private readonly meshes: PartMesh[] = [];
  private readonly fidelity: PartFidelity[] = [];
  /** Warning keys already emitted by processGroup on this builder (the processing side). */
  private readonly emitted = new Set<string>();
  /** The output the processing side is filling, or null between groups. */
  private out: GroupOutput | null = null;
  /** The meshes of the group being processed: one ArrayBuffer per group. */
  private readonly slab = new MeshSlab();
  /** Canonical flat copies of repeated property texts (see text()). */
  private readonly texts = new Map<string, string>();

  constructor(
    private readonly shared: SharedData,
    private readonly opts: BuildOptions,
  ) {
    this.units = new UnitTable(shared.units);
    this.habits = habitsOf(shared.header);
    const { frames, byId: refPlanes } = frameTables(shared.coordinateSystems, this.units);
    this.frames = frames;
    this.ctx = {
      units: this.units,
      chordMm: opts.chordalMm,
      angRad: (opts.angularDeg * Math.PI) / 180,
      warn: (c, m, l) => this.warn(c, m, l),
      refPlanes,
      surfaces: shared.surfaces,
      meshCache: new Map(),
      heal: opts.healing !== false,
    };
    this.blocks = blocksOf(shared.designViews);
    for (const [id, n] of shared.catalogue) {
      if (n.n === 'Material') this.materials.set(id, materialOf(n, this.units));
      if (n.n === 'BarSection') this.sections.set(id, sectionOf(n, this.units, this.habits.sections));
    }
    this.sectionRefs = new CatalogueRefs(shared.catalogue, ['BarSection']);
    this.materialRefs = new CatalogueRefs(shared.catalogue, ['Material']);
  }

  /** Objects processed so far. */
  get count(): number {
    return this.objects.length;
  }

  /**
   * The canonical flat copy of a property text (see own): equal texts of many parts (grades, section
   * names, function types, element names) share one string instead of one copy each, up to TEXTS_MAX
   * distinct texts per import; past that, a copy each.
   */
  private text(s: string): string {
    if (s.length <= 12) return s;
    let t = this.texts.get(s);
    if (t === undefined) {
      t = own(s);
      if (this.texts.size < TEXTS_MAX) this.texts.set(t, t);
    }
    return t;
  }

  /** A warning: into the group being processed (once per builder), else straight into the result. */
  private warn(code: string, message: string, line?: number, part?: string): void {
    message = own(message);
    const key = `${code}|${message}`;
    const w: ImportWarning = {
      code,
      message: line !== undefined && part !== undefined ? own(`${message} (line ${line})`) : message,
      line,
      part: part && own(part),
    };
    if (!this.out) return this.addWarning(key, w);
    if (this.emitted.has(key)) return;
    this.emitted.add(key);
    this.out.warnings.push({ key, warning: w });
  }

  private addWarning(key: string, w: ImportWarning): void {
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.warnings.push(w);
  }

  /**
   * Processes one complete top-level subtree and appends its results: `group` in document order
   * (parents first), `base` the global index of group[0]; parent indices are global. Groups must arrive
   * in order (base = count).
   * @throws Error when a group arrives out of order.
   */
  addGroup(group: PartRecord[], base: number): void {
    this.append(this.processGroup(group, base), base);
  }

  /**
   * Appends the output of processGroup (from this builder or from another built from the same shared
   * data and options, e.g. in a worker thread): the result is the same as addGroup's. Warnings keep the
   * order of their first occurrence; a warning already in the result is dropped.
   * @throws Error when the output arrives out of order (base ≠ count).
   */
  append(out: GroupOutput, base: number): void {
    if (base !== this.objects.length)
      throw new Error(`ModelBuilder: group at ${base} arrives after ${this.objects.length} objects`);
    for (const o of out.objects) this.objects.push(o);
    for (const p of out.properties) this.properties.push(p);
    if (this.opts.onMeshes) this.opts.onMeshes(out.meshes);
    else for (const m of out.meshes) this.meshes.push(m);
    for (const f of out.fidelity) this.fidelity.push(f);
    for (const { key, warning } of out.warnings) this.addWarning(key, warning);
    for (const [k, v] of out.unitProblems) if (!this.units.problems.has(k)) this.units.problems.set(k, v);
  }

  /**
   * Phases 2–3 of one complete top-level subtree (see addGroup) without touching the result: returns
   * the group's objects, properties, meshes (mm), fidelity records, the warnings not yet emitted by this
   * builder and the unit problems first met in this group. Deterministic: any builder made from the same
   * shared data and options gives the same output for the same group.
   */
  processGroup(group: PartRecord[], base: number): GroupOutput {
    const out: GroupOutput = { objects: [], properties: [], meshes: [], fidelity: [], warnings: [], unitProblems: [] };
    const unitProblemsBefore = this.units.problems.size;
    this.out = out;
    try {
      this.processInto(group, base, out);
      out.meshes = this.slab.seal();
    } finally {
      this.out = null;
      this.slab.clear();
    }
    if (this.units.problems.size > unitProblemsBefore)
      out.unitProblems = [...this.units.problems].slice(unitProblemsBefore);
    return out;
  }

  /** Phases 2–3 of one group into `out`: each part's file figures, geometry, bounds and object in document order. */
  private processInto(group: PartRecord[], base: number, out: GroupOutput): void {
    const warn: WarnFn = (code, message, line, part) => this.warn(code, message, line, part);
    const index = new GroupIndex(
      group,
      base,
      this.shared.catalogue,
      this.ctx,
      this.units,
      warn,
      this.habits.offsetFollowsStiffeners,
      (node) => this.profileHeight(node),
    );
    const { ctx, units, habits, sections, sectionRefs, shared } = this;
    const details = this.opts.details !== false;
    const scope: GeometryScope = { ctx, units, habits, sections, sectionRefs, shared, group: index, warn, details };
    for (let i = base; i < base + group.length; i++) {
      const part = this.fileFacts(i, index);
      const { mb, computed } = partGeometry(part, scope);
      customProperties(part.rec.node, part.props);
      const bounds = this.placeMesh(part, mb);
      this.record(part, bounds, computed, out);
    }
    sumPanels(group, base, index.kids, out.properties);
  }

  /** Height (mm) of a stiffener's section centroid above its face: centroid v + OffsetV; undefined if unknown. */
  private profileHeight(node: XNode): number | undefined {
    const sref = child(node, 'SectionRef');
    const sec = this.sections.get(this.sectionRefs.idOf(sref) ?? '');
    if (!sec?.polygon) return undefined;
    const offV = this.units.value(child(sref, 'OffsetV'), 'length');
    return sectionCentroid(sec.polygon)[1] + (offV ?? 0) * 1000;
  }

  /**
   * Part i's identity and the figures its file gives (name, GUID, description, structure type,
   * tightness, material, dry weight, centre of gravity, net area) as properties; a material missing from
   * the catalogue is warned about.
   */
  private fileFacts(i: number, index: GroupIndex): FileFacts {
    const { units } = this;
    const rec = index.at(i);
    const node = rec.node;
    const type = TYPE_OF[rec.kind];
    // results outlive the parsed text: the texts they keep are flat copies, not slices of a decoded
    // chunk (one kept slice would keep the whole chunk alive), and each is copied once per part
    const id = own(node.a.id ?? `${rec.kind}@${rec.line}`);
    const descText = child(node, 'Description')?.t?.trim();
    const desc = descText ? this.text(descText) : descText;
    const given = node.a.name?.trim();
    const name = given ? own(given) : desc || id;
    const parentRec = rec.parent >= 0 ? index.at(rec.parent) : undefined;
    const panelIdx = parentRec?.kind === 'Panel' ? rec.parent : -1;
    const props: PropertyRecord = { NAME: name, OTYPE: type, STID: id };
    const guid = own(normGuid(node.a.GUIDRef));
    if (guid) props.GUID = guid;
    if (desc) props.DES = desc;
    const stype = node.a.functionType ?? (parentRec && type !== 'HOLE' ? parentRec.node.a.functionType : undefined);
    if (rec.kind === 'EdgeReinforcement') props.STYPE = 'EDGE REINFORCEMENT';
    else if (stype) props.STYPE = stype;
    const tgh = node.a.tightness ?? (parentRec?.kind === 'Panel' ? parentRec.node.a.tightness : undefined);
    if (tgh && type !== 'HOLE') props.TGH = tgh;
    const matRef = child(node, 'PlateMaterial') ?? child(node, 'MaterialRef');
    const mat = this.materials.get(this.materialRefs.idOf(matRef) ?? '');
    if (matRef && !mat)
      this.warn(
        'dangling-ref',
        `${rec.kind} ${id}: material "${matRef.a.localRef}" not in the catalogue`,
        rec.line,
        id,
      );
    if (mat) {
      props.MAT = mat.grade;
      if (mat.rho !== undefined) props.RHO = mat.rho;
      if (mat.E !== undefined) props.E = mat.E;
      if (mat.ny !== undefined) props.NY = mat.ny;
      if (mat.sigma !== undefined) props.SIGMA = mat.sigma;
    }
    const phys = child(node, 'PhysicalProperties');
    const dry = units.value(child(phys, 'DryWeight'), 'mass');
    if (dry !== undefined) props.W = dry / 1000;
    const cog = units.pointMm(child(phys, 'CenterOfGravity'));
    if (cog) [props.XCG, props.YCG, props.ZCG] = cog.map((v) => v / 1000);
    const net = units.value(child(node, 'NetArea'), 'area');
    if (net !== undefined) props.AREA = net;
    return { i, rec, id, type, props, parentRec, panelIdx, matRef, rho: mat?.rho, net, name, guid, dry, cog };
  }

  /**
   * Adds a part's mesh to the group's slab and returns its bounds (mm; also written as XMIN…ZMAX, m), or
   * null: a mesh beyond the world, empty or not finite is dropped with a 'geometry-failed' warning.
   */
  private placeMesh({ i, rec, id, props }: FileFacts, mb: MeshBuilder | null): Box3Tuple | null {
    if (!mb) return null;
    // one pass over the positions for the absurd, the non-finite and the box
    const b = emptyBox();
    const extent = meshExtent(mb, b);
    if (extent === 'absurd') {
      this.warn(
        'geometry-failed',
        `${rec.kind} ${id}: coordinates beyond ±${MAX_COORD_MM / 1e6} km (absurd values); the part is skipped`,
        rec.line,
        id,
      );
      return null;
    }
    if (mb.positions.length < 3 || extent === 'not-finite') {
      this.warn('geometry-failed', `${rec.kind} ${id}: geometry is empty or not finite`, rec.line, id);
      return null;
    }
    let bounds: Box3Tuple | null = null;
    if (isBoxValid(b)) {
      bounds = b;
      props.XMIN = b[0] / 1000;
      props.YMIN = b[1] / 1000;
      props.ZMIN = b[2] / 1000;
      props.XMAX = b[3] / 1000;
      props.YMAX = b[4] / 1000;
      props.ZMAX = b[5] / 1000;
    }
    this.slab.add(i, mb);
    return bounds;
  }

  /** Appends part i's object, properties (long texts shared) and, for compared parts, fidelity record to `out`. */
  private record(
    part: FileFacts,
    bounds: Box3Tuple | null,
    computed: PartFidelity['computed'],
    out: GroupOutput,
  ): void {
    const { i, rec, id, type, props, name, guid, dry, cog, net } = part;
    for (const k in props) {
      const v = props[k];
      if (typeof v === 'string' && v.length > 12)
        props[k] = v === name ? name : v === id ? id : v === guid ? guid : this.text(v);
    }
    const element = this.text(rec.kind);
    const block = this.blocks.get(id);
    out.objects.push({
      index: i,
      id,
      guid,
      name,
      type,
      element,
      parent: rec.parent,
      block: block === undefined ? null : this.text(block),
      bounds,
    });
    if (COMPARED_ELEMENTS.has(rec.kind) && (dry !== undefined || cog || net !== undefined))
      out.fidelity.push(
        comparePart({ object: i, id, element, line: rec.line }, { weightKg: dry, cogMm: cog, areaM2: net }, computed),
      );
    out.properties.push(props);
  }

  /**
   * The ImportResult after the last group: `raw` gives the vessel, header, schema version and the
   * unsupported-element counts of the reading pass(es).
   */
  finish(raw: Pick<RawModel, 'vessel' | 'header' | 'schemaVersion' | 'unsupported'>): ImportResult {
    const { objects, opts } = this;
    for (const [, msg] of this.units.problems) this.warn('units', msg);
    for (const [el, n] of raw.unsupported)
      this.warn('unsupported-element', `${n} × <${el}> not supported by the importer; ignored`);
    const cogConventions = applyCogConventions(this.fidelity, this.habits);
    const modelBox = emptyBox();
    for (const o of objects) if (o.bounds) growBox(modelBox, o.bounds); // its min and max corners: two xyz triplets
    const blockSystems = this.blockSystems();
    return {
      info: {
        name: own(raw.vessel.name || raw.header.name || opts.fileName),
        schemaVersion: own(raw.schemaVersion),
        originatingSystem: own(raw.header.originating_system ?? ''),
        timeStamp: own(raw.header.time_stamp ?? ''),
        bounds: modelBox,
        tolerances: { chordalMm: opts.chordalMm, angularDeg: opts.angularDeg },
      },
      objects,
      properties: this.properties,
      meshes: this.meshes,
      frames: this.frames,
      warnings: this.warnings,
      fidelity: this.fidelity,
      cogConventions,
      ...(raw.unsupported.size ? { unsupportedElements: Object.fromEntries(raw.unsupported) } : {}),
      ...(blockSystems.length ? { blockSystems } : {}),
    };
  }

  /** The block systems of the design views over the finished object table (none without views). */
  private blockSystems() {
    if (!this.shared.designViews.length) return [];
    const byId = new Map<string, number>();
    for (const o of this.objects) if (!byId.has(o.id)) byId.set(o.id, o.index);
    return blockSystemsOf(this.shared.designViews, (id) => byId.get(id));
  }
}

/** A part's facts with what its object and fidelity record need besides: name, GUID and the file's figures. */
interface FileFacts extends PartFacts {
  name: string;
  guid: string | null;
  /** DryWeight, kg. */
  dry: number | undefined;
  /** CenterOfGravity, mm. */
  cog: [number, number, number] | undefined;
}

/** Distinct texts ModelBuilder.text shares per import. */
const TEXTS_MAX = 1 << 16;
