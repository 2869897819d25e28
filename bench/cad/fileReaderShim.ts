/**
 * A FileReader for Node, enough for three's GLTFExporter (readAsArrayBuffer, readAsDataURL, onloadend), so
 * the CAD bench and tests can make glTF/GLB files whose triangles are known. Installed only where none exists.
 */
export function shimFileReader(): void {
  const g = globalThis as { FileReader?: unknown };
  g.FileReader ??= class {
    result: ArrayBuffer | string | null = null;
    onloadend: (() => void) | null = null;
    readAsArrayBuffer(b: Blob) {
      void b.arrayBuffer().then((a) => {
        this.result = a;
        this.onloadend?.();
      });
    }
    readAsDataURL(b: Blob) {
      void b.arrayBuffer().then((a) => {
        this.result = `data:${b.type || 'application/octet-stream'};base64,${Buffer.from(a).toString('base64')}`;
        this.onloadend?.();
      });
    }
  };
}
