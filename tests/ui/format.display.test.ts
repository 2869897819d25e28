import { describe, expect, it } from 'vitest';
import { formatDate, parseRevisionParam, sortRevisionsNewestFirst, thumbnailSrc } from '../../ui/logic/format';
import { msUntilExpiry, readTokenClaims } from '../../ui/logic/token';

function fakeJwt(payload: object): string {
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(payload)}.sig`;
}

describe('formatting', () => {
  it('formats dates as ddd DD.MM.YYYY H:mm:ss', () => {
    expect(formatDate('2025-03-04T05:06:07')).toBe('Tue 04.03.2025 5:06:07');
    expect(formatDate('garbage')).toBe('garbage');
    expect(formatDate(null)).toBe('');
  });
  it('sorts revisions newest first without mutating', () => {
    const revs = [1, 3, 2].map((n) => ({ revisionInfo: { revisionNumber: n } }));
    expect(sortRevisionsNewestFirst(revs).map((r) => r.revisionInfo.revisionNumber)).toEqual([3, 2, 1]);
    expect(revs[0].revisionInfo.revisionNumber).toBe(1);
  });
  it('builds thumbnail sources and reads the revision parameter', () => {
    expect(thumbnailSrc('iVBOR')).toBe('data:image/png;base64,iVBOR');
    expect(thumbnailSrc('data:image/png;base64,x')).toBe('data:image/png;base64,x');
    expect(thumbnailSrc('')).toBeNull();
    expect(parseRevisionParam('revision=3')).toBe(3);
    expect(parseRevisionParam('?revision=x')).toBeNull();
    expect(parseRevisionParam('')).toBeNull();
  });
});

describe('token expiry (application.md §3, §4)', () => {
  it('reads sub and exp and computes time left', () => {
    const t = fakeJwt({ iss: 'keelson', sub: 'a@b.io', exp: 1000 });
    expect(readTokenClaims(t)).toEqual({ iss: 'keelson', sub: 'a@b.io', exp: 1000 });
    expect(msUntilExpiry(t, 999_000)).toBe(1000);
    expect(msUntilExpiry(t, 1_000_001)).toBeLessThan(0);
    expect(msUntilExpiry(fakeJwt({ sub: 'x' }), 0)).toBe(Infinity);
    expect(msUntilExpiry('nonsense', 0)).toBe(0);
  });
});
