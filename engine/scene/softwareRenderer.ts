/**
 * Whether a WebGL context is drawn by a software rasteriser (SwiftShader, llvmpipe, softpipe): there some
 * draw modes cost far more than on a GPU (scene/edgeStrips.ts), so the engine picks the cheaper one.
 * Reads the unmasked renderer string where the browser offers it (WEBGL_debug_renderer_info), else
 * RENDERER. False when the context is missing or names nothing (a test double, a headless stub).
 */
export function isSoftwareRenderer(gl: WebGLRenderingContext | WebGL2RenderingContext | null | undefined): boolean {
  if (!gl || typeof gl.getParameter !== 'function') return false;
  const info = gl.getExtension?.('WEBGL_debug_renderer_info') as { UNMASKED_RENDERER_WEBGL: number } | null;
  const name = gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER);
  return typeof name === 'string' && /swiftshader|llvmpipe|softpipe|software/i.test(name);
}
