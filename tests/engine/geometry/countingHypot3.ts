/**
 * A counting stand-in for engine/geometry/curves `hypot3`, for tests that count distances instead of timing
 * work. In a test file:
 *   vi.mock('../../../engine/geometry/curves', async (original) =>
 *     (await import('./countingHypot3')).countingCurves(original));
 * then read and reset `hypot3Calls.calls`.
 */
import type * as Curves from '../../../engine/geometry/curves';

/** Calls of the mocked hypot3 since the last reset. */
export const hypot3Calls = { calls: 0 };

/** The curves module with hypot3 counting its calls (same results). */
export async function countingCurves(importOriginal: () => Promise<unknown>): Promise<typeof Curves> {
  const actual = (await importOriginal()) as typeof Curves;
  return {
    ...actual,
    hypot3: (x: number, y: number, z: number) => {
      hypot3Calls.calls++;
      return actual.hypot3(x, y, z);
    },
  };
}
