/**
 * STL (binary and ASCII) to a CadConversion with three.js's STLLoader. STL has no unit: its numbers are
 * taken as millimetres. A binary file must hold exactly the triangles its header counts (84 + 50 × n
 * bytes, a few trailing bytes tolerated), so a short file whose header claims billions of triangles is
 * refused before anything is allocated.
 */
import { STLLoader } from 'three/examples/jsm/loaders/STLLoader.js';
import { finishConversion, meshFromGeometry } from './meshes';
import { CadConversionError, type CadConversion } from './types';

/** Trailing bytes after a binary STL's last triangle that some writers add and readers ignore. */
const STL_SLACK_BYTES = 1024;

/** How the bytes of an STL file are to be read. */
function stlKind(fileName: string, bytes: Uint8Array): 'binary' | 'ascii' {
  const head = new TextDecoder().decode(bytes.subarray(0, Math.min(bytes.length, 512)));
  const looksAscii = /^\s*solid\b/.test(head) && !head.includes('\0');
  if (bytes.length >= 84) {
    const count = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(80, true);
    const need = 84 + 50 * count;
    if (bytes.length >= need && bytes.length - need <= STL_SLACK_BYTES && !(looksAscii && count === 0)) return 'binary';
    if (!looksAscii)
      throw new CadConversionError(
        fileName,
        `binary STL header counts ${count} triangles (${need} bytes) but the file has ${bytes.length} bytes: truncated or not an STL file`,
      );
  }
  if (looksAscii) return 'ascii';
  throw new CadConversionError(fileName, `too short (${bytes.length} bytes) to be an STL file`);
}

/**
 * Reads an STL file's bytes.
 * @returns one mesh named by the ASCII solid's name ('' for binary), no colour.
 * @throws CadConversionError for a binary file whose size does not match its triangle count, or text that is
 *   not an STL solid.
 */
export function readStl(fileName: string, bytes: Uint8Array): CadConversion {
  const kind = stlKind(fileName, bytes);
  const head = new TextDecoder().decode(bytes.subarray(0, 4096));
  if (kind === 'ascii' && !/\bfacet\b/.test(head)) {
    if (!/\bendsolid\b/.test(head)) throw new CadConversionError(fileName, 'not an STL file: no facets after "solid"');
    return finishConversion(fileName, '.stl', [], ['the STL file holds no triangles']);
  }
  // STLLoader decides binary/ASCII itself by the same size rule; give it an exact binary copy so it agrees.
  const count = kind === 'binary' ? new DataView(bytes.buffer, bytes.byteOffset).getUint32(80, true) : 0;
  const end = kind === 'binary' ? 84 + 50 * count : bytes.length;
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + end) as ArrayBuffer;
  const geometry = new STLLoader().parse(buffer);
  const name = kind === 'ascii' ? (/^\s*solid[ \t]*([^\r\n]*)/.exec(head)?.[1].trim() ?? '') : '';
  const mesh = meshFromGeometry(name, geometry, null, 1, null);
  const warnings = mesh.indices.length ? [] : ['the STL file holds no triangles'];
  return finishConversion(fileName, '.stl', [mesh], warnings);
}
