import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ConversionStatus as ProgressStatus, type ConversionStatusValue } from '../../api/contract';
import {
  advanceProgress,
  applyProgressReport,
  conversionPercent,
  uploadPercent,
  type ConversionState,
} from '../../ui/logic/progress';

describe('progress split (application.md §4, §9)', () => {
  it('maps the upload to 0..20 %', () => {
    expect(uploadPercent(0, 1000)).toBe(0);
    expect(uploadPercent(500, 1000)).toBe(10);
    expect(uploadPercent(1000, 1000)).toBe(20);
    expect(uploadPercent(2000, 1000)).toBe(20);
    expect(uploadPercent(10, 0)).toBe(0);
  });
  it('maps server progress p to 20 + 0.8p', () => {
    expect(conversionPercent(0)).toBe(20);
    expect(conversionPercent(50)).toBe(60);
    expect(conversionPercent(100)).toBe(100);
    expect(conversionPercent(250)).toBe(100);
  });
  it('never goes back and is capped at 100', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -50, max: 300, noNaN: true })), (values) => {
        let cur = 0;
        for (const v of values) {
          const next = advanceProgress(cur, v);
          expect(next).toBeGreaterThanOrEqual(cur);
          expect(next).toBeLessThanOrEqual(100);
          cur = next;
        }
      }),
    );
  });
});

describe('applyProgressReport', () => {
  const base: ConversionState = {
    projectName: 'P',
    conversionId: 'c1',
    percent: 20,
    message: '',
    status: ProgressStatus.InProgress,
    startedBy: null,
  };
  const rep = (status: ConversionStatusValue, progress: number, message = 'm') => ({
    conversionId: 'c1',
    projectName: 'P',
    status,
    message,
    progress,
  });
  it('advances in progress and ignores a lower report', () => {
    const s1 = applyProgressReport(base, rep(1, 50, 'Reading'));
    expect(s1.percent).toBe(60);
    expect(s1.message).toBe('Reading');
    expect(applyProgressReport(s1, rep(1, 10)).percent).toBe(60);
  });
  it('sets 100 on Ready, resets to 0 on Error and keeps percent on Canceled', () => {
    const s1 = applyProgressReport(base, rep(1, 50));
    expect(applyProgressReport(s1, rep(2, 100)).percent).toBe(100);
    expect(applyProgressReport(s1, rep(4, 70))).toMatchObject({ percent: 0, status: ProgressStatus.Error });
    expect(applyProgressReport(s1, rep(3, 70))).toMatchObject({ percent: 60, status: ProgressStatus.Canceled });
  });
  it('treats a warning as progress', () => {
    expect(applyProgressReport(base, rep(5, 25, 'warn'))).toMatchObject({ percent: 40, status: 1, message: 'warn' });
  });
});
