/**
 * The document tail of a generated OCX 3.1 file: ClassCatalogue (MaterialCatalogue with density,
 * Young's modulus, Poisson ratio, yield and ultimate stress; XSectionCatalogue with BulbFlat, TBar and
 * FlatBar sections; HoleShapeCatalogue with SymmetricalHole and ParametricCircle lightening holes) and the UnitsML unit table (OCX_GUIDE §2.15, §3). Units follow NAPA's ids.
 */
import type { GradeName, HoleShapeName, SectionName } from './shipLayout';
import { HOLE_SIZES } from './framePlan';
import { type CatalogueIds, GRADES, type IdSource, SECTIONS, STEEL_DENSITY, num } from './ocxWriter';

/** UnitsML units: id, English name, symbol, root units [unit, power, prefix?], dimension id. */
const UNITS: [string, string, string, [string, number, string?][], string][] = [
  ['Um', 'meter', 'm', [['meter', 1]], 'D_L'],
  ['Umm', 'millimeter', 'mm', [['meter', 1, 'm']], 'D_L'],
  ['Um2', 'square meter', 'm2', [['meter', 2]], 'D_L2'],
  ['Um3', 'cubic meter', 'm3', [['meter', 3]], 'D_L3'],
  ['URad', 'radian', 'rad', [['radian', 1]], 'D_None'],
  ['UKg', 'kilogram', 'kg', [['gram', 1, 'k']], 'D_Kg'],
  [
    'UKgOverm3',
    'kilogram per cubic meter',
    'kg/m3',
    [
      ['gram', 1, 'k'],
      ['meter', -3],
    ],
    'D_Kg.M-3',
  ],
  [
    'UNOvermm2',
    'newton per square millimeter',
    'N/mm2',
    [
      ['newton', 1],
      ['meter', -2, 'm'],
    ],
    'D_N.MM-2',
  ],
  ['UKnots', 'knot', 'kn', [['knot', 1]], 'D_L.T-1'],
  ['UDimless', 'dimensionless', '', [], 'D_None'],
];

const DIMENSIONS = `<unitsml:DimensionSet>
<unitsml:Dimension xml:id="D_L"><unitsml:Length symbol="L"/></unitsml:Dimension>
<unitsml:Dimension xml:id="D_L2"><unitsml:Length symbol="L" powerNumerator="2"/></unitsml:Dimension>
<unitsml:Dimension xml:id="D_L3"><unitsml:Length symbol="L" powerNumerator="3"/></unitsml:Dimension>
<unitsml:Dimension xml:id="D_L.T-1"><unitsml:Length symbol="L"/><unitsml:Time symbol="T" powerNumerator="-1"/></unitsml:Dimension>
<unitsml:Dimension xml:id="D_Kg"><unitsml:Mass symbol="M"/></unitsml:Dimension>
<unitsml:Dimension xml:id="D_Kg.M-3"><unitsml:Mass symbol="M"/><unitsml:Length symbol="L" powerNumerator="-3"/></unitsml:Dimension>
<unitsml:Dimension xml:id="D_N.MM-2"><unitsml:Length symbol="L" powerNumerator="-1"/><unitsml:Mass symbol="M"/><unitsml:Time symbol="T" powerNumerator="-2"/></unitsml:Dimension>
<unitsml:Dimension xml:id="D_None" dimensionless="true"/>
</unitsml:DimensionSet>`;

/**
 * Closes the Vessel and writes ClassCatalogue and UnitsML, then `after` (e.g. the Equipments element, made
 * last so it takes no id from the catalogue), ending the document.
 */
export function documentEnd(ids: IdSource, cat: CatalogueIds, after?: (ids: IdSource) => string): string {
  const materials = (Object.keys(GRADES) as GradeName[])
    .map((g) => {
      const m = cat.material[g],
        q = GRADES[g];
      return (
        `<ocx:Material id="${m.id}" name="${g}" ocx:grade="${g}" ocx:GUIDRef="${m.guid}">` +
        `<ocx:Density numericvalue="${STEEL_DENSITY}" unit="UKgOverm3"/><ocx:YoungsModulus numericvalue="206000" unit="UNOvermm2"/>` +
        `<ocx:PoissonRatio numericvalue="0.3" unit="UDimless"/><ocx:YieldStress numericvalue="${q.yield}" unit="UNOvermm2"/>` +
        `<ocx:UltimateStress numericvalue="${q.ultimate}" unit="UNOvermm2"/></ocx:Material>\n`
      );
    })
    .join('');
  const sections = (Object.keys(SECTIONS) as SectionName[])
    .map((s) => {
      const d = SECTIONS[s],
        c = cat.section[s];
      const dims = d.dims.map(([k, v]) => `<ocx:${k} numericvalue="${num(v)}" unit="Um"/>`).join('');
      return `<ocx:BarSection id="${c.id}" name="${s}" ocx:GUIDRef="${c.guid}"><ocx:${d.shape}>${dims}</ocx:${d.shape}></ocx:BarSection>\n`;
    })
    .join('');
  const holes = (Object.keys(HOLE_SIZES) as HoleShapeName[])
    .map((h) => {
      const c = cat.hole[h],
        { width, height } = HOLE_SIZES[h];
      const shape =
        width === height
          ? `<ocx:ParametricCircle id="${ids.id()}"><ocx:Diameter numericvalue="${num(width)}" unit="Um"/></ocx:ParametricCircle>`
          : `<ocx:SymmetricalHole id="${ids.id()}"><ocx:Height numericvalue="${num(height)}" unit="Um"/><ocx:Width numericvalue="${num(width)}" unit="Um"/></ocx:SymmetricalHole>`;
      return `<ocx:Hole2D id="${c.id}" name="${h}" ocx:GUIDRef="${c.guid}">${shape}</ocx:Hole2D>\n`;
    })
    .join('');
  const units = UNITS.map(([id, name, symbol, roots, dim]) => {
    const r = roots.length
      ? `<unitsml:RootUnits>${roots.map(([u, p, pre]) => `<unitsml:EnumeratedRootUnit unit="${u}" powerNumerator="${p}"${pre ? ` prefix="${pre}"` : ''}/>`).join('')}</unitsml:RootUnits>`
      : '';
    return `<unitsml:Unit xml:id="${id}" dimensionURL="${dim}"><unitsml:UnitName xml:lang="en-us">${name}</unitsml:UnitName><unitsml:UnitSymbol type="${symbol}"/>${r}</unitsml:Unit>\n`;
  }).join('');
  return (
    `</ocx:Vessel>\n<ocx:ClassCatalogue id="${ids.id()}">\n<ocx:MaterialCatalogue id="${ids.id()}">\n${materials}</ocx:MaterialCatalogue>\n` +
    `<ocx:XSectionCatalogue id="${ids.id()}" name="Stiffener profiles">\n${sections}</ocx:XSectionCatalogue>\n<ocx:HoleShapeCatalogue id="${ids.id()}" name="Lightening holes">\n${holes}</ocx:HoleShapeCatalogue>\n</ocx:ClassCatalogue>\n` +
    `<unitsml:UnitsML xmlns:unitsml="urn:oasis:names:tc:unitsml:schema:xsd:UnitsMLSchema_lite-0.9.18">\n<unitsml:UnitSet>\n${units}</unitsml:UnitSet>\n${DIMENSIONS}\n</unitsml:UnitsML>\n${after?.(ids) ?? ''}</ocx:ocxXML>\n`
  );
}
