/**
 * A generated ship whose OCX 3.1 document names CAD files (issue "CAD components" §1): an `Equipments`
 * element (after UnitsML, as the 3.1 schema orders it) with Equipment items whose ExternalGeometryRef
 * name the shared CAD samples; two items share one file.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { writeShipOcx } from '../../tools/generator/index';

/** The CAD file names the equipment of writeCadShip refers to, in document order (distinct). */
export const CAD_SHIP_FILES = ['as1-oc-214.stp', 'cube-10mm.igs', 'IfcOpenHouse_IFC4.ifc'];

const EQUIPMENT = [
  ['eq-pump-1', 'Ballast pump 1', 'as1-oc-214.stp', '.stp'],
  ['eq-pump-2', 'Ballast pump 2', 'as1-oc-214.stp', '.stp'],
  ['eq-cube', 'Hatch cover', 'cube-10mm.igs', '.igs'],
  ['eq-house', 'Deck house', 'IfcOpenHouse_IFC4.ifc', '.ifc'],
];

/** The Equipments element of the ship (ocx prefix bound by the root). */
export function equipmentsXml(): string {
  const items = EQUIPMENT.map(
    ([id, name, file, format], i) =>
      `<ocx:Equipment id="${id}" name="${name}" ocx:GUIDRef="cad-eq-${i}"><ocx:ExternalGeometryRef ocx:externalRef="${file}" ocx:geometryFormat="${format}"/></ocx:Equipment>`,
  ).join('\n');
  return `<ocx:Equipments id="equipments" name="Equipment" ocx:GUIDRef="cad-equipments">\n${items}\n</ocx:Equipments>\n`;
}

/** Writes a small generated ship with the Equipments element to `file`. */
export async function writeCadShip(file: string, name = 'CADSHIP'): Promise<void> {
  await writeShipOcx(file, { targetParts: 100, seed: 3, name });
  const text = await readFile(file, 'utf8');
  const end = text.lastIndexOf('</ocx:ocxXML>');
  await writeFile(file, `${text.slice(0, end)}${equipmentsXml()}${text.slice(end)}`);
}
