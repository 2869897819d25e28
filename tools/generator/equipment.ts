/**
 * Equipment items that name CAD files (issue "CAD components" §1; OCX 3.1 `Equipments/Equipment` with an
 * `ExternalGeometryRef`), so a generated ship exercises the CAD components flow with the shared samples
 * (../shared/models/cad/). The 3.1 schema fixes `geometryFormat` to ".stp" (attribute group
 * externalRefAttributes), so every reference says ".stp" and the file name's extension gives the real format.
 */
import { esc, type IdSource } from './ocxWriter';

/** The equipment written: name and CAD file; two pumps share one file. */
export const CAD_EQUIPMENT: readonly { name: string; file: string }[] = [
  { name: 'Ballast pump 1', file: 'as1-oc-214.stp' },
  { name: 'Ballast pump 2', file: 'as1-oc-214.stp' },
  { name: 'Hatch cover', file: 'cube-10mm.igs' },
  { name: 'Deck house', file: 'IfcOpenHouse_IFC4.ifc' },
];

/** The distinct CAD file names of CAD_EQUIPMENT in document order. */
export const CAD_EQUIPMENT_FILES: readonly string[] = [...new Set(CAD_EQUIPMENT.map((e) => e.file))];

/** The `Equipments` element (goes after UnitsML, the last child of ocxXML in the 3.1 schema). */
export function equipmentsXml(ids: IdSource): string {
  const items = CAD_EQUIPMENT.map((e) => {
    const id = ids.id();
    return `<ocx:Equipment id="${id}" name="${esc(e.name)}" ocx:GUIDRef="${ids.guidOf(id)}"><ocx:ExternalGeometryRef ocx:externalRef="${esc(e.file)}" ocx:geometryFormat=".stp"/></ocx:Equipment>\n`;
  }).join('');
  const id = ids.id();
  return `<ocx:Equipments id="${id}" name="Equipment" ocx:GUIDRef="${ids.guidOf(id)}">\n${items}</ocx:Equipments>\n`;
}
