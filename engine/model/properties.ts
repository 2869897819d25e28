/**
 * The property catalogue of viewer.md §3 ("Property catalogue" and "Units"): each code's meaning,
 * the unit its value is stored and served in (the API's metres, tonnes, m², m³), whether it sums over
 * a multiple selection, and how the properties panel displays it (unit, factor, decimals).
 */

/** Display units of viewer.md §3 "Units (display factor, decimals)". */
export interface DisplayUnit {
  /** Unit label shown next to the value. */
  label: string;
  /** Stored value × factor = displayed value. */
  factor: number;
  /** Decimals shown. */
  decimals: number;
}

/** Display units by name, viewer.md §3 "Units". Quantity values default to 3 decimals (§9 Drawing). */
export const DISPLAY_UNITS: Readonly<Record<string, DisplayUnit>> = {
  t: { label: 't', factor: 1, decimals: 3 },
  m: { label: 'm', factor: 1, decimals: 3 },
  mm: { label: 'mm', factor: 1000, decimals: 1 },
  m2: { label: 'm2', factor: 1, decimals: 3 },
  cm2: { label: 'cm2', factor: 1e4, decimals: 3 },
  m3: { label: 'm3', factor: 1, decimals: 3 },
  cm3: { label: 'cm3', factor: 1e6, decimals: 3 },
  cm4: { label: 'cm4', factor: 1e8, decimals: 3 },
  'N/mm2': { label: 'N/mm2', factor: 1, decimals: 3 },
  't/m3': { label: 't/m3', factor: 1, decimals: 3 },
  deg: { label: 'deg', factor: 57.29578, decimals: 1 },
};

/** One catalogue entry: the spec's "Property quantity record: name, description, unit, isSummable". */
export interface PropertyDefinition {
  /** Catalogue code, e.g. 'PLTH'. */
  name: string;
  /** Meaning shown as the row header. */
  description: string;
  /** Display unit key of DISPLAY_UNITS, or '' for text and plain numbers. */
  unit: string;
  /** Summed over a multiple selection (viewer.md §5 "Property merging"). */
  isSummable: boolean;
}

const def = (name: string, description: string, unit = '', isSummable = false): PropertyDefinition => ({
  name,
  description,
  unit,
  isSummable,
});

/**
 * The catalogue. Stored units: lengths and coordinates in m (displayed in mm where the unit says so),
 * weight in t, area m², volume m³, density t/m³, moduli and stresses N/mm², angles in radians.
 */
export const PROPERTY_CATALOGUE: readonly PropertyDefinition[] = [
  def('NAME', 'Name'),
  def('OTYPE', 'Object type'),
  def('STID', 'Id'),
  def('GUID', 'GUID'),
  def('DES', 'Description'),
  def('STYPE', 'Structure type'),
  def('PURP', 'Purpose'),
  def('TGH', 'Tightness'),
  def('MAT', 'Material'),
  def('PLTH', 'Thickness', 'mm'),
  def('MSIDE', 'Material side'),
  def('PROFILE', 'Profile'),
  def('PROFID', 'Profile id'),
  def('W', 'Weight', 't', true),
  def('L', 'Length', 'm', true),
  def('AREA', 'Area', 'm2', true),
  def('VOLM', 'Volume', 'm3', true),
  def('XCG', 'Centre of gravity X', 'm'),
  def('YCG', 'Centre of gravity Y', 'm'),
  def('ZCG', 'Centre of gravity Z', 'm'),
  def('XMIN', 'X min', 'm'),
  def('XMAX', 'X max', 'm'),
  def('YMIN', 'Y min', 'm'),
  def('YMAX', 'Y max', 'm'),
  def('ZMIN', 'Z min', 'm'),
  def('ZMAX', 'Z max', 'm'),
  def('RHO', 'Density', 't/m3'),
  def('E', 'Modulus of elasticity', 'N/mm2'),
  def('G', 'Shear modulus', 'N/mm2'),
  def('NY', "Poisson's ratio"),
  def('SIGMA', 'Yield stress', 'N/mm2'),
  def('SAREA', 'Section area', 'cm2'),
  def('IXA', 'Moment of inertia', 'cm4'),
  def('WS', 'Section modulus', 'cm3'),
  def('BRACKET', 'Bracket'),
  def('OPENING', 'Opening'),
  def('SEAM', 'Seam'),
  def('NOTCH', 'Notch'),
  def('PART', 'Part'),
  def('ORNT', 'Orientation'),
  def('WLDL', 'Welding length', 'm', true),
  def('STATUS', 'Status'),
  // CAD components (viewer.md §3 CAD COMPONENT): where the geometry came from; the count is text (no decimals).
  def('CADFILE', 'Source file'),
  def('CADFORMAT', 'Source format'),
  def('TRIS', 'Triangles'),
];

/** Catalogue entries by code. */
export const PROPERTY_BY_NAME: ReadonlyMap<string, PropertyDefinition> = new Map(
  PROPERTY_CATALOGUE.map((d) => [d.name, d]),
);

/**
 * Formats a stored property value for display (viewer.md §3 "Units").
 * Numbers use the code's display unit (factor, decimals); unknown codes get 3 decimals; text is kept.
 * @returns e.g. `{ text: '12.0', unit: 'mm' }` for PLTH = 0.012.
 */
export function formatPropertyValue(code: string, value: number | string): { text: string; unit: string } {
  if (typeof value === 'string') return { text: value, unit: '' };
  const d = PROPERTY_BY_NAME.get(code);
  const u = d?.unit ? DISPLAY_UNITS[d.unit] : undefined;
  if (!u) return { text: Number.isFinite(value) ? value.toFixed(3) : String(value), unit: '' };
  return { text: (value * u.factor).toFixed(u.decimals), unit: u.label };
}
