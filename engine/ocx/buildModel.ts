/**
 * Phases 2 and 3 of the OCX import (OCX_GUIDE §1.3, §5): resolve units, references and
 * catalogues, then tessellate every part and compute its properties. Produces the ImportResult of
 * engine/model/types.ts: the object table (parents before children, dense index), one PropertyRecord
 * per object (catalogue units: m, m², m³, t, t/m³, N/mm²), one PartMesh per part with geometry (mm).
 */
import type {
  ImportResult,
  ImportWarning,
  ModelObject,
  ObjectType,
  PartFidelity,
  PartMesh,
  PropertyRecord,
} from '../model/types';
import { emptyBox, growBox, isBoxValid } from '../model/types';
import { len, newellNormal, normalize, polylineLength } from '../geometry/curves';
import { MeshBuilder } from '../geometry/MeshBuilder';
import { MeshSlab } from '../geometry/MeshSlab';
import {
  blocksOf,
  frameTables,
  materialOf,
  ownText as own,
  sectionOf,
  type MaterialInfo,
  type SectionInfo,
} from './catalogue';
import { curveSegments, directionOf } from './curveRead';
import { holeOutline, type HoleOutline } from './holes';
import { meshMember, traceLine, type Inclination } from './memberMesh';
import { meshPlate } from './plateMesh';
import { materialSide } from './materialSide';
import { comparePart, COMPARED_ELEMENTS } from './fidelity';
import { buildCompartment, customProperties } from './compartments';
import { habitsOf } from './vendorHabits';
import { abortError, type PartRecord, type RawModel } from './reader';
import { resolveSurface, type SurfaceContext } from './surfaces';
import { UnitTable } from './units';
import { findMaterial, MAX_COORD_MM, sectionThickness, sumPanels, traceLengthOf, withinWorld } from './groupFigures';
import { child, children, normGuid, type XNode } from './xmlTree';

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
  /** Progress of this phase in [0, 1]. */
  onProgress?: (f: number, message: string) => void;
  signal?: AbortSignal;
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
    };
    this.blocks = blocksOf(shared.designViews);
    for (const [id, n] of shared.catalogue) {
      if (n.n === 'Material') this.materials.set(id, materialOf(n, this.units));
      if (n.n === 'BarSection') this.sections.set(id, sectionOf(n, this.units, this.habits.sections));
    }
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
    for (const m of out.meshes) this.meshes.push(m);
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

  private processInto(group: PartRecord[], base: number, out: GroupOutput): void {
    const { units, habits, ctx, blocks, materials, sections } = this;
    const { objects, properties, fidelity } = out;
    const shared = this.shared;
    const warn = (code: string, message: string, line?: number, part?: string) => this.warn(code, message, line, part);
    const at = (i: number) => group[i - base];
    const kids: number[][] = group.map(() => []);
    group.forEach((p, k) => p.parent >= base && kids[p.parent - base].push(base + k));
    const kidsOf = (i: number) => kids[i - base];
    const holeCache = new Map<number, HoleOutline | null>();
    /**
     * The steel layer of a panel (§5.3.3): normal and the faces' offsets (mm) of its first Plate on a
     * plane, in document order — whether the panel's StiffenedBy comes before or after its ComposedOf.
     */
    const panelLayer = new Map<number, { n: [number, number, number]; o1: number; o2: number } | null>();
    const layerOf = (p: number) => {
      if (p < 0) return undefined;
      if (!panelLayer.has(p)) {
        let layer: { n: [number, number, number]; o1: number; o2: number } | null = null;
        for (const k of kidsOf(p)) {
          const r = at(k);
          if (r.kind !== 'Plate') continue;
          const surface =
            resolveSurface(child(r.node, 'UnboundedGeometry'), ctx) ??
            resolveSurface(child(at(p).node, 'UnboundedGeometry'), ctx);
          if (surface?.kind !== 'plane') continue;
          const off = lenMm(child(r.node, 'Offset')) ?? 0;
          const t = lenMm(child(child(r.node, 'PlateMaterial') ?? child(r.node, 'MaterialRef'), 'Thickness')) ?? 0;
          layer = { n: surface.normal, o1: off, o2: off + t };
          break;
        }
        panelLayer.set(p, layer);
      }
      return panelLayer.get(p) ?? undefined;
    };
    const lenMm = (n: XNode | undefined) => {
      const v = units.value(n, 'length');
      return v === undefined ? undefined : v * 1000;
    };
    const holeOf = (i: number): HoleOutline | null => {
      if (!holeCache.has(i)) {
        const r = holeOutline(at(i).node, shared.catalogue, ctx);
        if (typeof r === 'string') {
          warn('bad-hole', `${at(i).kind} ${at(i).node.a.id ?? ''}: ${r}`, at(i).line, at(i).node.a.id);
          holeCache.set(i, null);
        } else holeCache.set(i, r);
      }
      return holeCache.get(i)!;
    };
    // per panel once, not per plate (a panel's plates all ask: quadratic in the panel's size otherwise)
    const holeKidsOf = new Map<number, number[]>();
    const holeKids = (i: number): number[] => {
      if (i < 0) return [];
      let h = holeKidsOf.get(i);
      if (!h) holeKidsOf.set(i, (h = kidsOf(i).filter((k) => TYPE_OF[at(k).kind] === 'HOLE')));
      return h;
    };
    const platesOf = new Map<number, number>();
    const plateCount = (p: number): number => {
      let n = platesOf.get(p);
      if (n === undefined) platesOf.set(p, (n = kidsOf(p).filter((k) => at(k).kind === 'Plate').length));
      return n;
    };

    for (let i = base; i < base + group.length; i++) {
      const rec = at(i);
      const node = rec.node;
      const type = TYPE_OF[rec.kind];
      // results outlive the parsed text: the texts they keep are flat copies, not slices of a decoded
      // chunk (one kept slice would keep the whole chunk alive), and each is copied once per part
      const id = own(node.a.id ?? `${rec.kind}@${rec.line}`);
      const descText = child(node, 'Description')?.t?.trim();
      const desc = descText ? this.text(descText) : descText;
      const given = node.a.name?.trim();
      const name = given ? own(given) : desc || id;
      const parentRec = rec.parent >= 0 ? at(rec.parent) : undefined;
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
      const mat = matRef ? findMaterial(matRef, materials, shared) : undefined;
      if (matRef && !mat)
        warn('dangling-ref', `${rec.kind} ${id}: material "${matRef.a.localRef}" not in the catalogue`, rec.line, id);
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
      const rho = mat?.rho; // t/m³
      let mb: MeshBuilder | null = null;
      let computed: PartFidelity['computed'] = {};

      try {
        if (type === 'PLATE' || type === 'BRACKET') {
          const t = lenMm(child(matRef, 'Thickness'));
          const off = lenMm(child(node, 'Offset')) ?? 0;
          if (t !== undefined) props.PLTH = t / 1000;
          const surface =
            resolveSurface(child(node, 'UnboundedGeometry'), ctx) ??
            (parentRec ? resolveSurface(child(parentRec.node, 'UnboundedGeometry'), ctx) : undefined);
          const segs = curveSegments(child(node, 'OuterContour'), ctx);
          const holeIdx = [...holeKids(i), ...holeKids(panelIdx)];
          const holeLoops = holeIdx.flatMap((h) => holeOf(h)?.loops ?? []);
          const fallback = () => {
            const all = segs.flat();
            return {
              kind: 'plane' as const,
              origin: [all[0], all[1], all[2]] as [number, number, number],
              normal: normalize(newellNormal(all)),
            };
          };
          if (!surface)
            warn(
              'no-surface',
              `${rec.kind} ${id}: reference surface not found; the contour's plane is used`,
              rec.line,
              id,
            );
          const onlyPlate = panelIdx >= 0 && plateCount(panelIdx) === 1;
          const res = meshPlate(
            segs,
            holeLoops,
            surface ?? fallback(),
            off,
            off + (t ?? 0),
            ctx.chordMm,
            net !== undefined ? net * 1e6 : undefined,
            onlyPlate,
          );
          mb = res.mesh;
          const areaM2 = res.area / 1e6;
          props.AREA_GEOM = areaM2;
          if (props.AREA === undefined) props.AREA = areaM2;
          const vol = (res.area * (t ?? 0)) / 1e9;
          props.VOLM_GEOM = vol;
          props.VOLM = vol;
          const mid = off + (t ?? 0) / 2;
          const c = res.centroid.map((v, k) => (v + mid * res.normal[k]) / 1000);
          [props.XCG_GEOM, props.YCG_GEOM, props.ZCG_GEOM] = c;
          if (props.XCG === undefined) [props.XCG, props.YCG, props.ZCG] = c;
          if (rho !== undefined) {
            props.W_GEOM = vol * rho;
            if (props.W === undefined) props.W = vol * rho;
          }
          // the writer's CoG convention: NAPA reports the centroid of the moulded sheet (vendorHabits.ts)
          const cogMm = (habits.cogConvention === 'moulded' ? res.centroid : c.map((v) => v * 1000)) as [
            number,
            number,
            number,
          ];
          computed = { areaM2, volumeM3: vol, cogMm, weightKg: rho !== undefined ? vol * rho * 1000 : undefined };
          props.MSIDE = materialSide(
            res.normal,
            off,
            t,
            res.centroid,
            typeof props.STYPE === 'string' ? props.STYPE : undefined,
          );
          for (const note of res.notes)
            warn('plate-method', `${rec.kind} ${id}: meshed with the ${note} method`, rec.line, id);
        } else if (type === 'STIFFENER' || type === 'PILLAR') {
          const sref = child(node, 'SectionRef');
          const sec = sections.get(sref?.a.localRef ?? '');
          if (sec) props.PROFILE = `${sec.name} (${sec.kind})`;
          const segs = curveSegments(child(node, 'TraceLine'), ctx);
          const trace = traceLine(segs, Math.max(1, ctx.chordMm * 2));
          const fileLen = traceLengthOf(child(node, 'TraceLine'), units);
          const incl: Inclination[] = children(node, 'Inclination').flatMap((n) => {
            const p = units.pointMm(child(n, 'Position')),
              w = directionOf(child(n, 'WebDirection'));
            return p && w
              ? [{ position: p, web: normalize(w), flange: directionOf(child(n, 'FlangeDirection')) ?? null }]
              : [];
          });
          const compLen = polylineLength(trace) / 1000;
          props.L = fileLen && fileLen > 0 ? fileLen : compLen;
          if (!sec?.polygon)
            throw new Error(
              sec ? `section ${sec.name}: ${sec.error}` : `section "${sref?.a.localRef}" not in the catalogue`,
            );
          if (trace.length < 6) throw new Error('the TraceLine has no usable curve');
          let offU = lenMm(child(sref, 'OffsetU')) ?? 0,
            offV = lenMm(child(sref, 'OffsetV')) ?? 0;
          const layer = layerOf(panelIdx);
          let faceShift = 0; // §5.3.3: the profile starts on the plate face, not inside the steel
          if (layer && rec.kind === 'Stiffener' && incl.length) {
            const wn = incl[0].web[0] * layer.n[0] + incl[0].web[1] * layer.n[1] + incl[0].web[2] * layer.n[2];
            if (wn > 0.5) faceShift = Math.max(0, layer.o2);
            else if (wn < -0.5) faceShift = Math.max(0, -layer.o1);
          }
          offV += faceShift;
          const res = meshMember(sec.polygon, trace, incl, offU, offV);
          mb = res.mesh;
          const vol = (sec.polygon.area * res.length) / 1e9;
          props.VOLM_GEOM = vol;
          props.VOLM = vol;
          props.AREA_GEOM = (sec.polygon.area * res.length) / 1e9 > 0 ? sec.polygon.area / 1e6 : 0;
          const c = res.centroid.every(Number.isFinite) ? res.centroid.map((v) => v / 1000) : undefined;
          if (c) {
            [props.XCG_GEOM, props.YCG_GEOM, props.ZCG_GEOM] = c;
            if (props.XCG === undefined) [props.XCG, props.YCG, props.ZCG] = c;
          }
          if (rho !== undefined) {
            props.W_GEOM = vol * rho;
            if (props.W === undefined) props.W = vol * rho;
          }
          // NAPA measures profiles from the trace line, without the plate-face shift (vendorHabits.ts)
          const w0 = incl.length ? incl[0].web : [0, 0, 0];
          const back = habits.cogConvention === 'moulded' ? faceShift : 0;
          const cogMm = c ? (res.centroid.map((v, k) => v - back * w0[k]) as [number, number, number]) : undefined;
          computed = { volumeM3: vol, cogMm, weightKg: rho !== undefined ? vol * rho * 1000 : undefined };
          const plth =
            sec.kind === 'FlatBar' || sec.kind === 'BulbFlat'
              ? sectionThickness(sref?.a.localRef, shared, units)
              : undefined;
          if (plth !== undefined) props.PLTH = plth;
        } else if (type === 'SEAM') {
          const segs = curveSegments(child(node, 'TraceLine'), ctx);
          mb = new MeshBuilder();
          for (const s of segs) {
            mb.polylineEdges(s, false);
            mb.points(s);
          }
          const fileLen = traceLengthOf(child(node, 'TraceLine'), units);
          props.L = fileLen && fileLen > 0 ? fileLen : segs.reduce((a, s) => a + polylineLength(s), 0) / 1000;
          if (!segs.length) {
            mb = null;
            warn('no-geometry', `Seam ${id} has no TraceLine`, rec.line, id);
          }
        } else if (type === 'COMPARTMENT') {
          // OCX_GUIDE §2.17: purpose, the file's volume and CoG, and (Compartment) the closed volume of its faces
          if (node.a.compartmentPurpose) props.PURP = node.a.compartmentPurpose;
          const cp = child(node, 'CompartmentProperties');
          const fileVol = units.value(child(cp, 'Volume'), 'volume');
          const fileCog = units.pointMm(child(cp, 'CenterOfGravity'));
          if (fileVol !== undefined) props.VOLM = fileVol;
          if (fileCog) [props.XCG, props.YCG, props.ZCG] = fileCog.map((v) => v / 1000);
          if (rec.kind === 'Compartment') {
            const g = buildCompartment(node, ctx);
            for (const f of g.failedFaces) warn('compartment-face', `Compartment ${id}: ${f}`, rec.line, id);
            mb = g.mesh;
            props.VOLM_GEOM = g.volumeMm3 / 1e9;
            props.AREA_GEOM = g.areaMm2 / 1e6;
            props.AREA = g.areaMm2 / 1e6;
            [props.XCG_GEOM, props.YCG_GEOM, props.ZCG_GEOM] = g.centroid.map((v) => v / 1000);
            if (props.VOLM === undefined) props.VOLM = props.VOLM_GEOM;
            if (props.XCG === undefined)
              [props.XCG, props.YCG, props.ZCG] = [props.XCG_GEOM, props.YCG_GEOM, props.ZCG_GEOM];
          } else
            warn(
              'no-geometry',
              'PhysicalSpace: the cells bounded by panels are not built; purpose, volume and CoG of the file are kept',
              rec.line,
            );
        } else if (type === 'HOLE') {
          const h = holeOf(i);
          if (h) {
            mb = new MeshBuilder();
            for (const l of h.loops) {
              mb.polylineEdges(l, true);
              mb.points(l);
            }
            props.DES = props.DES ?? h.shape;
            const a = h.loops.reduce((s, l) => s + len(newellNormal(l)) / 2, 0);
            props.AREA_GEOM = a / 1e6;
            props.AREA = a / 1e6;
          }
        }
      } catch (e) {
        mb = null;
        warn('geometry-failed', `${rec.kind} ${id}: ${(e as Error).message}`, rec.line, id);
      }

      customProperties(node, props);
      let bounds = null;
      if (mb && !withinWorld(mb)) {
        warn(
          'geometry-failed',
          `${rec.kind} ${id}: coordinates beyond ±${MAX_COORD_MM / 1e6} km (absurd values); the part is skipped`,
          rec.line,
          id,
        );
        mb = null;
      }
      if (mb && mb.positions.length >= 3 && mb.isFinite()) {
        const b = growBox(emptyBox(), mb.positions);
        if (isBoxValid(b)) {
          bounds = b;
          [props.XMIN, props.YMIN, props.ZMIN, props.XMAX, props.YMAX, props.ZMAX] = [
            b[0],
            b[1],
            b[2],
            b[3],
            b[4],
            b[5],
          ].map((v) => v / 1000);
        }
        this.slab.add(i, mb);
      } else if (mb) warn('geometry-failed', `${rec.kind} ${id}: geometry is empty or not finite`, rec.line, id);
      for (const k in props) {
        const v = props[k];
        if (typeof v === 'string' && v.length > 12)
          props[k] = v === name ? name : v === id ? id : v === guid ? guid : this.text(v);
      }
      const element = this.text(rec.kind);
      const block = blocks.get(id);
      objects.push({
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
        fidelity.push(
          comparePart({ object: i, id, element, line: rec.line }, { weightKg: dry, cogMm: cog, areaM2: net }, computed),
        );
      properties.push(props);
    }
    sumPanels(group, base, kids, properties);
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
    const modelBox = emptyBox();
    for (const o of objects) if (o.bounds) growBox(modelBox, o.bounds); // its min and max corners: two xyz triplets
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
      ...(raw.unsupported.size ? { unsupportedElements: Object.fromEntries(raw.unsupported) } : {}),
    };
  }
}

/** Distinct texts ModelBuilder.text shares per import. */
const TEXTS_MAX = 1 << 16;
