/**
 * Phase 1 of the OCX import (OCX_GUIDE §1.3): one streaming pass with the XML tokenizer XmlScanner. Dispatch
 * is on local names and namespace URIs, never prefixes, and never on sibling order. The whole document
 * is never held: each structural part becomes a PartRecord holding only its own geometry subtrees; the
 * shared surfaces, coordinate systems, catalogues, unit table and design views are captured as compact
 * nodes. Errors are refused with OcxImportError naming the problem and its line.
 */
import { OcxImportError } from './errors';
import type { XNode } from './xmlTree';
import { XmlScanner } from './XmlScanner';

/** Part element local names that become records (OCX_GUIDE §2.6–§2.12). */
export const PART_ELEMENTS = new Set([
  'Panel',
  'Plate',
  'Stiffener',
  'EdgeReinforcement',
  'Bracket',
  'Pillar',
  'Seam',
  'Arrangement',
  'Compartment',
  'PhysicalSpace',
]);
/** Cut-out element local names that become HOLE records inside CutBy / PlateCutBy. */
export const HOLE_ELEMENTS = new Set(['Hole2DContour', 'InnerContour', 'SlotContour']);
const HOLE_CONTAINERS = new Set(['CutBy', 'PlateCutBy']);
/**
 * Subtrees that carry no geometry the importer uses: a part's topology and metadata, and the document's
 * Equipments (their CAD file references are read by the CAD components pass, engine/ocx/cadRefs.ts).
 */
const SKIPPED = new Set([
  'LimitedBy',
  'ConnectionConfiguration',
  'Penetration',
  'ContourBounds',
  'BracketParameters',
  'Equipments',
]);
/**
 * Children the importer understands, per context; other OCX elements there are counted by local name in
 * RawModel.unsupported and the import goes on.
 */
const KNOWN_CHILDREN: Record<string, Set<string>> = {
  ocxXML: new Set(['Header', 'Vessel', 'ClassCatalogue', 'UnitsML', 'Equipments']),
  Vessel: new Set([
    'DistanceTolerance',
    'AngleTolerance',
    'CoordinateSystem',
    'FrameTables',
    'ClassificationData',
    'BuilderInformation',
    'TonnageData',
    'StatutoryData',
    'ShipDesignation',
    'DesignView',
    'ReferenceSurfaces',
    'Panel',
    'Plate',
    'Stiffener',
    'Bracket',
    'Pillar',
    'Description',
    'CustomProperties',
    'Arrangement',
  ]),
  ClassCatalogue: new Set([
    'MaterialCatalogue',
    'XSectionCatalogue',
    'HoleShapeCatalogue',
    'Description',
    'CustomProperties',
  ]),
  part: new Set([
    'Description',
    'CustomProperties',
    'PhysicalProperties',
    'NetArea',
    'OuterContour',
    'PlateMaterial',
    'MaterialRef',
    'LimitedBy',
    'Offset',
    'UnboundedGeometry',
    'PlateCutBy',
    'CutBy',
    'ComposedOf',
    'StiffenedBy',
    'SplitBy',
    'TraceLine',
    'SectionRef',
    'Inclination',
    'ConnectionConfiguration',
    'Penetration',
    'EdgeCurveRef',
    'BracketParameters',
    'HoleRef',
    'Transformation',
    'Line3D',
    'PolyLine3D',
    'CircumArc3D',
    'Circle3D',
    'CircumCircle3D',
    'Ellipse3D',
    'NURBS3D',
    'CompositeCurve3D',
    // Arrangement, Compartment and PhysicalSpace (OCX_GUIDE §2.17)
    'Compartment',
    'PhysicalSpace',
    'CompartmentProperties',
    'CompartmentFace',
    'BulkCargo',
    'LiquidCargo',
    'UnitCargo',
    'Cell',
    'CrossFlow',
    'ExternalGeometryRef',
  ]),
};

/** Elements whose text content is kept. */
const TEXT_ELEMENTS = new Set(['Description', 'UnitName', 'UnitSymbol']);

