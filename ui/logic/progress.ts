/**
 * Conversion progress of application.md §4 "Model conversion" and §9 "Progress split": the upload counts
 * as 0–20 %, server progress p (0..100) maps to 20 + 0.8·p, the shown value never goes back and is capped
 * at 100. Pure functions. Status values and the progress report are the contract's (api/contract/common.ts).
 */

import { ConversionStatus, type ConversionStatusValue, type ProgressEvent } from '../../api/contract';

/** Share of the upload in the overall progress, percent. */
export const UPLOAD_SHARE = 20;

function clampPercent(v: number): number {
  if (!Number.isFinite(v)) return 0;
  return Math.min(100, Math.max(0, v));
}

/**
 * Overall percent for an upload that has sent `loaded` of `total` bytes: 0..20.
 * A missing or zero total counts as nothing sent.
 */
export function uploadPercent(loaded: number, total: number | null | undefined): number {
  if (!total || total <= 0 || !Number.isFinite(loaded)) return 0;
  return (UPLOAD_SHARE * Math.min(Math.max(loaded, 0), total)) / total;
}

/** Overall percent for a server progress p (0..100): 20 + 0.8·p, capped to 20..100. */
export function conversionPercent(serverProgress: number): number {
  const p = clampPercent(serverProgress);
  return Math.min(100, UPLOAD_SHARE + ((100 - UPLOAD_SHARE) / 100) * p);
}

/** Keeps progress at its maximum so far and caps it at 100: max(previous, candidate) within 0..100. */
export function advanceProgress(previous: number, candidate: number): number {
  return Math.min(100, Math.max(clampPercent(previous), clampPercent(candidate)));
}

/** A converting project's progress state as the start view shows it. */
export interface ConversionState {
  projectName: string;
  conversionId: string | null;
  /** Overall percent 0..100, monotonic while in progress (reset to 0 on failure). */
  percent: number;
  message: string;
  status: ConversionStatusValue;
  /** E-mail of the user who started the conversion (only they may cancel). */
  startedBy: string | null;
}

/**
 * Applies one progress report to a conversion state (application.md §4): in progress and warnings advance
 * the percent monotonically; Ready sets 100; Error resets to 0; Canceled keeps the percent.
 */
export function applyProgressReport(
  state: ConversionState,
  report: Pick<ProgressEvent, 'status' | 'message' | 'progress'>,
): ConversionState {
  const { status } = report;
  const message = report.message ?? state.message;
  switch (status) {
    case ConversionStatus.Ready:
      return { ...state, status, message, percent: 100 };
    case ConversionStatus.Error:
      return { ...state, status, message, percent: 0 };
    case ConversionStatus.Canceled:
      return { ...state, status, message };
    default:
      return {
        ...state,
        status: ConversionStatus.InProgress,
        message,
        percent: advanceProgress(state.percent, conversionPercent(report.progress)),
      };
  }
}

/** Most warnings a warning toast lists; more are summed up in one line. */
export const WARNING_TOAST_LINES = 5;

/**
 * A warning toast's text (application.md §4 "Warning: a warning toast with the message"): the summary,
 * then the warnings themselves one per line (at most WARNING_TOAST_LINES, then '… and N more').
 */
export function warningText(e: Pick<ProgressEvent, 'message' | 'subMessages'>): string {
  const lines = e.subMessages.slice(0, WARNING_TOAST_LINES);
  const more = e.subMessages.length - lines.length;
  return [e.message, ...lines, ...(more > 0 ? [`… and ${more} more`] : [])].filter(Boolean).join('\n');
}
