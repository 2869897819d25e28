/**
 * IFC to a CadConversion with web-ifc (MPL-2.0): meshes are streamed product by product and each web-ifc
 * geometry is deleted once copied. One mesh per product and colour, named by the product's Name (its IFC
 * type when it has none) and carrying its GlobalId. web-ifc answers metres in a Y-up frame; the result is millimetres in the file's
 * own Z-up frame (IFC's, as the ship's).
 */
import { IfcAPI, LogLevel } from 'web-ifc';
import { finishConversion } from './meshes';
import { type CadConversion, CadConversionError, type CadMesh } from './types';

/** The IFC schemas web-ifc reads, as written in FILE_SCHEMA. */
const IFC_SCHEMA = /FILE_SCHEMA\s*\(\s*\(\s*'(IFC2X3|IFC4|IFC4X1|IFC4X2|IFC4X3[A-Z0-9_]*)'\s*\)\s*\)\s*;/i;

/** Checks the STEP header of an IFC file; throws a CadConversionError saying what is wrong. */
function checkHeader(fileName: string, bytes: Uint8Array): void {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 8192));
  if (!/^\s*ISO-10303-21\s*;/.test(head))
    throw new CadConversionError(fileName, 'broken IFC header: the file does not start with ISO-10303-21;');
  if (!/\bHEADER\s*;[\s\S]*\bENDSEC\s*;/.test(head))
    throw new CadConversionError(fileName, 'broken IFC header: no HEADER section ending with ENDSEC;');
  if (!IFC_SCHEMA.test(head))
    throw new CadConversionError(fileName, 'broken IFC header: no FILE_SCHEMA((...)); naming IFC2X3, IFC4 or IFC4X3');
}

/** Accumulates the triangles of one product and colour. */
interface Part {
  name: string;
  globalId: string | undefined;
  color: [number, number, number];
  positions: number[];
  indices: number[];
}

/**
 * Reads an IFC file's bytes (IFC2X3, IFC4, IFC4X3 as web-ifc reads them).
 * @throws CadConversionError for a broken header or a file web-ifc cannot open.
 */
export async function readIfc(fileName: string, bytes: Uint8Array): Promise<CadConversion> {
  checkHeader(fileName, bytes);
  const api = new IfcAPI();
  await api.Init(undefined, true);
  api.SetLogLevel(LogLevel.LOG_LEVEL_OFF);
  let model: number;
  try {
    model = api.OpenModel(bytes);
  } catch (e) {
    throw new CadConversionError(
      fileName,
      `web-ifc could not open the file: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  if (model < 0) throw new CadConversionError(fileName, 'web-ifc could not open the file');
  const parts: Part[] = [];
  try {
    api.StreamAllMeshes(model, (flat) => {
      const line = api.GetLine(model, flat.expressID) as {
        Name?: { value?: string };
        GlobalId?: { value?: string };
        constructor: { name: string };
      };
      const name = line?.Name?.value ?? line?.constructor.name ?? '';
      const globalId = line?.GlobalId?.value;
      const byColour = new Map<string, Part>();
      const n = flat.geometries.size();
      for (let g = 0; g < n; g++) {
        const placed = flat.geometries.get(g);
        const c = placed.color;
        const key = `${c.x},${c.y},${c.z}`;
        let part = byColour.get(key);
        if (!part) {
          part = { name, globalId, color: [c.x, c.y, c.z], positions: [], indices: [] };
          byColour.set(key, part);
          parts.push(part);
        }
        const geometry = api.GetGeometry(model, placed.geometryExpressID);
        try {
          const v = api.GetVertexArray(geometry.GetVertexData(), geometry.GetVertexDataSize());
          const ix = api.GetIndexArray(geometry.GetIndexData(), geometry.GetIndexDataSize());
          const t = placed.flatTransformation;
          const base = part.positions.length / 3;
          // Vertices are x, y, z, nx, ny, nz; the column-major transform places them in web-ifc's Y-up metres.
          for (let i = 0; i + 5 < v.length; i += 6) {
            const x = v[i];
            const y = v[i + 1];
            const z = v[i + 2];
            const px = t[0] * x + t[4] * y + t[8] * z + t[12];
            const py = t[1] * x + t[5] * y + t[9] * z + t[13];
            const pz = t[2] * x + t[6] * y + t[10] * z + t[14];
            // Back to IFC's Z-up (web-ifc turned it with y' = z, z' = -y), metres to mm.
            part.positions.push(px * 1000, -pz * 1000, py * 1000);
          }
          for (let i = 0; i < ix.length; i++) part.indices.push(base + ix[i]);
        } finally {
          geometry.delete();
        }
      }
    });
  } catch (e) {
    throw new CadConversionError(fileName, `web-ifc failed on the file: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    api.CloseModel(model);
    api.Dispose();
  }
  const meshes: CadMesh[] = parts.map((p) => ({
    name: p.name,
    positions: Float32Array.from(p.positions),
    indices: Uint32Array.from(p.indices),
    color: p.color,
    ...(p.globalId ? { sourceId: p.globalId } : {}),
  }));
  return finishConversion(fileName, '.ifc', meshes, meshes.length ? [] : ['the IFC file holds no product geometry']);
}
