/**
 * Materials of the chunk batches: three's MeshLambertMaterial and LineBasicMaterial extended through
 * onBeforeCompile so that each vertex reads its object's state (ObjectStateTable textures) by the
 * `objectIndex` attribute: hidden objects collapse out of the clip volume (no geometry rebuild), selected
 * and hovered objects are tinted, and every object takes its colour from the colour table.
 *
 * Quantised positions: the Uint16 position attribute is uploaded unchanged and the mesh carries
 * scale = (max − min) / 65535 and position = min (see ChunkBatch.ts). Because the package's normals are
 * world normals, the vertex shader pre-multiplies them by that per-axis scale, which cancels the inverse
 * scale that three's normalMatrix applies (normalMatrix = (V·M)^-T, M = T·S ⇒ (V·M)^-T·(S·n) = V^-T·n).
 */
import { Color, DoubleSide, LineBasicMaterial, MeshLambertMaterial, type IUniform, type Texture } from 'three';
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
}

/** Creates the shared uniforms (textures unset until a model's state table exists). */
export function createStateUniforms(): ObjectStateUniforms {
  return {
    uObjectFlags: { value: null },
    uObjectColors: { value: null },
    uSelectionColor: { value: new Color(SELECTION_COLOR) },
    uHoverColor: { value: new Color(HOVER_COLOR) },
  };
}

const VERTEX_PARS = /* glsl */ `
attribute float objectIndex;
uniform sampler2D uObjectFlags;
uniform sampler2D uObjectColors;
varying float vObjectFlags;
varying vec3 vObjectColor;
ivec2 keelsonTexel(float index) {
  int i = int(index + 0.5);
  return ivec2(i % ${TEXTURE_ROW}, i / ${TEXTURE_ROW});
}
`;

/** Reads flags/colour and hides the vertex of a hidden object by moving it outside the clip volume. */
const VERTEX_STATE = /* glsl */ `
  ivec2 kTexel = keelsonTexel(objectIndex);
  vObjectFlags = floor(texelFetch(uObjectFlags, kTexel, 0).r * 255.0 + 0.5);
  vObjectColor = texelFetch(uObjectColors, kTexel, 0).rgb;
  if (mod(vObjectFlags, 2.0) >= 1.0) gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
`;

const FRAGMENT_PARS = /* glsl */ `
uniform vec3 uSelectionColor;
uniform vec3 uHoverColor;
varying float vObjectFlags;
varying vec3 vObjectColor;
`;

/** Base colour from the table, then selection (bit 2) and hover (bit 4) tints. */
const FRAGMENT_COLOR = /* glsl */ `
  {
    bool kSelected = mod(floor(vObjectFlags / 2.0), 2.0) >= 1.0;
    bool kHover = mod(floor(vObjectFlags / 4.0), 2.0) >= 1.0;
    vec3 kBase = diffuseColor.rgb * vObjectColor;
    if (kSelected) kBase = uSelectionColor;
    if (kHover) kBase = mix(kBase, uHoverColor, kSelected ? 0.35 : 0.6);
    diffuseColor.rgb = kBase;
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
    normal = normalize(vNormal);
    if (dot(normal, kEye) < 0.0) normal = -normal;
  }
`;

function inject(
  shader: { uniforms: Record<string, IUniform>; vertexShader: string; fragmentShader: string },
  uniforms: ObjectStateUniforms,
  fragment: string,
  normals: boolean,
): void {
  Object.assign(shader.uniforms, uniforms);
  let vs = shader.vertexShader.replace('#include <common>', `#include <common>\n${VERTEX_PARS}`);
  if (normals) {
    vs = vs.replace(
      '#include <beginnormal_vertex>',
      `#include <beginnormal_vertex>
  objectNormal *= vec3(length(modelMatrix[0].xyz), length(modelMatrix[1].xyz), length(modelMatrix[2].xyz));`,
    );
  }
  vs = vs.replace('#include <project_vertex>', `#include <project_vertex>\n${VERTEX_STATE}`);
  let fs = shader.fragmentShader
    .replace('#include <common>', `#include <common>\n${FRAGMENT_PARS}`)
    .replace('#include <color_fragment>', `#include <color_fragment>\n${fragment}`);
  if (normals) fs = fs.replace('#include <normal_fragment_begin>', `#include <normal_fragment_begin>\n${FRAGMENT_NORMAL}`);
  if (!vs.includes('keelsonTexel(objectIndex)') || !fs.includes('vObjectFlags;')) {
    throw new Error('chunkMaterial: three.js shader chunks changed; object state injection failed');
  }
  shader.vertexShader = vs;
  shader.fragmentShader = fs;
}

/**
 * Surface material of all chunk meshes: double-sided Lambert (plates are thin sheets whose normals may face
 * either way), polygon offset so edges draw on top. Shares `uniforms` with the edge material.
 */
export function createSurfaceMaterial(uniforms: ObjectStateUniforms): MeshLambertMaterial {
  const m = new MeshLambertMaterial({
    color: 0xffffff,
    side: DoubleSide,
    polygonOffset: true,
    polygonOffsetFactor: 1,
    polygonOffsetUnits: 1,
  });
  m.onBeforeCompile = (shader) => inject(shader, uniforms, FRAGMENT_COLOR, true);
  m.customProgramCacheKey = () => 'keelson-chunk-surface-v1';
  return m;
}

/** Edge material of all chunk line segments (dark grey), hiding with its object. */
export function createEdgeMaterial(uniforms: ObjectStateUniforms): LineBasicMaterial {
  const m = new LineBasicMaterial({ color: new Color(EDGE_COLOR) });
  m.onBeforeCompile = (shader) => inject(shader, uniforms, FRAGMENT_EDGE, false);
  m.customProgramCacheKey = () => 'keelson-chunk-edge-v1';
  return m;
}
