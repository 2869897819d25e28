/**
 * Writer dialects of the ship generator (an OCX file from a vendor the importer has
 * never seen imports with the same quality). The same ship, with the same exact figures, written the way
 * other design systems write OCX. Each named dialect is a plausible habit set of a writer that is not NAPA;
 * the habits, and what each changes:
 *
 * - schema: '3.0' writes the V300 namespace and schemaVersion 3.0.0 (AVEVA E3D's sample does), '3.1' V310.
 * - prefix: the element prefix: 'ocx' (canonical), another one ('o'), or '' = a default namespace
 *   (elements unprefixed; the global attributes GUIDRef, refType, ... keep a bound prefix, as they must).
 * - order: 'schema' (canonical), 'shuffled' (sibling order reversed wherever the schema allows any order:
 *   the parts of a panel, catalogue entries, references, UnitSet), 'reversed' (every child list reversed,
 *   except control points: not schema order, as NAPA's own files are not).
 * - units: 'm-kg' (canonical: Um, Umm, UKg ...) or 'mm-t' (AVEVA-style opaque unit ids u1..u9; lengths
 *   in mm, areas in mm², masses in t, densities in t/m³, angles in degrees, UnitsML with RootUnits
 *   prefixes, or only a UnitSymbol where no root unit exists).
 * - surfaces: 'canonical', 'nurbs1' / 'nurbs2' (every plate, bracket and panel Plane3D written as a
 *   NURBSSurface of degree 1, or 2 with a repeated knot; curved NURBS surfaces refined by knot insertion).
 * - contours: 'canonical', 'reversed-gaps' (segments end to start, each reversed, 0.41 mm gaps), 'nurbs'
 *   (one closed degree-1 NURBS3D per polygonal contour), 'polyline' (PolyLine3D segments).
 * - cog: 'solid' (CoG of the steel: mid-thickness plates, profiles on the plate face; CADMATIC's
 *   convention, engine/ocx/vendorHabits.ts) — every dialect here; the canonical output is 'moulded'.
 * - header: Header/@originating_system and @organization of the writer (never NAPA).
 * - guids: 'plain', 'braced-upper' ({BA3A77C2-...}, AVEVA), 'braced-lower' ({ba3a77c2-...}).
 * - extensions: vendor elements and attributes in a vendor namespace on every plate, stiffener and panel,
 *   plus an OCX-namespace element the schema does not define (schema-invalid by nature; the importer must
 *   count them and go on).
 * - crlfBom: CRLF line ends and a UTF-8 byte-order mark.
 */
import { type El, type NameStyle, attr, elems, local, ocx, rewriteOcx, setAttr } from './dialectTree';
import {
  NewIds,
  contourAsNurbs,
  linesAsPolyLines,
  planeAsNurbs,
  refineNurbs,
  reverseContours,
} from './dialectGeometry';
import { convertUnits, unitsMl } from './dialectUnits';
import type { WriterHabits } from './solidCog';

/** One writer's habits (see the file comment for each). */
export interface Dialect {
  name: string;
  /** What the dialect imitates and changes, for docs and the CLI. */
  description: string;
  schema: '3.0' | '3.1';
  prefix: string;
  order: 'schema' | 'shuffled' | 'reversed';
  units: 'm-kg' | 'mm-t';
  surfaces: 'canonical' | 'nurbs1' | 'nurbs2';
  contours: 'canonical' | 'reversed-gaps' | 'nurbs' | 'polyline';
  cog: WriterHabits['cog'];
  header: { originating_system: string; organization: string; application_version: string };
  guids: 'plain' | 'braced-upper' | 'braced-lower';
  extensions: boolean;
  crlfBom: boolean;
}

export const NS = {
  '3.0': 'https://3docx.org/fileadmin//ocx_schema//V300//OCX_Schema.xsd',
  '3.1': 'https://3docx.org/fileadmin//ocx_schema//V310//OCX_Schema.xsd',
} as const;
/** Namespace of the vendor extension elements and attributes. */
export const VENDOR_NS = 'urn:x-keelson-bench:vendor-extension';

/** The canonical output (ocxWriter.ts): passed through untouched, byte for byte. */
const CANONICAL: Dialect = {
  name: 'default',
  description:
    'Canonical generator output: OCX 3.1, ocx: prefix, schema order, m/kg, Plane3D and Line3D contours, solid CoG (the steel’s own centre of gravity)',
  schema: '3.1',
  prefix: 'ocx',
  order: 'schema',
  units: 'm-kg',
  surfaces: 'canonical',
  contours: 'canonical',
  cog: 'solid',
  header: { originating_system: 'Keelson ship generator', organization: 'Keelson', application_version: '1' },
  guids: 'plain',
  extensions: false,
  crlfBom: false,
};

