/**
 * STEP, IGES and BREP to a CadConversion with OpenCascade (occt-import-js, LGPL-2.1; its wasm is loaded
 * here, in a server worker thread, never by the viewer). OpenCascade converts the file's length unit to
 * millimetres (BREP has no unit: its numbers are taken as mm) and applies the assembly's placements. Each
 * mesh is named by its STEP product (the assembly node holding it alone, or the mesh's own name inside a
 * node holding several) and keeps the colour the file gives it.
 */
import occtimportjs, { type OcctNode, type OcctResult } from 'occt-import-js';
import { finishConversion } from './meshes';
import { type CadConversion, CadConversionError, type CadFormat, type CadMesh } from './types';

/** The node name of each mesh index (the innermost node listing it). */
function nodeNames(root: OcctNode | undefined): Map<number, { node: string; siblings: number }> {
  const out = new Map<number, { node: string; siblings: number }>();
  const walk = (n: OcctNode) => {
    for (const i of n.meshes) out.set(i, { node: n.name, siblings: n.meshes.length });
    for (const c of n.children) walk(c);
  };
  if (root) walk(root);
  return out;
}

/** STEP entities by which an assembly refers to parts in other files. */
const EXTERNAL_REFS = /\b(DOCUMENT_FILE|EXTERNAL_SOURCE|EXTERNALLY_DEFINED_\w+)\s*\(/i;
/** The warning of a STEP assembly whose parts are all in other files. */
const EXTERNAL_WARNING = 'the assembly refers to parts in other files; no geometry';

/**
 * Reads a STEP (.stp/.step), IGES (.igs/.iges) or BREP (.brep/.brp) file's bytes.
 * @throws CadConversionError when the file is truncated (a STEP file without its END-ISO-10303-21 line) or
 *   OpenCascade cannot read it.
 */
export async function readOcct(fileName: string, format: CadFormat, bytes: Uint8Array): Promise<CadConversion> {
  const text = new TextDecoder('latin1').decode(bytes.subarray(Math.max(0, bytes.length - 4096)));
  const isStep = format === '.stp' || format === '.step';
  if (isStep && !text.includes('END-ISO-10303-21'))
    throw new CadConversionError(fileName, 'truncated STEP file: it does not end with END-ISO-10303-21');
  // OpenCascade reports parse errors on stdout; the CadConversionError below says what the user needs.
  const occt = await occtimportjs({ print: () => {}, printErr: () => {} });
  const params = { linearUnit: 'millimeter' as const };
  let result: OcctResult;
  try {
    result = isStep
      ? occt.ReadStepFile(bytes, params)
      : format === '.igs' || format === '.iges'
        ? occt.ReadIgesFile(bytes, params)
        : occt.ReadBrepFile(bytes, params);
  } catch (e) {
    throw new CadConversionError(
      fileName,
      `OpenCascade failed on the file: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, Math.min(bytes.length, 1 << 20)));
  // An assembly whose parts all live in other files may hold no shape OpenCascade can read.
  if ((!result.success || !result.meshes?.length) && isStep && EXTERNAL_REFS.test(head))
    return finishConversion(fileName, format, [], [EXTERNAL_WARNING]);
  if (!result.success || !result.meshes)
    throw new CadConversionError(
      fileName,
      `not a readable ${format.slice(1).toUpperCase()} file (OpenCascade could not read it)`,
    );
  const names = nodeNames(result.root);
  const meshes: CadMesh[] = result.meshes.map((m, i) => {
    const at = names.get(i);
    const name = at && (at.siblings === 1 || !m.name) ? at.node : m.name;
    return {
      name: name ?? '',
      positions: Float32Array.from(m.attributes.position.array),
      indices: Uint32Array.from(m.index.array),
      color: m.color ? [m.color[0], m.color[1], m.color[2]] : null,
    };
  });
  const warnings = meshes.some((m) => m.indices.length) ? [] : ['the file holds no geometry'];
  return finishConversion(fileName, format, meshes, warnings);
}
