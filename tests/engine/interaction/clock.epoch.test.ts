import { describe, expect, it } from 'vitest';
import { epochNow, eventEpochTime } from '../../../engine/interaction/clock';

describe('the input clock (epoch ms shared by the page and the render worker)', () => {
  it("maps an event's timeStamp on this realm's performance clock to epoch ms", () => {
    const t = performance.now();
    expect(eventEpochTime(t)).toBe(performance.timeOrigin + t);
    // Two realms whose performance clocks start at different times agree on the same instant.
    expect(eventEpochTime(t)).toBeCloseTo(Date.now(), -3);
  });
  it('takes a missing time stamp (0) as now, and now never runs backwards', () => {
    const before = epochNow();
    const missing = eventEpochTime(0);
    expect(missing).toBeGreaterThanOrEqual(before);
    expect(epochNow()).toBeGreaterThanOrEqual(missing);
  });
});
