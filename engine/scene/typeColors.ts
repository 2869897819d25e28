/**
 * Fixed colours per object type (viewer.md §9 "Drawing": "Colors per object type are fixed"), as sRGB
 * bytes for the object colour table (ObjectStateTable). Structural parts are steel greys told apart by a
 * small shift in hue so plates, stiffeners and brackets read as different parts without looking busy.
 */
import type { ObjectType } from '../model/types';
import { DEFAULT_OBJECT_COLOR } from './ObjectStateTable';

/** sRGB colour per object type. */
export const OBJECT_TYPE_COLORS: Readonly<Record<ObjectType, readonly [number, number, number]>> = {
  'MAIN OBJECT': DEFAULT_OBJECT_COLOR,
  'MAIN OBJECT SECTION': DEFAULT_OBJECT_COLOR,
  PLATE: [182, 188, 196],
  STIFFENER: [150, 162, 178],
  SEAM: [90, 96, 104],
  BRACKET: [196, 184, 160],
  OPENING: [120, 126, 134],
  HOLE: [120, 126, 134],
  CUTOUT: [120, 126, 134],
  NOTCH: [120, 126, 134],
  'COLLAR PLATE': [170, 178, 160],
  BLOCK: DEFAULT_OBJECT_COLOR,
  COMPARTMENT: [150, 190, 220],
  'CAD COMPONENT': [200, 170, 120],
  'CAD COMPONENT SECTION': [200, 170, 120],
  'STRUCTURE ARRANGEMENT': DEFAULT_OBJECT_COLOR,
  'COMPARTMENT ARRANGEMENT': [150, 190, 220],
  PILLAR: [160, 150, 176],
};

/** Colour of a type; unknown types (not in OBJECT_TYPES) get the default grey. */
export function colorForType(type: ObjectType): readonly [number, number, number] {
  return OBJECT_TYPE_COLORS[type] ?? DEFAULT_OBJECT_COLOR;
}
