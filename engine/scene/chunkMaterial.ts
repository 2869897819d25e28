/**
 * Materials of the chunk batches: three's MeshLambertMaterial and LineBasicMaterial extended through
 * onBeforeCompile so that each vertex reads its object's state (ObjectStateTable textures): the vertex's
 * global object index is read at `gl_VertexID` / block size from the chunk's block texture
 * (scene/vertexBlocks.ts: no per-vertex attribute besides the position), then flags and colour/opacity are fetched: hidden objects collapse out of the clip volume
 * (no geometry rebuild), selected and hovered objects are tinted, every object takes its colour and
 * opacity from the colour table. The lookup runs once per vertex and reaches the fragments as `flat`
 * varyings (every vertex of a triangle or line belongs to the same object, so nothing is interpolated).
 *
 * One material per chunk (its own block texture uniforms); all share one GPU program (same cache key), and
 * the state uniforms are shared objects, so a state change is one texture upload for the whole model.
 *
 * Shading is flat: the package carries no normals (format version 2); three's `flatShading` derives the
 * face normal from screen-space derivatives, turned towards the eye for two-sided thin plates.
 * Opacity: the opaque pass drops (in the vertex shader) the triangles of objects with opacity < 1; a
 * second, transparent pass (drawn only for chunks holding a translucent object) draws just those, after
 * the opaque ones and without depth writes.
 * Sides: plates and members are closed solids with outward normals, so surfaces are single-sided (back
 * faces culled: half the fill work); while clipping planes cut the solids open both sides are drawn.
 */
import {
  AlwaysStencilFunc,
  Color,
  DoubleSide,
  FrontSide,
  InvertStencilOp,
  LineBasicMaterial,
  MeshBasicMaterial,
  MeshLambertMaterial,
  type IUniform,
  type Plane,
  type Texture,
} from 'three';
import { TEXTURE_ROW } from './ObjectStateTable';

/** Highlight colours (sRGB): selection rgb(0, 151, 196) and a lighter hover tint. */
export const SELECTION_COLOR = 'rgb(0, 151, 196)';
export const HOVER_COLOR = 'rgb(120, 205, 235)';
/** Edge colour (dark grey). */
export const EDGE_COLOR = 'rgb(64, 64, 64)';

/** Uniforms shared by every chunk material; `value`s are swapped when a new model's table arrives. */
export interface ObjectStateUniforms {
  uObjectFlags: IUniform<Texture | null>;
  uObjectColors: IUniform<Texture | null>;
  uSelectionColor: IUniform<Color>;
  uHoverColor: IUniform<Color>;
  /** Opacity factor of the whole model (1 normally; reduced while the clipping box is visible, viewer.md §4). */
  uModelOpacity: IUniform<number>;
}

/** Creates the shared uniforms (textures unset until a model's state table exists). */
export function createStateUniforms(): ObjectStateUniforms {
  return {
    uObjectFlags: { value: null },
    uObjectColors: { value: null },
    uSelectionColor: { value: new Color(SELECTION_COLOR) },
    uHoverColor: { value: new Color(HOVER_COLOR) },
    uModelOpacity: { value: 1 },
  };
}

const VERTEX_PARS = /* glsl */ `
uniform sampler2D uObjectFlags;
uniform sampler2D uObjectColors;
uniform highp usampler2D uVertexBlocks;
uniform int uVertexBlockShift;
uniform int uVertexBlockWidth;
uniform float uVertexBlockBase;
uniform float uModelOpacity;
flat varying float vObjectFlags;
flat varying vec4 vObjectColor;
ivec2 keelsonTexel(float index) {
  int i = int(index + 0.5);
  return ivec2(i % ${TEXTURE_ROW}, i / ${TEXTURE_ROW});
}
`;

