/**
 * CAD components into a converted revision (issue "CAD components" §2; viewer.md §3 CAD COMPONENT): every
 * object of the model that names a CAD file (RequiredCadFile.objects, usually an OCX Equipment) becomes one
 * CAD COMPONENT object of the revision, named '@' + the object's name (viewer.md §3: names starting with @
 * are CAD components), with its bounding box, triangle count, source file and format as properties; a
 * file with several named parts (STEP products, IFC products, glTF nodes) gives the component one child
 * CAD COMPONENT object per part, carrying the part's name and geometry. The model gives no placement for an
 * ExternalGeometryRef (OCX 3.1), so components sit at the origin of the ship's coordinate system in the
 * file's own frame (mm after the converter's unit conversion).
 *
 * The geometry is appended to the revision's `.sc` as a batch of chunks of its own (engine/package/writer
 * appendToScenePackage): the steel chunks stay as written, only the header is rewritten. objects.json and
 * properties.json get the new rows, cad-components.json the per-component summary (GET
 * .../cad-components/all). A file that is missing or cannot be converted fails only its components: they are
 * kept without geometry, with the reason, and the conversion gets a warning. Node-only.
 */
import { open, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { RequiredCadFile } from '../../engine/ocx/cadRefs';
import {
  emptyBox,
  growBox,
  isBoxValid,
  type Box3Tuple,
  type ModelObject,
  type PartMesh,
} from '../../engine/model/types';
import { HEADER_BYTES, readBox } from '../../engine/package/format';
import { appendToScenePackage } from '../../engine/package/writer';
import { REVISION_FILES, readRevisionObjects, readRevisionProperties } from '../../engine/node/package/writeRevision';
import { cadFormatOf } from '../cad/formats';
import { CadConversionError, type CadConversion } from '../cad/types';

/** File name, inside a revision directory, of the revision's CAD components (CadComponentRecord[]). */
export const CAD_COMPONENTS_FILE = 'cad-components.json';

/** Element name of a component's part object (a child of the component). */
export const CAD_PART_ELEMENT = 'CadPart';

/** Converts one CAD file (api/cad/convertCad.ts convertCadFile). */
export type CadConverter = (filePath: string, opts?: { signal?: AbortSignal }) => Promise<CadConversion>;

/** One CAD component of a revision as cad-components.json keeps it (lengths mm). */
export interface CadComponentRecord {
  /** keelsonId: the referring object's OCX id, or '@' + file name when it has none. */
  id: string;
  /** '@' + the referring object's name (or the file name). */
  name: string;
  /** Object table index of the component. */
  index: number;
  fileName: string;
  /** Lower-case extension with the dot. */
  format: string;
  triangles: number;
  /** mm, or null without geometry. */
  bounds: Box3Tuple | null;
  /** Part names (the children), in object-table order; empty when the file is one unnamed mesh. */
  parts: string[];
  /** Why there is no geometry ('' when there is). */
  error: string;
}

/** What addCadComponents changed. */
export interface CadComponentsResult {
  components: CadComponentRecord[];
  /** One message per failed file (shown as conversion warnings). */
  warnings: string[];
  /** Objects in the revision afterwards, triangles and bytes of its `.sc`. */
  objectCount: number;
  triangles: number;
  bytes: number;
}

/** mm box → catalogue properties in m (XMIN ... ZMAX). */
function boxProperties(b: Box3Tuple | null): Record<string, number> {
  if (!b) return {};
  const m = (x: number) => x / 1000;
  return { XMIN: m(b[0]), YMIN: m(b[1]), ZMIN: m(b[2]), XMAX: m(b[3]), YMAX: m(b[4]), ZMAX: m(b[5]) };
}

function meshBox(positions: Float32Array): Box3Tuple | null {
  const b = growBox(emptyBox(), positions);
  return isBoxValid(b) ? b : null;
}

/**
 * Converts the required CAD files found in `cadDir` and adds their components to the revision in `dir`
 * (the temporary directory of a conversion: `{modelName}.sc`, objects.json, properties.json).
 * @param onFile progress after each file (done, total).
 * @throws AbortError when `signal` aborts; file system errors of the revision files pass through. A missing
 *   or unconvertible CAD file does not throw (see the module comment).
 */
export async function addCadComponents(
  dir: string,
  modelName: string,
  files: readonly RequiredCadFile[],
  cadDir: string,
  convert: CadConverter,
  signal?: AbortSignal,
  onFile: (done: number, total: number) => void = () => {},
): Promise<CadComponentsResult> {
  const revision = await readRevisionObjects(dir);
  const properties = await readRevisionProperties(dir);
  const objects = revision.objects;
  const meshes: PartMesh[] = [];
  const components: CadComponentRecord[] = [];
  const warnings: string[] = [];
  const usedIds = new Set(objects.map((o) => o.id));
  const uniqueId = (id: string) => {
    let out = id;
    for (let k = 2; usedIds.has(out); k++) out = `${id}#${k}`;
    usedIds.add(out);
    return out;
  };
  const add = (o: Omit<ModelObject, 'index'>, props: Record<string, number | string>): number => {
    const index = objects.length;
    objects.push({ ...o, index });
    properties.push({ NAME: o.name, STID: o.id, OTYPE: o.type, ...props });
    return index;
  };

  let done = 0;
  for (const file of files) {
    signal?.throwIfAborted();
    const format = path.extname(file.fileName).toLowerCase();
    let conversion: CadConversion | null = null;
    let error = '';
    const source = path.join(cadDir, file.fileName);
    const isFile = (f: string) =>
      stat(f).then(
        (st) => st.isFile(),
        () => false,
      );
    try {
      // An unsupported format says so (naming the supported ones) whether or not the file is there.
      cadFormatOf(file.fileName);
      if (await isFile(source)) conversion = await convert(source, { signal });
      else error = `${file.fileName}: the file was not uploaded`;
    } catch (e) {
      if (signal?.aborted || (e instanceof Error && e.name === 'AbortError')) throw e;
      // A CadConversionError names the file itself; other errors get the name here.
      error =
        e instanceof CadConversionError ? e.message : `${file.fileName}: ${e instanceof Error ? e.message : String(e)}`;
    }
    if (error) warnings.push(`CAD component failed: ${error}`);
    for (const w of conversion?.warnings ?? []) warnings.push(`${file.fileName}: ${w}`);
    const referrers = file.objects.length > 0 ? file.objects : [{ type: '', id: '', name: '' }];
    for (const ref of referrers) {
      const bounds = conversion?.bounds ? ([...conversion.bounds] as Box3Tuple) : null;
      const id = uniqueId(ref.id || `@${file.fileName}`);
      const name = `@${ref.name || file.fileName}`;
      const common = { guid: null, type: 'CAD COMPONENT' as const, block: null };
      const fileProps = { CADFILE: file.fileName, CADFORMAT: format };
      const root = add(
        { ...common, id, name, element: ref.type || 'Equipment', parent: -1, bounds },
        {
          ...fileProps,
          TRIS: String(conversion?.triangles ?? 0),
          DES: error || `CAD component from ${file.fileName}`,
          ...boxProperties(bounds),
        },
      );
      const parts: string[] = [];
      const cadMeshes = conversion?.meshes.filter((m) => m.indices.length > 0) ?? [];
      const split = cadMeshes.length > 1 || (cadMeshes.length === 1 && cadMeshes[0].name !== '');
      cadMeshes.forEach((m, k) => {
        let object = root;
        if (split) {
          const partName = m.name || `${file.fileName} part ${k + 1}`;
          const box = meshBox(m.positions);
          parts.push(partName);
          object = add(
            {
              ...common,
              id: uniqueId(`${id}/${k + 1}`),
              name: partName,
              element: CAD_PART_ELEMENT,
              parent: root,
              bounds: box,
            },
            { ...fileProps, TRIS: String(m.indices.length / 3), PART: partName, ...boxProperties(box) },
          );
        }
        meshes.push({ object, positions: m.positions, normals: null, indices: m.indices, edges: null });
      });
      components.push({
        id,
        name,
        index: root,
        fileName: file.fileName,
        format,
        triangles: conversion?.triangles ?? 0,
        bounds,
        parts,
        error,
      });
    }
    onFile(++done, files.length);
  }
  signal?.throwIfAborted();

  const scPath = path.join(dir, `${modelName}.sc`);
  const fh = await open(scPath, 'r+');
  let bytes = 0;
  let triangles = 0;
  try {
    const head = new Uint8Array(HEADER_BYTES);
    await fh.read(head, 0, HEADER_BYTES, 0);
    const appended = appendToScenePackage(head, meshes, objects.length);
    let at = (await fh.stat()).size;
    for (const c of appended.chunks) {
      await fh.write(c, 0, c.length, at);
      at += c.length;
    }
    await fh.write(appended.header, 0, HEADER_BYTES, 0);
    bytes = at;
    triangles = new DataView(appended.header.buffer, appended.header.byteOffset).getUint32(72, true);
    revision.info.bounds = readBox(new DataView(appended.header.buffer, appended.header.byteOffset, HEADER_BYTES), 16);
  } finally {
    await fh.close();
  }
  await writeFile(path.join(dir, REVISION_FILES.objects), JSON.stringify(revision));
  await writeFile(path.join(dir, REVISION_FILES.properties), JSON.stringify(properties));
  await writeFile(path.join(dir, CAD_COMPONENTS_FILE), JSON.stringify(components));
  return { components, warnings, objectCount: objects.length, triangles, bytes };
}

/** The CAD components of a revision directory; none when it has no cad-components.json. */
export async function readCadComponents(revisionDir: string): Promise<CadComponentRecord[]> {
  try {
    return JSON.parse(await readFile(path.join(revisionDir, CAD_COMPONENTS_FILE), 'utf8')) as CadComponentRecord[];
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
}
