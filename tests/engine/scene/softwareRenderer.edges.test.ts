/**
 * The engine keeps feature edges as index pairs on a software rasteriser (engine/scene/softwareRenderer.ts,
 * edgeStrips.ts): the renderer is recognised from the unmasked renderer string, else RENDERER, and the
 * choice reaches the edge writer of chunks built afterwards.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { EdgeWriter, setEdgeStrips } from '../../../engine/scene/edgeStrips';
import { isSoftwareRenderer } from '../../../engine/scene/softwareRenderer';

const RENDERER = 0x1f01;
const UNMASKED = 0x9246;

/** A context answering getParameter from `names`, with or without the debug-info extension. */
function context(names: Record<number, string>, debugInfo: boolean): WebGL2RenderingContext {
  return {
    RENDERER,
    getParameter: (p: number) => names[p] ?? null,
    getExtension: (n: string) =>
      debugInfo && n === 'WEBGL_debug_renderer_info' ? { UNMASKED_RENDERER_WEBGL: UNMASKED } : null,
  } as unknown as WebGL2RenderingContext;
}

afterEach(() => setEdgeStrips(true));

describe('software renderer', () => {
  it('is recognised from the unmasked renderer string, else from RENDERER', () => {
    const swiftShader = 'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)';
    expect(isSoftwareRenderer(context({ [UNMASKED]: swiftShader, [RENDERER]: 'WebKit WebGL' }, true))).toBe(true);
    expect(isSoftwareRenderer(context({ [UNMASKED]: 'ANGLE (NVIDIA, GeForce RTX 3060)', [RENDERER]: 'x' }, true))).toBe(
      false,
    );
    expect(isSoftwareRenderer(context({ [RENDERER]: 'llvmpipe (LLVM 15.0.6, 256 bits)' }, false))).toBe(true);
    expect(isSoftwareRenderer(context({ [RENDERER]: 'Mali-G78' }, false))).toBe(false);
    expect(isSoftwareRenderer(null)).toBe(false);
    expect(isSoftwareRenderer({} as WebGL2RenderingContext)).toBe(false);
  });

  it('turns strips off for the edge writers made afterwards', () => {
    setEdgeStrips(false);
    const pairs = new EdgeWriter(10);
    expect(pairs.strips).toBe(false);
    const out = new Uint16Array(pairs.bound(3));
    expect([...out.subarray(0, pairs.write([0, 1, 1, 2, 2, 0], 0, 6, out, 0))]).toEqual([0, 1, 1, 2, 2, 0]);
    setEdgeStrips(true);
    expect(new EdgeWriter(10).strips).toBe(true);
  });
});