/** Reads flags/colour and hides the vertex of a hidden object by moving it outside the clip volume. */
const VERTEX_STATE = /* glsl */ `
  int kBlock = gl_VertexID >> uVertexBlockShift;
  float objectIndex = uVertexBlockBase + float(texelFetch(uVertexBlocks, ivec2(kBlock % uVertexBlockWidth, kBlock / uVertexBlockWidth), 0).r);
  ivec2 kTexel = keelsonTexel(objectIndex);
  vObjectFlags = floor(texelFetch(uObjectFlags, kTexel, 0).r * 255.0 + 0.5);
  vObjectColor = texelFetch(uObjectColors, kTexel, 0);
  if (mod(vObjectFlags, 2.0) >= 1.0) gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
  #ifdef KEELSON_SURFACE
    // Opacity is per object, so each pass drops the other pass's objects here, before rasterising.
    float kAlpha = vObjectColor.a * uModelOpacity;
    #ifdef KEELSON_TRANSLUCENT_PASS
      if (kAlpha >= 0.999) gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
    #else
      if (kAlpha < 0.999) gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
    #endif
  #endif
`;

const FRAGMENT_PARS = /* glsl */ `
uniform vec3 uSelectionColor;
uniform vec3 uHoverColor;
uniform float uModelOpacity;
flat varying float vObjectFlags;
flat varying vec4 vObjectColor;
`;

/** Base colour from the table, then selection (bit 2) and hover (bit 4) tints. */
const FRAGMENT_COLOR = /* glsl */ `
  {
    bool kSelected = mod(floor(vObjectFlags / 2.0), 2.0) >= 1.0;
    bool kHover = mod(floor(vObjectFlags / 4.0), 2.0) >= 1.0;
    vec3 kBase = diffuseColor.rgb * vObjectColor.rgb;
    if (kSelected) kBase = uSelectionColor;
    if (kHover) kBase = mix(kBase, uHoverColor, kSelected ? 0.35 : 0.6);
    diffuseColor.rgb = kBase;
    diffuseColor.a = vObjectColor.a * uModelOpacity;
  }
`;

/** Edges of hidden objects vanish too; edges of selected objects take a darker selection colour. */
const FRAGMENT_EDGE = /* glsl */ `
  if (mod(floor(vObjectFlags / 2.0), 2.0) >= 1.0) diffuseColor.rgb = uSelectionColor * 0.45;
`;

/**
 * Two-sided lighting that ignores triangle winding: plates are thin sheets whose stored normal may face
 * away from the viewer, so the normal is turned towards the eye (three's DoubleSide flips by winding).
 */
const FRAGMENT_NORMAL = /* glsl */ `
  {
    vec3 kEye = isOrthographic ? vec3(0.0, 0.0, 1.0) : normalize(vViewPosition);
    normal = normalize(cross(dFdx(vViewPosition), dFdy(vViewPosition)));
    if (dot(normal, kEye) < 0.0) normal = -normal;
  }
`;

/**
 * Per-chunk uniforms (scene/vertexBlocks.ts): the chunk's block → object texture (R16UI or R32UI, object
 * index minus `uVertexBlockBase`), its width in texels and log2 of its block size.
 */
export interface ChunkBlockUniforms {
  uVertexBlocks: IUniform<Texture | null>;
  uVertexBlockShift: IUniform<number>;
  uVertexBlockWidth: IUniform<number>;
  uVertexBlockBase: IUniform<number>;
}

function inject(
  shader: { uniforms: Record<string, IUniform>; vertexShader: string; fragmentShader: string },
  uniforms: ObjectStateUniforms,
  runs: ChunkBlockUniforms,
  fragment: string,
  surface: boolean,
): void {
  Object.assign(shader.uniforms, uniforms, runs);
  let vs = shader.vertexShader.replace('#include <common>', `#include <common>\n${VERTEX_PARS}`);
  vs = vs.replace('#include <project_vertex>', `#include <project_vertex>\n${VERTEX_STATE}`);
  let fs = shader.fragmentShader
    .replace('#include <common>', `#include <common>\n${FRAGMENT_PARS}`)
    .replace('#include <color_fragment>', `#include <color_fragment>\n${fragment}`);
  if (surface)
    fs = fs.replace('#include <normal_fragment_begin>', `#include <normal_fragment_begin>\n${FRAGMENT_NORMAL}`);
  if (
    !vs.includes('keelsonTexel(objectIndex)') ||
    !fs.includes('vObjectFlags;') ||
    (surface && !fs.includes('dFdx(vViewPosition)'))
  ) {
    throw new Error('chunkMaterial: three.js shader chunks changed; object state injection failed');
  }
  shader.vertexShader = vs;
  shader.fragmentShader = fs;
}

