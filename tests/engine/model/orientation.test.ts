/**
 * The stored orientation data of profiles (engine/model/orientation.ts): the INCL text round trip, and the
 * web and flange directions at a point between two inclinations — at either inclination exactly its own,
 * half way the normalised mean, the flange kept orthogonal to the web.
 */
import { describe, expect, it } from 'vitest';
import { decodeInclinations, directionsAt, encodeInclinations } from '../../../engine/model/orientation';

const list = [
  {
    position: [0, 0, 0] as [number, number, number],
    web: [0, 0, 1] as [number, number, number],
    flange: [0, 1, 0] as [number, number, number],
  },
  {
    position: [2, 0, 0] as [number, number, number],
    web: [0, 1, 0] as [number, number, number],
    flange: [0, 0, -1] as [number, number, number],
  },
];

describe('profile orientation records', () => {
  it('round-trips through the INCL text and leaves malformed entries out', () => {
    const text = encodeInclinations(list);
    expect(text).toBe('0 0 0 0 0 1 0 1 0;2 0 0 0 1 0 0 0 -1');
    expect(decodeInclinations(text)).toEqual(list);
    expect(decodeInclinations(`${text};1 2 x;`)).toEqual(list);
  });

  it('answers the inclinations at their positions and the normalised mean half way (a 90° twist: 45°)', () => {
    expect(directionsAt(list, [0, 0.3, 0])).toEqual({ web: [0, 0, 1], flange: [0, 1, 0] });
    expect(directionsAt(list, [5, 0, 0])).toEqual({ web: [0, 1, 0], flange: [0, 0, -1] });
    const mid = directionsAt(list, [1, 0, 0])!;
    const h = Math.SQRT1_2;
    expect(mid.web[1]).toBeCloseTo(h, 12);
    expect(mid.web[2]).toBeCloseTo(h, 12);
    expect(mid.flange[1]).toBeCloseTo(h, 12);
    expect(mid.flange[2]).toBeCloseTo(-h, 12);
    expect(mid.web[0] * mid.flange[0] + mid.web[1] * mid.flange[1] + mid.web[2] * mid.flange[2]).toBeCloseTo(0, 12);
    expect(directionsAt([], [0, 0, 0])).toBeNull();
  });
});
