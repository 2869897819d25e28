/**
 * Resolution of catalogue references (MaterialRef, PlateMaterial, SectionRef, OCX_GUIDE §2.18): by
 * `localRef` when present, else by the reference's `ocx:GUIDRef` against the catalogue entries' GUIDs
 * (normalised: braces and case), else by `name`. Some writers omit localRef (AVEVA E3D on materials,
 * PROSTEP on a SectionRef) although the schema requires it; the GUID still names the entry.
 */
import { normGuid, type XNode } from './xmlTree';

/** Index of the catalogue entries of one element kind (Material, BarSection, ...) by GUID and by name. */
export class CatalogueRefs {
  private readonly byGuid = new Map<string, string>();
  private readonly byName = new Map<string, string>();

  /**
   * @param catalogue the file's catalogue entries by @id.
   * @param kinds the element local names this index resolves to (e.g. ['BarSection']).
   */
  constructor(
    private readonly catalogue: ReadonlyMap<string, XNode>,
    kinds: readonly string[],
  ) {
    for (const [id, n] of catalogue) {
      if (!kinds.includes(n.n)) continue;
      const g = normGuid(n.a.GUIDRef);
      if (g && !this.byGuid.has(g)) this.byGuid.set(g, id);
      if (n.a.name && !this.byName.has(n.a.name)) this.byName.set(n.a.name, id);
    }
  }

  /**
   * The @id of the entry a reference element points to, or undefined: its localRef when it has one
   * (undefined when the catalogue lacks it: a dangling reference is not guessed), else the entry with
   * the reference's GUID, else the entry with the reference's name.
   */
  idOf(ref: XNode | undefined): string | undefined {
    if (!ref) return undefined;
    const local = ref.a.localRef;
    if (local) return this.catalogue.has(local) ? local : undefined; // a dangling localRef stays dangling
    const g = normGuid(ref.a.GUIDRef);
    const byGuid = g ? this.byGuid.get(g) : undefined;
    if (byGuid !== undefined) return byGuid;
    return ref.a.name ? this.byName.get(ref.a.name) : undefined;
  }
}