const OCX_NS_PREFIX = 'https://3docx.org/fileadmin//ocx_schema//';
/** The UnitsML namespace (the unit catalogue, OCX_GUIDE §2.2): its elements are not vendor extensions. */
const UNITSML_NS = /unitsml/i;
/** The OCX 2.8.x namespace (DNV GL): imported with its older habits (OCX_GUIDE §1.1, units.ts, curveRead.ts). */
export const LEGACY_NS = 'http://data.dnvgl.com/Schemas/ocxXMLSchema';

/** True for an OCX namespace: every 3.x URI under 3docx.org and the 2.8.x DNV GL one. */
const isOcxNs = (uri: string) => uri.startsWith(OCX_NS_PREFIX) || uri === LEGACY_NS;

/** Vessel-level and top-level elements that the catalogue pre-pass (prepass.ts) collects. */
export const SHARED_ELEMENTS = new Set([
  'ClassCatalogue',
  'UnitsML',
  'ReferenceSurfaces',
  'CoordinateSystem',
  'FrameTables',
  'DesignView',
]);

/*
 * Memory: the text is consumed chunk by chunk and never kept. With ReadOptions.onGroup
 * (the two-pass import of a file, OCX_GUIDE §1.3) each top-level part (a Panel with its plates,
 * stiffeners and holes, or a free part) is handed over as soon as its element closes and then dropped,
 * so only one part's subtree is held at a time. Without it (a single stream), what is retained per part
 * until phase 2 is its PartRecord: the element's XNode subtree (local names, attributes as strings,
 * children) without LimitedBy, ConnectionConfiguration, Penetration, ContourBounds and
 * BracketParameters, plus its line and parent index. Shared surfaces, coordinate systems, catalogues,
 * units and design views are kept once. So memory grows with the parts' geometry data (about the size
 * of the attribute text), not with the file's whitespace, metadata or topology.
 */

/** One structural part or cut-out as read: its element, captured subtree, enclosing record and line. */
export interface PartRecord {
  kind: string;
  node: XNode;
  /** Index of the enclosing record in RawModel.parts, or -1 (directly under Vessel). */
  parent: number;
  line: number;
}

/** Everything phase 1 collects. */
export interface RawModel {
  schemaVersion: string;
  header: Record<string, string>;
  vessel: Record<string, string>;
  distanceTolerance: XNode | null;
  parts: PartRecord[];
  /** ReferenceSurfaces children and collection members by @id. */
  surfaces: Map<string, XNode>;
  coordinateSystems: XNode[];
  /** Material, BarSection, Hole2D by @id. */
  catalogue: Map<string, XNode>;
  /** UnitsML Unit nodes by xml:id. */
  units: Map<string, XNode>;
  designViews: XNode[];
  /** OCX elements the importer does not understand, counted by local name. */
  unsupported: Map<string, number>;
}

/** Options of readOcx. */
export interface ReadOptions {
  /** Called with the number of bytes (or characters) consumed so far. */
  onBytes?: (n: number) => void;
  signal?: AbortSignal;
  /**
   * The shared data already collected by the pre-pass (catalogue, units, surfaces, coordinate systems,
   * design views): those elements are then skipped here, not captured again.
   */
  shared?: RawModel;
  /**
   * Receives each complete top-level part subtree: its records in document order (parents first) and
   * the global index of the first; parent indices are global. RawModel.parts then stays empty.
   */
  onGroup?: (records: PartRecord[], base: number) => void;
  /**
   * Awaited after each chunk when it returns a promise (back-pressure: e.g. worker threads tessellating
   * the handed-over groups have a backlog); a rejection ends the read with that error.
   */
  drain?: () => Promise<void> | undefined;
  /** Added to every line reported (records, nodes, errors): the text starts that many lines into a file (engine/ocx/partText.ts). */
  lineOffset?: number;
  /** The map unknown elements are counted into (RawModel.unsupported; default a new one), readable while the read goes on. */
  unsupported?: Map<string, number>;
}

