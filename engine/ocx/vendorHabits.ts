/**
 * Writer conventions that the OCX schema leaves open (OCX_GUIDE §2.1 "use them to switch vendor
 * workarounds", §5.2.6, §5.3.3). Chosen from Header/@originating_system, @organization and
 * @application_version; the centre-of-gravity conventions are then confirmed or corrected from the
 * file's own figures (cogConventions.ts). Each rule is inferred from the corpus; the evidence is given
 * with the field. Unknown writers get the physical defaults.
 */
import type { SectionOptions } from '../geometry/barSections';

/**
 * How a writer's CenterOfGravity is defined for one kind of part. Plates: 'moulded' = the centroid of
 * the sheet on its reference (moulded) surface, ignoring Offset and thickness; 'solid' = the centroid
 * of the steel. Profiles: 'moulded' = measured from the trace line without the plate-thickness shift of
 * §5.3.3; 'solid' = the centroid of the bar standing on the plate's face.
 */
export type CogConvention = 'moulded' | 'solid';

/** Conventions of one writer. */
export interface VendorHabits {
  /** Short name of the writer family ('NAPA', 'AITAC', 'AVEVA Hull', 'AVEVA E3D', 'CADMATIC', 'other'). */
  writer: string;
  /**
   * Plate and bracket CoG convention. Moulded: NAPA (TC11 plates 50 mm thick with Offset −t report
   * y = 1000 on the moulded plane), AITAC Structure / 3DEXPERIENCE, AVEVA Hull and AVEVA E3D (the same
   * TC11 plates at y = ±1000, x = 40000 / 60000). Solid: CADMATIC (plates at mid-thickness).
   */
  plateCog: CogConvention;
  /**
   * Stiffener, edge reinforcement and pillar CoG convention. Moulded: NAPA (HP200x10 CoGs 119.5 mm from
   * the trace on 50 mm plates), AITAC (FB100x10 at 50 mm from the moulded plane) and AVEVA Hull
   * (HP200x10 at 119.5 mm from the moulded plane). Solid: CADMATIC and AVEVA E3D (HP200x10 at
   * 50 + 119.6 mm).
   */
  profileCog: CogConvention;
  /**
   * An Offset of 0 (or none) means "the steel lies on the side the panel's stiffeners are on", not
   * "on the + side of the normal" (AVEVA E3D and AVEVA Hull: TC11 plates at y = +1000 with Offset 0
   * whose stiffeners point to −y, reported with the stiffeners 50 mm off the moulded plane).
   */
  offsetFollowsStiffeners: boolean;
  /**
   * How a curved profile's DryWeight is computed: 'centroid-path' = section area × the length of the
   * path its centroid sweeps (Pappus; CADMATIC: a HP200x10 ring of radius 500 mm weighs 62.17 kg,
   * 2π·491.4 mm × 25.65 cm² × 7.85 t/m³), 'trace' = section area × trace length (NAPA on the M4 ring
   * frames, AITAC: 63.28 kg for the same ring, 2π·500 mm).
   */
  profileWeight: 'centroid-path' | 'trace';
  /**
   * Which area a plate's NetArea (and DryWeight = area × thickness × ρ) is of: 'moulded' = the sheet on
   * its reference surface (NAPA TC10: the 1 m-radius cylinder plate nplcid316 9.25491 m², the sheet
   * measures 9.2549; AITAC nplcid346 0.785 against 0.7844), 'solid' = the steel's volume / thickness, the
   * area at mid-thickness (CADMATIC TC10: the quarter-sphere plate _10shellplate4 3.142243 m², the
   * sheet 3.108 and the solid 3.144; _10shellplate5 3.155 against 3.121 and 3.162). AVEVA: no curved
   * plate of the corpus tells; moulded like its CoGs. Unknown writers: moulded, as most writers do.
   */
  plateArea: CogConvention;
  /** Section shape conventions (TBar / IBar height, see SectionOptions). */
  sections: SectionOptions;
}

/** The conventions for a file's Header attributes. */
export function habitsOf(header: Record<string, string>): VendorHabits {
  const who = `${header.originating_system ?? ''} ${header.organization ?? ''}`;
  if (/\bNAPA\b/i.test(who))
    return {
      writer: 'NAPA',
      plateCog: 'moulded',
      profileCog: 'moulded',
      offsetFollowsStiffeners: false,
      profileWeight: 'trace',
      plateArea: 'moulded',
      sections: { webHeightExcludesFlanges: true },
    };
  if (/\bAITAC\b|3DEXPERIENCE|CATIA/i.test(who))
    return {
      writer: 'AITAC',
      plateCog: 'moulded',
      profileCog: 'moulded',
      offsetFollowsStiffeners: false,
      profileWeight: 'trace',
      plateArea: 'moulded',
      sections: {},
    };
  if (/\bAVEVA\b/i.test(who) && /\bE3D\b/i.test(who))
    return {
      writer: 'AVEVA E3D',
      plateCog: 'moulded',
      profileCog: 'solid',
      offsetFollowsStiffeners: true,
      profileWeight: 'centroid-path',
      plateArea: 'moulded',
      sections: {},
    };
  if (/\bAVEVA\b/i.test(who))
    return {
      writer: 'AVEVA Hull',
      plateCog: 'moulded',
      profileCog: 'moulded',
      offsetFollowsStiffeners: true,
      profileWeight: 'centroid-path',
      plateArea: 'moulded',
      sections: {},
    };
  if (/\bCADMATIC\b/i.test(who))
    return {
      writer: 'CADMATIC',
      plateCog: 'solid',
      profileCog: 'solid',
      offsetFollowsStiffeners: false,
      profileWeight: 'centroid-path',
      plateArea: 'solid',
      sections: {},
    };
  return {
    writer: 'other',
    plateCog: 'solid',
    profileCog: 'solid',
    offsetFollowsStiffeners: false,
    profileWeight: 'centroid-path',
    plateArea: 'moulded',
    sections: {},
  };
}
