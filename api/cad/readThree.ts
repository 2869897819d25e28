/**
 * glTF/GLB and OBJ to a CadConversion with three.js's loaders, run in Node: one mesh per three.js mesh with
 * its node's world transform applied, named by the node (or its nearest named parent), coloured by its
 * material. glTF is metres, Y-up: the result is millimetres, Z-up (the ship's axes: x, -z, y). OBJ has no
 * unit or axis convention: its numbers are taken as millimetres in the file's own axes. glTF images are
 * dropped before loading (api/cad/gltfStrip.ts); meshopt compression is decoded, Draco is not.
 */
// Types only from 'three' (see api/cad/meshes.ts): the loaders bring three.
import type { Color, Material, Mesh, Object3D } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { OBJLoader } from 'three/examples/jsm/loaders/OBJLoader.js';
import { MeshoptDecoder } from 'meshoptimizer';
import { preparedGltf } from './gltfStrip';
import { finishConversion, meshFromGeometry, yUpToZUp } from './meshes';
import { type CadConversion, CadConversionError, type CadFormat, type CadMesh } from './types';

/** The name of `o` or of its nearest named ancestor ('' when none has one). */
function nodeName(o: Object3D | null): string {
  for (let n = o; n; n = n.parent) if (n.name) return n.name;
  return '';
}

/** The sRGB colour of a material, or null when it has none. */
function materialColor(material: Material | Material[] | undefined): CadMesh['color'] {
  const m = (Array.isArray(material) ? material[0] : material) as (Material & { color?: Color }) | undefined;
  if (!m?.color) return null;
  // 'srgb' is three's SRGBColorSpace; three keeps material colours in linear sRGB.
  const c = m.color.getRGB({ r: 0, g: 0, b: 0 } as Color, 'srgb');
  return [c.r, c.g, c.b];
}

/** The triangle meshes under `root` by their world matrices (then turned Y-up to Z-up when `zUp`), scaled by `scale`. */
function meshesOf(root: Object3D, zUp: boolean, scale: number, colours: boolean): CadMesh[] {
  root.updateMatrixWorld(true);
  const out: CadMesh[] = [];
  root.traverse((o) => {
    const mesh = o as Mesh;
    if (!mesh.isMesh || !mesh.geometry?.getAttribute('position')) return;
    // Triangle meshes only: glTF's strip/fan modes arrive as ordinary meshes, lines and points are skipped.
    const matrix = zUp ? yUpToZUp(mesh.matrixWorld.elements) : mesh.matrixWorld.elements;
    out.push(
      meshFromGeometry(nodeName(mesh), mesh.geometry, matrix, scale, colours ? materialColor(mesh.material) : null),
    );
  });
  return out;
}

/** Node has no ProgressEvent; three's FileLoader makes one while it reads a glTF's data URIs. */
function shimProgressEvent(): void {
  const g = globalThis as { ProgressEvent?: unknown };
  if (g.ProgressEvent) return;
  g.ProgressEvent = class ProgressEvent extends Event {
    readonly lengthComputable: boolean;
    readonly loaded: number;
    readonly total: number;
    constructor(type: string, init: { lengthComputable?: boolean; loaded?: number; total?: number } = {}) {
      super(type);
      this.lengthComputable = init.lengthComputable ?? false;
      this.loaded = init.loaded ?? 0;
      this.total = init.total ?? 0;
    }
  };
}

/**
 * Reads a glTF (.gltf, JSON with embedded data URIs) or GLB file's bytes.
 * @throws CadConversionError when three's GLTFLoader cannot read it (not glTF 2.0, Draco compression) or it
 *   keeps its buffers in other files.
 */
export async function readGltf(fileName: string, format: CadFormat, bytes: Uint8Array): Promise<CadConversion> {
  shimProgressEvent();
  const loader = new GLTFLoader().setMeshoptDecoder(MeshoptDecoder);
  const data = preparedGltf(fileName, bytes, format === '.glb');
  let scene: Object3D;
  try {
    const gltf = await loader.parseAsync(data, '');
    scene = gltf.scene ?? gltf.scenes[0];
  } catch (e) {
    throw new CadConversionError(fileName, `not a readable glTF file: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!scene) return finishConversion(fileName, format, [], ['the glTF file has no scene']);
  const meshes = meshesOf(scene, true, 1000, true);
  return finishConversion(fileName, format, meshes, meshes.length ? [] : ['the glTF file holds no triangle meshes']);
}

/**
 * Reads an OBJ file's bytes: one mesh per object/group, named by it; no colours (material libraries are
 * other files).
 * @throws CadConversionError when the text holds no vertices or faces.
 */
export function readObj(fileName: string, bytes: Uint8Array): CadConversion {
  const text = new TextDecoder().decode(bytes);
  if (!/^\s*v\s/m.test(text)) throw new CadConversionError(fileName, 'not an OBJ file: no vertices ("v" lines)');
  let group: Object3D;
  try {
    group = new OBJLoader().parse(text);
  } catch (e) {
    throw new CadConversionError(fileName, `not a readable OBJ file: ${e instanceof Error ? e.message : String(e)}`);
  }
  const meshes = meshesOf(group, false, 1, false);
  return finishConversion(fileName, '.obj', meshes, meshes.length ? [] : ['the OBJ file holds no faces']);
}