interface Frame {
  local: string;
  node: XNode | null;
  /** Record index owned by this frame (part elements), else -1. */
  record: number;
  skip: boolean;
  /** In an OCX namespace. */
  ocx: boolean;
}

/**
 * Reads an OCX document from a stream of UTF-8 bytes or text chunks (see ReadOptions for the
 * two-pass mode that hands over finished parts).
 * @throws OcxImportError for an empty file, non-XML or malformed XML (with line), a truncated document
 * (naming the unclosed element), a non-OCX root or namespace, or a DOCTYPE declaring entities.
 */
export async function readOcx(
  chunks: AsyncIterable<Uint8Array | string>,
  options: ReadOptions = {},
): Promise<RawModel> {
  const { onBytes, signal, drain } = options;
  const reader = new DocumentReader(options);
  const decoder = new TextDecoder('utf-8', { fatal: false });
  let consumed = 0;
  for await (const chunk of chunks) {
    if (signal?.aborted) throw abortError();
    if (typeof chunk === 'string') {
      consumed += chunk.length;
      reader.write(chunk);
    } else {
      consumed += chunk.byteLength;
      reader.write(decoder.decode(chunk, { stream: true }));
    }
    onBytes?.(consumed);
    const wait = drain?.();
    if (wait) await wait;
  }
  const tail = decoder.decode();
  if (tail) reader.write(tail);
  if (consumed === 0) throw new OcxImportError('The file is empty');
  return reader.finish();
}

/**
 * The element-by-element state of readOcx: the open elements, the part records being built and the
 * group being collected, and the RawModel they fill. Text goes in through write(); finish() checks
 * that the document is complete.
 */
class DocumentReader {
  readonly model: RawModel;
  private readonly scanner: XmlScanner;
  /**
   * The open elements' frames: frames[0 .. depth) (one object per depth, reused by the next element at
   * that depth: no object per element).
   */
  private readonly frames: Frame[] = [];
  private depth = 0;
  private readonly lineOffset: number;
  private rootSeen = false;
  private firstChar = true;
  private captureRoot: { frame: Frame; sink: (n: XNode) => void } | null = null;
  private partRecordStack: number[] = [];
  private recordCount = 0;
  private group: PartRecord[] = [];
  private groupBase = 0;
  // the namespace test of the last URI seen (the scanner hands out the same string for a namespace)
  private lastUri = '';
  private lastIsOcx = false;

  constructor(private readonly options: ReadOptions) {
    this.lineOffset = options.lineOffset ?? 0;
    this.model = {
      schemaVersion: '',
      header: {},
      vessel: {},
      distanceTolerance: null,
      parts: [],
      surfaces: new Map(),
      coordinateSystems: [],
      catalogue: new Map(),
      units: new Map(),
      designViews: [],
      unsupported: options.unsupported ?? new Map(),
    };
    this.scanner = new XmlScanner(
      {
        start: (tag) => this.start(tag),
        end: () => this.end(),
        text: (t) => {
          const node = this.depth > 0 ? this.frames[this.depth - 1].node : null;
          if (node) node.t = (node.t ?? '') + t;
        },
        doctype: (d) => {
          if (/<!ENTITY/i.test(d))
            this.fail('Refused: the DOCTYPE declares entities (entity expansion is not allowed)', this.scanner.line);
        },
      },
      { lineOffset: this.lineOffset },
    );
  }

  private fail(msg: string, line = this.scanner.line, col?: number): never {
    throw new OcxImportError(msg, line + this.lineOffset, col);
  }

  /** The next piece of text; the first non-blank character must be '<' (a byte-order mark is dropped). */
  write(text: string): void {
    if (this.firstChar) {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      const trimmed = text.trimStart();
      if (trimmed !== '') {
        this.firstChar = false;
        if (trimmed[0] !== '<')
          this.fail(
            'Not an XML document: it does not start with "<"',
            1 + countLines(text.slice(0, text.length - trimmed.length)),
          );
      }
    }
    this.scanner.write(text);
  }