/** The named dialects. */
export const DIALECTS: Record<string, Dialect> = {
  default: CANONICAL,
  cadmatic: {
    ...CANONICAL,
    name: 'cadmatic',
    description:
      'CADMATIC Hull style: OCX 3.0, default namespace, solid CoG, CRLF + BOM, braced lower-case GUIDs, vendor extension elements and attributes',
    schema: '3.0',
    prefix: '',
    cog: 'solid',
    guids: 'braced-lower',
    extensions: true,
    crlfBom: true,
    header: { originating_system: 'CADMATIC Hull', organization: 'CADMATIC Oy', application_version: '2024T2' },
  },
  aveva: {
    ...CANONICAL,
    name: 'aveva',
    description:
      'AVEVA E3D Marine style: OCX 3.0, opaque unit ids with lengths in mm, masses in t, angles in degrees, PolyLine3D contour segments, braced upper-case GUIDs, shuffled sibling order, solid CoG',
    schema: '3.0',
    units: 'mm-t',
    contours: 'polyline',
    order: 'shuffled',
    cog: 'solid',
    guids: 'braced-upper',
    header: {
      originating_system: 'AVEVA E3D Design',
      organization: 'AVEVA E3D Design User',
      application_version: '4.2',
    },
  },
  '3dexperience': {
    ...CANONICAL,
    name: '3dexperience',
    description:
      '3DEXPERIENCE style: OCX 3.1 with the prefix o:, every plate on a NURBSSurface (degree 2, repeated knots; curved ones refined), contours as closed degree-1 NURBS3D, solid CoG',
    prefix: 'o',
    surfaces: 'nurbs2',
    contours: 'nurbs',
    cog: 'solid',
    header: {
      originating_system: '3DEXPERIENCE CATIA Structure Functional Design',
      organization: 'Dassault Systemes',
      application_version: 'R2024x',
    },
  },
  prostep: {
    ...CANONICAL,
    name: 'prostep',
    description:
      'PROSTEP converter style: OCX 3.1, every child list reversed (not schema order), contours end to start with 0.41 mm gaps, bilinear NURBS plate surfaces, mm/t units, solid CoG, CRLF',
    order: 'reversed',
    contours: 'reversed-gaps',
    surfaces: 'nurbs1',
    units: 'mm-t',
    cog: 'solid',
    crlfBom: true,
    header: {
      originating_system: 'PROSTEP OpenPDM OCX Converter',
      organization: 'PROSTEP AG',
      application_version: '9.1',
    },
  },
};

/** The dialect named `name`. @throws Error naming the known dialects for an unknown name. */
export function dialectOf(name: string | Dialect | undefined): Dialect {
  if (name === undefined) return CANONICAL;
  if (typeof name !== 'string') return name;
  const d = DIALECTS[name];
  if (!d) throw new Error(`Unknown dialect "${name}"; known: ${Object.keys(DIALECTS).join(', ')}`);
  return d;
}

/** The variant of a dialect that the OCX schema can accept: no vendor extensions, schema-order children. */
export const schemaValidVariant = (d: Dialect): Dialect => ({
  ...d,
  extensions: false,
  order: d.order === 'reversed' ? 'schema' : d.order,
});

/** True when the dialect writes exactly the canonical text. */
export const isCanonical = (d: Dialect) => JSON.stringify(d) === JSON.stringify(CANONICAL);

/** Children lists whose order the schema leaves free (xs:choice maxOccurs unbounded or repeated elements; ComposedOf: 3.1 only). */
const FREE_ORDER = new Set([
  'StiffenedBy',
  'SplitBy',
  'CutBy',
  'Occurrence',
  'OccurrenceGroup',
  'MaterialCatalogue',
  'XSectionCatalogue',
  'HoleShapeCatalogue',
  'UnitSet',
  'CustomProperties',
  'XRefPlanes',
  'YRefPlanes',
  'ZRefPlanes',
]);

function reorder(e: El, mode: Dialect['order'], schema: Dialect['schema']): void {
  const n = local(e.name);
  if (
    mode === 'reversed'
      ? n !== 'ControlPtList' && n !== 'UnitsML' && n !== 'DimensionSet'
      : FREE_ORDER.has(n) || (n === 'ComposedOf' && schema === '3.1')
  )
    e.kids.reverse();
  for (const k of elems(e)) reorder(k, mode, schema);
}

/** References that OCX 3.0 requires a name on. */
const NAMED_REFS_30 = new Set([
  'PlateMaterial',
  'BracketRef',
  'StiffenerRef',
  'SectionRef',
  'MaterialRef',
  'PlateRef',
  'GridRef',
  'SeamRef',
  'VesselRef',
]);

/**
 * What OCX 3.0 wants differently from 3.1 in the generator's output: a name on references (the target's
 * id), no RefPlane/@displayGrid, and the 3.0 compartmentPurpose enumeration (Cargo, Ballast, Fuel,
 * Machinery, Void ...).
 */