/**
 * Surface material of one chunk: front-sided flat-shaded Lambert (ChunkBatch switches to both sides while
 * clipping), polygon offset so edges draw on top. `translucent` makes the second pass material
 * (blending, no depth writes) that draws only objects with opacity < 1.
 */
export function createSurfaceMaterial(
  uniforms: ObjectStateUniforms,
  runs: ChunkBlockUniforms,
  translucent = false,
): MeshLambertMaterial {
  const m = new MeshLambertMaterial({
    color: 0xffffff,
    side: FrontSide,
    flatShading: true,
    polygonOffset: true,
    polygonOffsetFactor: 1,
    polygonOffsetUnits: 1,
    transparent: translucent,
    depthWrite: !translucent,
  });
  m.defines = translucent ? { KEELSON_SURFACE: 1, KEELSON_TRANSLUCENT_PASS: 1 } : { KEELSON_SURFACE: 1 };
  m.onBeforeCompile = (shader) => inject(shader, uniforms, runs, FRAGMENT_COLOR, true);
  m.customProgramCacheKey = () => (translucent ? 'keelson-chunk-surface-v7-translucent' : 'keelson-chunk-surface-v7');
  return m;
}

/** Edge material of one chunk (dark grey), hiding with its object. */
export function createEdgeMaterial(uniforms: ObjectStateUniforms, runs: ChunkBlockUniforms): LineBasicMaterial {
  const m = new LineBasicMaterial({ color: new Color(EDGE_COLOR) });
  m.onBeforeCompile = (shader) => inject(shader, uniforms, runs, FRAGMENT_EDGE, false);
  m.customProgramCacheKey = () => 'keelson-chunk-edge-v5';
  return m;
}

/**
 * Stencil material of clipping caps (the three.js "clipping stencil" technique) in its
 * parity form: draws no colour and no depth; every face (either side) that survives `planes` inverts the
 * stencil, so after the pass a pixel's stencil is non-zero exactly where the ray meets the cut plane
 * inside a closed solid (an odd number of surfaces lie beyond the plane along the ray). Parity does not
 * depend on triangle winding, which thin plate solids do not guarantee. Hidden objects collapse as in the
 * surface pass, and so do objects flagged noCap (compartment spaces: not steel).
 */
export function createStencilMaterial(
  uniforms: ObjectStateUniforms,
  runs: ChunkBlockUniforms,
  planes: Plane[],
): MeshBasicMaterial {
  const op = InvertStencilOp;
  const m = new MeshBasicMaterial({
    side: DoubleSide,
    colorWrite: false,
    depthWrite: false,
    depthTest: false,
    stencilWrite: true,
    stencilFunc: AlwaysStencilFunc,
    stencilFail: op,
    stencilZFail: op,
    stencilZPass: op,
    clippingPlanes: planes,
  });
  m.onBeforeCompile = (shader) => {
    Object.assign(shader.uniforms, uniforms, runs);
    const vs = shader.vertexShader
      .replace('#include <common>', `#include <common>\n${VERTEX_PARS}`)
      .replace(
        '#include <project_vertex>',
        `#include <project_vertex>\n${VERTEX_STATE}\n  if (mod(floor(vObjectFlags / 8.0), 2.0) >= 1.0) gl_Position = vec4(2.0, 2.0, 2.0, 1.0);`,
      );
    if (!vs.includes('keelsonTexel(objectIndex)'))
      throw new Error('chunkMaterial: three.js shader chunks changed; stencil injection failed');
    shader.vertexShader = vs;
    shader.fragmentShader = shader.fragmentShader.replace(
      '#include <common>',
      '#include <common>\nflat varying float vObjectFlags;\nflat varying vec4 vObjectColor;',
    );
  };
  m.customProgramCacheKey = () => 'keelson-chunk-stencil-v4';
  return m;
}