  /**
   * Ends the document: checks that it had a root and closed every element, then takes the shared data
   * of ReadOptions.shared into the model.
   */
  finish(): RawModel {
    const { model, frames, scanner } = this;
    if (this.firstChar) throw new OcxImportError('The file is empty (only white space)');
    scanner.end();
    const depth = this.depth; // after the held-back text is scanned
    if (depth > 0) {
      const open = frames[depth - 1];
      this.fail(
        `The document is truncated: element <${open.local}> is not closed (${depth} open element${depth > 1 ? 's' : ''} at the end of the file)`,
        scanner.line,
      );
    }
    if (!this.rootSeen) this.fail('Not an XML document: no root element', scanner.line);
    scanner.close();
    this.partRecordStack = [];
    const shared = this.options.shared;
    if (shared) {
      for (const k of ['surfaces', 'catalogue', 'units'] as const)
        if (model[k].size === 0) model[k] = shared[k] as never;
      model.coordinateSystems = shared.coordinateSystems;
      model.designViews = shared.designViews;
      for (const [el, n] of shared.unsupported) model.unsupported.set(el, (model.unsupported.get(el) ?? 0) + n);
    }
    return model;
  }

  /** The frame of a newly opened element (no node, no record yet), on top of the open ones. */
  private pushFrame(local: string, skip: boolean, ocx: boolean): Frame {
    let f = this.frames[this.depth];
    if (f) {
      f.local = local;
      f.node = null;
      f.record = -1;
      f.skip = skip;
      f.ocx = ocx;
    } else this.frames[this.depth] = f = { local, node: null, record: -1, skip, ocx };
    this.depth++;
    return f;
  }

  /** A start tag: @returns whether the element's text is wanted (captured TEXT_ELEMENTS). */
  private start(tag: XmlScanner): boolean {
    if (!this.rootSeen) return this.startRoot(tag);
    const { model } = this;
    const local = tag.local;
    const parent = this.frames[this.depth - 1];
    const frame = this.pushFrame(local, parent.skip, false);
    if (frame.skip) return false;
    const line = tag.line + this.lineOffset;
    const isOcx = tag.uri === this.lastUri ? this.lastIsOcx : (this.lastIsOcx = isOcxNs((this.lastUri = tag.uri)));
    frame.ocx = isOcx;
    if (!isOcx && parent.ocx && !UNITSML_NS.test(tag.uri)) {
      // a vendor extension in a foreign namespace (or none): counted by its qualified name, its content skipped
      model.unsupported.set(tag.qname, (model.unsupported.get(tag.qname) ?? 0) + 1);
      frame.skip = true;
      return false;
    }
    const known = KNOWN_CHILDREN[parent.record >= 0 ? 'part' : parent.local];
    if (isOcx && known && !known.has(local)) model.unsupported.set(local, (model.unsupported.get(local) ?? 0) + 1);
    const inHoleContainer = HOLE_CONTAINERS.has(parent.local);
    if (
      isOcx &&
      (PART_ELEMENTS.has(local) || (HOLE_ELEMENTS.has(local) && inHoleContainer && this.partRecordStack.length > 0))
    )
      return this.startPart(tag, frame, line);
    if (parent.node) {
      if (SKIPPED.has(local)) {
        frame.skip = true;
        return false;
      }
      const node = makeNode(local, line, tag.attributes());
      parent.node.c.push(node);
      frame.node = node;
      return TEXT_ELEMENTS.has(local);
    }
    return this.startOutsideParts(tag, frame, parent, line, isOcx);
  }

  /** The root element: ocxXML in an OCX namespace, else the file is refused. */
  private startRoot(tag: XmlScanner): boolean {
    const local = tag.local;
    this.rootSeen = true;
    if (local !== 'ocxXML' || !isOcxNs(tag.uri))
      this.fail(
        `Not an OCX file: root element is <${tag.qname}>${tag.uri && local === 'ocxXML' ? ` in unknown namespace ${tag.uri}` : ''}`,
        tag.line,
      );
    this.model.schemaVersion = tag.attributes().schemaVersion ?? '';
    this.pushFrame(local, false, true);
    return false;
  }