function schema30(e: El): void {
  const n = local(e.name);
  if (NAMED_REFS_30.has(n) && attr(e, 'name') === undefined) e.attrs.push(['name', attr(e, 'localRef') ?? '']);
  if (n === 'RefPlane') e.attrs = e.attrs.filter(([k]) => k !== 'displayGrid');
  if (n === 'Compartment') {
    const p = attr(e, 'ocx:compartmentPurpose') ?? '';
    const liquid = elems(e, 'LiquidCargo')
      .map((c) => attr(c, 'ocx:liquidCargoType') ?? '')
      .join(' ');
    const v =
      p === 'void'
        ? 'Void'
        : /engine/.test(p)
          ? 'Machinery'
          : /fuel/.test(liquid)
            ? 'Fuel'
            : /cargo|centre_tank|wing_tank/.test(p)
              ? 'Cargo'
              : 'Ballast';
    setAttr(e, 'ocx:compartmentPurpose', v);
  }
  for (const k of elems(e)) schema30(k);
}

function guidStyle(e: El, style: Dialect['guids']): void {
  for (const a of e.attrs)
    if (local(a[0]) === 'GUIDRef') a[1] = `{${style === 'braced-upper' ? a[1].toUpperCase() : a[1].toLowerCase()}}`;
  for (const k of elems(e)) guidStyle(k, style);
}

/** Vendor data on parts: a vendor-namespace element and attribute, and an OCX element the schema lacks. */
function extend(e: El): void {
  const n = local(e.name);
  if (n === 'Plate' || n === 'Stiffener' || n === 'Bracket') {
    e.kids.unshift({
      name: 'vx:ProductionData',
      attrs: [
        ['vx:workshop', 'HALL 2'],
        ['vx:sequence', '3'],
      ],
      kids: [{ name: 'vx:Remark', attrs: [], kids: ['edge prep. K'] }],
    });
    e.attrs.push(['vx:releaseState', 'APPROVED']);
  }
  if (n === 'Plate')
    e.kids.push(
      ocx('WeldingData', [
        ['id', `wd-${attr(e, 'id')}`],
        ['process', 'FCAW'],
      ]),
    );
  if (n === 'Panel') e.attrs.push(['vx:assembly', 'B-ASSY']);
  for (const k of elems(e)) extend(k);
}

/** Rewrites one finished top-level element of the canonical text. */
function rewritePart(e: El, d: Dialect, ids: NewIds): El[] {
  const n = local(e.name);
  if (n === 'Header') for (const [k, v] of Object.entries(d.header)) setAttr(e, k, v);
  if (n === 'UnitsML') return d.units === 'mm-t' ? [unitsMl(e)] : [e];
  if (d.surfaces !== 'canonical') {
    planeAsNurbs(e, ids, d.surfaces === 'nurbs1' ? 1 : 2);
    if (d.surfaces === 'nurbs2') refineNurbs(e);
  }
  if (d.contours === 'reversed-gaps') reverseContours(e);
  else if (d.contours === 'nurbs') contourAsNurbs(e, ids);
  else if (d.contours === 'polyline') linesAsPolyLines(e, ids, d.schema);
  if (d.units === 'mm-t') convertUnits(e);
  if (d.guids !== 'plain') guidStyle(e, d.guids);
  if (d.extensions) extend(e);
  if (d.schema === '3.0') schema30(e);
  if (d.order !== 'schema') reorder(e, d.order, d.schema);
  return [e];
}

/**
 * Streams the canonical OCX text pieces rewritten into dialect `d` (the canonical dialect passes them
 * through untouched). Deterministic.
 */
export async function* applyDialect(pieces: AsyncIterable<string>, d: Dialect): AsyncGenerator<string> {
  if (isCanonical(d)) {
    yield* pieces;
    return;
  }
  const ids = new NewIds();
  const style: NameStyle = { element: d.prefix, attribute: d.prefix || 'ocx' };
  const rewritten = rewriteOcx(pieces, {
    style,
    root(e) {
      const ns = NS[d.schema];
      e.attrs = e.attrs.filter(([k]) => k !== 'xmlns:ocx' && k !== 'schemaVersion');
      if (d.prefix) e.attrs.push([`xmlns:${d.prefix}`, ns]);
      else e.attrs.push(['xmlns', ns], ['xmlns:ocx', ns]);
      if (d.extensions) e.attrs.push(['xmlns:vx', VENDOR_NS]);
      e.attrs.push(['schemaVersion', d.schema === '3.0' ? '3.0.0' : '3.1.0']);
    },
    part: (e) => rewritePart(e, d, ids),
  });
  let firstPiece = true;
  for await (const piece of rewritten) {
    let t = d.crlfBom ? piece.replace(/\r?\n/g, '\r\n') : piece;
    if (firstPiece && d.crlfBom) t = `\ufeff${t}`;
    firstPiece = false;
    yield t;
  }
}
