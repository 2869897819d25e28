/**
 * ViewerHolds (api/projects/viewerHolds.ts): which viewers use a project's cached data, with the viewer
 * time-out and the bound on remembered holders.
 */
import { describe, expect, it } from 'vitest';
import { ViewerHolds } from '../../api/projects/viewerHolds';

describe('ViewerHolds', () => {
  it('lets the last viewer release the project, and forgets viewers idle past the time-out', () => {
    let now = 0;
    const holds = new ViewerHolds(1000, 100, () => now);
    holds.touch('SHIP', 'a');
    holds.touch('SHIP', 'b');
    holds.touch('OTHER', 'c');
    expect(holds.release('SHIP', 'a')).toBe(false);
    expect(holds.holders('SHIP')).toBe(1);
    // b goes silent: after the time-out it no longer holds the project, so an anonymous shutdown may drop it.
    now = 1500;
    holds.touch('OTHER', 'c');
    expect(holds.release('SHIP', undefined)).toBe(true);
    expect(holds.holders('OTHER')).toBe(1);
  });

  it('remembers at most `max` holders, dropping the least recently seen', () => {
    const holds = new ViewerHolds(60_000, 3, () => 0);
    for (const v of ['a', 'b', 'c', 'd']) holds.touch('SHIP', v);
    expect(holds.holders('SHIP')).toBe(3);
    holds.touch('SHIP', 'b');
    holds.touch('SHIP', 'e');
    // 'b' was renewed, so 'c' (then the oldest) went.
    expect(holds.release('SHIP', 'b')).toBe(false);
    expect(holds.holders('SHIP')).toBe(2);
  });
});