  /** A part or hole element: a new PartRecord, into the current group (onGroup) or RawModel.parts. */
  private startPart(tag: XmlScanner, frame: Frame, line: number): boolean {
    const local = tag.local;
    const node = makeNode(local, line, tag.attributes());
    const stack = this.partRecordStack;
    const rec: PartRecord = { kind: local, node, parent: stack.length ? stack[stack.length - 1] : -1, line };
    frame.node = node;
    frame.record = this.recordCount++;
    (this.options.onGroup ? this.group : this.model.parts).push(rec);
    stack.push(frame.record);
    return TEXT_ELEMENTS.has(local);
  }

  /**
   * An element outside any part or captured subtree: the header, the vessel, and the shared elements
   * (tolerance, coordinate systems, reference surfaces, catalogue entries, units, design views) whose
   * subtree is captured; skipped when the pre-pass collected them.
   */
  private startOutsideParts(tag: XmlScanner, frame: Frame, parent: Frame, line: number, isOcx: boolean): boolean {
    const { model } = this;
    const local = tag.local;
    const pl = parent.local;
    if (this.options.shared && SHARED_ELEMENTS.has(local)) {
      frame.skip = true; // collected by the pre-pass
      return false;
    }
    let sink: ((n: XNode) => void) | null = null;
    if (local === 'Header' && pl === 'ocxXML') model.header = tag.attributes();
    else if (local === 'Vessel' && pl === 'ocxXML') model.vessel = tag.attributes();
    else if (local === 'DistanceTolerance' && pl === 'Vessel') sink = (n) => (model.distanceTolerance = n);
    else if (local === 'CoordinateSystem' || (local === 'FrameTables' && pl !== 'CoordinateSystem'))
      sink = (n) => model.coordinateSystems.push(n); // 2.8: the frame tables outside a CoordinateSystem
    else if (pl === 'ReferenceSurfaces') sink = (n) => indexSurface(model.surfaces, n);
    else if (local === 'Material' || local === 'BarSection' || local === 'Hole2D')
      sink = (n) => model.catalogue.set(n.a.id ?? '', n);
    else if (local === 'Unit' && tag.uri !== '' && !isOcx) sink = (n) => model.units.set(n.a.id ?? '', n);
    else if (local === 'DesignView') sink = (n) => model.designViews.push(n);
    else if (SKIPPED.has(local) || local === 'ClassificationData') frame.skip = true;
    if (!sink) return false;
    frame.node = makeNode(local, line, tag.attributes());
    this.captureRoot = { frame, sink };
    return TEXT_ELEMENTS.has(local);
  }

  /** An end tag: closes a part (handing over a finished top-level group) or a captured shared element. */
  private end(): void {
    if (this.depth === 0) return;
    const frame = this.frames[--this.depth];
    if (frame.record >= 0) {
      this.partRecordStack.pop();
      const onGroup = this.options.onGroup;
      if (onGroup && this.partRecordStack.length === 0) {
        const done = this.group;
        this.group = [];
        const base = this.groupBase;
        this.groupBase = this.recordCount;
        onGroup(done, base);
      }
    }
    const capture = this.captureRoot;
    if (capture && capture.frame === frame && frame.node) {
      capture.sink(frame.node);
      this.captureRoot = null;
    }
  }
}

function countLines(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) === 10) n++;
  return n;
}

/** An AbortError (DOMException-compatible name) for options.signal. */
export function abortError(): Error {
  const e = new Error('The import was aborted');
  e.name = 'AbortError';
  return e;
}

/** A captured node: local name, attributes by local name (namespace declarations left out), line. */
function makeNode(local: string, line: number, attrs: Record<string, string>): XNode {
  return { n: local, a: attrs, c: [], line };
}

function indexSurface(map: Map<string, XNode>, n: XNode): void {
  if (n.a.id) map.set(n.a.id, n);
  if (n.n === 'SurfaceCollection') for (const m of n.c) if (m.a.id) map.set(m.a.id, m);
}
