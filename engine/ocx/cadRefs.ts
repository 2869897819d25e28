/**
 * The CAD files an OCX model names (issue "CAD components" §1; application.md §4 "CAD upload dialog"):
 * OCX 3.1 `Equipments/Equipment` elements and structural parts (Plate, Stiffener, Bracket, Member ...)
 * may carry an `ExternalGeometryRef` whose `externalRef` is a file name and `geometryFormat` its format
 * (.stp, .igs, .jt). The schema gives the reference no placement, so none is collected.
 *
 * A separate streaming pass over the document with the reader's tokenizer (only run when the "CAD
 * components" conversion option is on): it keeps a stack of the open elements' id and name and records the
 * parent of every ExternalGeometryRef. Bounded: at most MAX_CAD_REFS references; a reference whose file name
 * is empty, too long or holds a path separator is skipped and counted.
 */
import { abortError } from './reader';
import { XmlScanner } from './XmlScanner';

/** Most CAD file references collected from one model (the rest are counted in `dropped`). */
export const MAX_CAD_REFS = 10_000;
/** Longest accepted CAD file name (characters). */
export const MAX_CAD_FILE_NAME = 255;

/** One ExternalGeometryRef: the file it names and the object that refers to it. */
export interface CadFileRef {
  /** The file name (`externalRef`), no directory part. */
  fileName: string;
  /** `geometryFormat` ('.stp', '.igs', '.jt', ...), '' when absent. */
  format: string;
  /** Local name of the referring element: 'Equipment', 'Plate', 'Stiffener' ... */
  objectType: string;
  /** `id` of the referring element ('' when it has none). */
  objectId: string;
  /** `name` of the referring element ('' when it has none). */
  objectName: string;
}

/** What collectCadRefs found. */
export interface CadRefScan {
  refs: CadFileRef[];
  /** References skipped: over MAX_CAD_REFS, or with an invalid file name. */
  dropped: number;
}

/**
 * True for a usable CAD file name: non-empty, at most MAX_CAD_FILE_NAME characters, no path separator,
 * no NUL, not '.' or '..'.
 */
export function isValidCadFileName(name: string): boolean {
  return (
    name.length > 0 &&
    name.length <= MAX_CAD_FILE_NAME &&
    !/[\\/\0]/.test(name) &&
    name !== '.' &&
    name !== '..' &&
    name.trim() === name
  );
}

interface Open {
  local: string;
  id: string;
  name: string;
}

/**
 * Collects the ExternalGeometryRef elements of an OCX document from UTF-8 byte or text chunks, each with
 * the element that holds it, in document order.
 * @throws OcxImportError when the document is malformed; an Error named 'AbortError' when `signal` aborts.
 */
export async function collectCadRefs(
  chunks: AsyncIterable<Uint8Array | string>,
  signal?: AbortSignal,
): Promise<CadRefScan> {
  const refs: CadFileRef[] = [];
  let dropped = 0;
  const stack: Open[] = [];
  const scanner = new XmlScanner({
    start: (tag) => {
      const a = tag.attributes();
      if (tag.local === 'ExternalGeometryRef') {
        const parent = stack[stack.length - 1];
        const fileName = a.externalRef ?? '';
        if (refs.length >= MAX_CAD_REFS || !isValidCadFileName(fileName)) dropped++;
        else
          refs.push({
            fileName,
            format: a.geometryFormat ?? '',
            objectType: parent?.local ?? '',
            objectId: parent?.id ?? '',
            objectName: parent?.name ?? '',
          });
      }
      stack.push({ local: tag.local, id: a.id ?? '', name: a.name ?? '' });
      return false;
    },
    end: () => {
      stack.pop();
    },
    text: () => undefined,
    doctype: () => undefined,
  });
  const decoder = new TextDecoder('utf-8');
  for await (const c of chunks) {
    if (signal?.aborted) throw abortError();
    scanner.write(typeof c === 'string' ? c : decoder.decode(c, { stream: true }));
  }
  const tail = decoder.decode();
  if (tail) scanner.write(tail);
  scanner.end();
  scanner.close();
  return { refs, dropped };
}

/** One required CAD file with every object that refers to it. */
export interface RequiredCadFile {
  fileName: string;
  format: string;
  objects: { type: string; id: string; name: string }[];
}

/** The distinct file names of `refs` (first-seen order), each with its referring objects. */
export function requiredCadFiles(refs: readonly CadFileRef[]): RequiredCadFile[] {
  const byName = new Map<string, RequiredCadFile>();
  for (const r of refs) {
    let f = byName.get(r.fileName);
    if (!f) {
      f = { fileName: r.fileName, format: r.format, objects: [] };
      byName.set(r.fileName, f);
    }
    f.objects.push({ type: r.objectType, id: r.objectId, name: r.objectName });
  }
  return [...byName.values()];
}
