/**
 * Writer conventions that the OCX schema leaves open (OCX_GUIDE §2.1 "use them to switch vendor
 * workarounds", §5.2.6, §5.3.3). Chosen from Header/@originating_system and @organization. Each rule
 * is inferred from the corpus; the evidence is given with the field. Unknown writers get the physical
 * defaults.
 */
import type { SectionOptions } from '../geometry/barSections';

/** Conventions of one writer. */
export interface VendorHabits {
  /** Short name of the writer family ('NAPA', 'other'). */
  writer: string;
  /**
   * How the writer's CenterOfGravity is defined. 'moulded': plates on their reference (moulded)
   * surface, ignoring Offset and thickness, and profiles measured from the trace line without the
   * plate-thickness shift of §5.3.3 (NAPA: TC11 plates 50 mm thick with Offset −t report y = 1000 on
   * the moulded plane; HP200x10 COGs sit 119.5 mm from the trace on 50 mm plates). 'solid': the
   * centroid of the part's solid (CADMATIC reports plates at mid-thickness).
   */
  cogConvention: 'moulded' | 'solid';
  /** Section shape conventions (TBar / IBar height, see SectionOptions). */
  sections: SectionOptions;
}

/** The conventions for a file's Header attributes. */
export function habitsOf(header: Record<string, string>): VendorHabits {
  const who = `${header.originating_system ?? ''} ${header.organization ?? ''}`;
  if (/\bNAPA\b/i.test(who))
    return { writer: 'NAPA', cogConvention: 'moulded', sections: { webHeightExcludesFlanges: true } };
  return { writer: 'other', cogConvention: 'solid', sections: {} };
}
