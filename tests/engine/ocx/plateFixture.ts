/**
 * Small hand-written OCX 3.1 documents for the plate-geometry tests: a Vessel body wrapped with the
 * header, a catalogue and a metre-based unit table, plus helpers for the curves and parts they hold.
 * Coordinates in the helpers are metres (the file's unit).
 */
import { importOcx } from '../../../engine/ocx/index';
import type { ImportResult, PartFidelity } from '../../../engine/model/types';

const NS = 'https://3docx.org/fileadmin//ocx_schema//V310//OCX_Schema.xsd';
const UNITS = `<unitsml:UnitsML xmlns:unitsml="urn:oasis:names:tc:unitsml:schema:xsd:UnitsMLSchema_lite-0.9.18"><unitsml:UnitSet>
<unitsml:Unit xml:id="Um"><unitsml:UnitName>meter</unitsml:UnitName><unitsml:UnitSymbol type="m"/><unitsml:RootUnits><unitsml:EnumeratedRootUnit unit="meter"/></unitsml:RootUnits></unitsml:Unit>
<unitsml:Unit xml:id="Um2"><unitsml:UnitName>square meter</unitsml:UnitName><unitsml:UnitSymbol type="m2"/><unitsml:RootUnits><unitsml:EnumeratedRootUnit unit="meter" powerNumerator="2"/></unitsml:RootUnits></unitsml:Unit>
<unitsml:Unit xml:id="Ukg"><unitsml:UnitName>kilogram</unitsml:UnitName><unitsml:UnitSymbol type="kg"/><unitsml:RootUnits><unitsml:EnumeratedRootUnit unit="gram" prefix="k"/></unitsml:RootUnits></unitsml:Unit>
<unitsml:Unit xml:id="UKgOverm3"><unitsml:UnitName>kilogram per cubic meter</unitsml:UnitName><unitsml:UnitSymbol type="kg/m3"/><unitsml:RootUnits><unitsml:EnumeratedRootUnit unit="gram" prefix="k"/><unitsml:EnumeratedRootUnit unit="meter" powerNumerator="-3"/></unitsml:RootUnits></unitsml:Unit>
</unitsml:UnitSet></unitsml:UnitsML>`;

/** A 3.1 document: `body` inside the Vessel, `catalogue` inside the ClassCatalogue (after a steel "M1"). */
export function ocxDoc(body: string, catalogue = ''): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<ocx:ocxXML xmlns:ocx="${NS}" schemaVersion="3.1.0"><ocx:Header name="T" originating_system="hand" time_stamp="2024-01-01T00:00:00"/>
<ocx:Vessel id="v1" name="T">${body}</ocx:Vessel>
<ocx:ClassCatalogue id="cc"><ocx:MaterialCatalogue><ocx:Material id="M1" name="A"><ocx:Density numericvalue="7850" unit="UKgOverm3"/></ocx:Material></ocx:MaterialCatalogue>${catalogue}</ocx:ClassCatalogue>${UNITS}</ocx:ocxXML>`;
}

const pt = (p: number[]) => `coordinates="${p.join(' ')}" unit="Um"`;
let serial = 0;
const nid = (s: string) => `${s}${++serial}`;

/** A Line3D from a to b (m). */
export const line = (a: number[], b: number[]) =>
  `<ocx:Line3D id="${nid('l')}"><ocx:StartPoint ${pt(a)}/><ocx:EndPoint ${pt(b)}/></ocx:Line3D>`;

/** A CircumArc3D through a, m, b (m). */
export const arc = (a: number[], m: number[], b: number[]) =>
  `<ocx:CircumArc3D id="${nid('a')}"><ocx:StartPoint ${pt(a)}/><ocx:IntermediatePoint ${pt(m)}/><ocx:EndPoint ${pt(b)}/></ocx:CircumArc3D>`;

/** Line3Ds around a closed polygon (m). */
export const polygon = (pts: number[][]) => pts.map((p, i) => line(p, pts[(i + 1) % pts.length])).join('');

/** A Plane3D through o with normal n. */
export const plane3d = (o: number[], n: number[]) =>
  `<ocx:Plane3D id="${nid('pl')}"><ocx:Origin ${pt(o)}/><ocx:Normal direction="${n.join(' ')}"/></ocx:Plane3D>`;

/** The vendor figures of a plate (area m², CoG m) and its own contour, thickness (m) and extras. */
export interface PlateSpec {
  id: string;
  contour: string;
  thickness?: number;
  area?: number;
  cog?: number[];
  extra?: string;
}

/** A Plate element; its DryWeight is area × thickness × 7.85 t/m³ when an area is given. */
export function plate({ id, contour, thickness = 0.01, area, cog, extra = '' }: PlateSpec): string {
  const pp =
    area !== undefined && cog
      ? `<ocx:PhysicalProperties><ocx:DryWeight numericvalue="${area * thickness * 7850}" unit="Ukg"/><ocx:CenterOfGravity ${pt(cog)}/></ocx:PhysicalProperties>`
      : '';
  return `<ocx:Plate id="${id}" name="${id}">${pp}<ocx:NetArea numericvalue="${area ?? 0}" unit="Um2"/><ocx:OuterContour>${contour}</ocx:OuterContour><ocx:PlateMaterial localRef="M1"><ocx:Thickness numericvalue="${thickness}" unit="Um"/></ocx:PlateMaterial>${extra}</ocx:Plate>`;
}

/** A Panel on `surface` (UnboundedGeometry content) holding `plates`, with an optional CutBy content. */
export function panel(id: string, surface: string, plates: string, cutBy = ''): string {
  return `<ocx:Panel id="${id}" name="${id}" ocx:functionType="X" ocx:tightness="NonTight"><ocx:UnboundedGeometry>${surface}</ocx:UnboundedGeometry><ocx:LimitedBy/><ocx:ComposedOf>${plates}</ocx:ComposedOf>${cutBy ? `<ocx:CutBy>${cutBy}</ocx:CutBy>` : ''}</ocx:Panel>`;
}

/** A Hole2DContour placed by an origin and axes. */
export const hole2d = (ref: string, o: number[], px = [1, 0, 0], py = [0, 1, 0]) =>
  `<ocx:Hole2DContour id="${nid('h')}"><ocx:HoleRef localRef="${ref}"/><ocx:Transformation><ocx:Origin ${pt(o)}/><ocx:PrimaryAxis direction="${px.join(' ')}"/><ocx:SecondaryAxis direction="${py.join(' ')}"/></ocx:Transformation></ocx:Hole2DContour>`;

/** Imports a document from text. */
export async function importText(text: string): Promise<ImportResult> {
  async function* chunks(): AsyncGenerator<string> {
    for (let i = 0; i < text.length; i += 4096) yield text.slice(i, i + 4096);
  }
  return importOcx(chunks());
}

/** The fidelity record of part `id` (throws when it was not compared). */
export function fidelityOf(r: ImportResult, id: string): PartFidelity {
  const f = r.fidelity?.find((x) => x.id === id);
  if (!f) throw new Error(`part ${id} not compared`);
  return f;
}
