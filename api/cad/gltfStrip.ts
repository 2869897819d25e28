/**
 * Prepares a glTF document for three's GLTFLoader on the server: its images are dropped (Node has no image
 * decoder and a component is drawn in its colours), and a buffer outside the file is refused — the server
 * must not fetch what an uploaded file points at, and an upload is one file.
 */
import { CadConversionError } from './types';

/** glTF JSON, the parts looked at here. */
interface GltfJson {
  buffers?: { uri?: string }[];
  images?: unknown[];
  textures?: unknown[];
  samplers?: unknown[];
  materials?: Record<string, unknown>[];
  extensionsUsed?: string[];
  extensionsRequired?: string[];
}

/** Extensions that only concern textures (dropped with them). */
const TEXTURE_EXTENSIONS = /^(EXT_texture_|KHR_texture_|MSFT_texture_)/;

/** Deletes every `…Texture` reference (baseColorTexture, normalTexture, clearcoatTexture, ...) under `o`. */
function dropTextureRefs(o: unknown): void {
  if (!o || typeof o !== 'object') return;
  for (const [k, v] of Object.entries(o)) {
    if (/Texture$/.test(k)) delete (o as Record<string, unknown>)[k];
    else dropTextureRefs(v);
  }
}

/**
 * Rewrites `json` in place as described above.
 * @throws CadConversionError naming the first buffer URI that is not a data: URI.
 */
export function stripGltf(fileName: string, json: GltfJson): void {
  for (const b of json.buffers ?? [])
    if (b.uri !== undefined && !b.uri.startsWith('data:'))
      throw new CadConversionError(
        fileName,
        `the glTF file refers to '${b.uri.slice(0, 200)}' for its data: upload a .glb, or a .gltf with embedded (data URI) buffers`,
      );
  delete json.images;
  delete json.textures;
  delete json.samplers;
  for (const m of json.materials ?? []) dropTextureRefs(m);
  if (json.extensionsUsed) json.extensionsUsed = json.extensionsUsed.filter((e) => !TEXTURE_EXTENSIONS.test(e));
  if (json.extensionsRequired)
    json.extensionsRequired = json.extensionsRequired.filter((e) => !TEXTURE_EXTENSIONS.test(e));
}

const GLB_MAGIC = 0x46546c67;
const CHUNK_JSON = 0x4e4f534a;

/**
 * The data to hand GLTFLoader for a .gltf (JSON text) or .glb file: the document stripped by stripGltf (a GLB
 * rebuilt with its new JSON chunk and its binary chunk as is).
 * @throws CadConversionError for a GLB whose header or JSON chunk is malformed, or text that is not JSON.
 */
export function preparedGltf(fileName: string, bytes: Uint8Array, binary: boolean): string | ArrayBuffer {
  const bad = (why: string) => new CadConversionError(fileName, `not a readable glTF file: ${why}`);
  const parse = (text: string): GltfJson => {
    try {
      const json = JSON.parse(text) as unknown;
      if (!json || typeof json !== 'object' || Array.isArray(json)) throw new Error('not an object');
      return json as GltfJson;
    } catch {
      throw bad('its JSON cannot be parsed');
    }
  };
  if (!binary) {
    const json = parse(new TextDecoder().decode(bytes));
    stripGltf(fileName, json);
    return JSON.stringify(json);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 20 || view.getUint32(0, true) !== GLB_MAGIC) throw bad('no GLB header');
  const jsonLength = view.getUint32(12, true);
  if (view.getUint32(16, true) !== CHUNK_JSON || 20 + jsonLength > bytes.length) throw bad('malformed JSON chunk');
  const json = parse(new TextDecoder().decode(bytes.subarray(20, 20 + jsonLength)));
  stripGltf(fileName, json);
  const text = new TextEncoder().encode(JSON.stringify(json));
  const padded = (text.length + 3) & ~3;
  const rest = bytes.subarray(20 + jsonLength);
  const out = new Uint8Array(20 + padded + rest.length);
  const outView = new DataView(out.buffer);
  outView.setUint32(0, GLB_MAGIC, true);
  outView.setUint32(4, view.getUint32(4, true), true);
  outView.setUint32(8, out.length, true);
  outView.setUint32(12, padded, true);
  outView.setUint32(16, CHUNK_JSON, true);
  out.set(text, 20);
  out.fill(0x20, 20 + text.length, 20 + padded);
  out.set(rest, 20 + padded);
  return out.buffer;
}
