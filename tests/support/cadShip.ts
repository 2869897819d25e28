/**
 * CAD inputs made in the tests (the shared samples README: STL is best made with three's exporter, so the
 * exact triangles are known): a binary STL of one box, and the generator's ship whose equipment names other
 * CAD files than the shared samples.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { BoxGeometry, Mesh, MeshBasicMaterial, Scene } from 'three';
import { STLExporter } from 'three/examples/jsm/exporters/STLExporter.js';
import { writeShipOcx } from '../../tools/generator/index';

/** A binary STL of one box of size `s` centred at `c`, mm (12 triangles). */
export function boxStl(s: [number, number, number], c: [number, number, number]): Buffer {
  const scene = new Scene();
  const mesh = new Mesh(new BoxGeometry(...s), new MeshBasicMaterial());
  mesh.position.set(...c);
  scene.add(mesh);
  scene.updateMatrixWorld(true);
  const view = new STLExporter().parse(scene, { binary: true }) as DataView;
  return Buffer.from(view.buffer, view.byteOffset, view.byteLength);
}

/**
 * Writes the generator's ship named `name` with its equipment to `file`, the CAD file names replaced by
 * `renames` (shared sample name → name used instead); returns the OCX text's bytes.
 */
export async function writeCadShip(file: string, name: string, renames: Record<string, string>): Promise<Buffer> {
  await writeShipOcx(file, { targetParts: 60, seed: 5, name, equipment: true });
  let text = await readFile(file, 'utf8');
  for (const [from, to] of Object.entries(renames)) text = text.replaceAll(from, to);
  await writeFile(file, text);
  return Buffer.from(text);
}
