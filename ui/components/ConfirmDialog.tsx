/**
 * A confirmation dialog (application.md §2 "Deletion confirmations"): a title, a text, optional content
 * (e.g. a checkbox) and Cancel / a confirm button. The confirm button is disabled while `busy`.
 */
import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import type { ReactNode } from 'react';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  text: ReactNode;
  confirmLabel: string;
  /** Red confirm button (deletions). */
  danger?: boolean;
  busy?: boolean;
  children?: ReactNode;
  onConfirm: () => void;
  onCancel: () => void;
}

export function ConfirmDialog({
  open,
  title,
  text,
  confirmLabel,
  danger = false,
  busy = false,
  children,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  return (
    <Dialog open={open} onClose={onCancel} className="relative z-50">
      <div className="fixed inset-0 bg-slate-900/20" aria-hidden="true" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel data-testid="confirm-dialog" className="panel w-full max-w-md p-5">
          <DialogTitle className="mb-2 text-base font-semibold text-ink">{title}</DialogTitle>
          <div className="mb-4 text-sm text-slate-700">{text}</div>
          {children}
          <div className="mt-4 flex justify-end gap-2">
            <button type="button" className="btn-secondary" onClick={onCancel}>
              Cancel
            </button>
            <button
              type="button"
              disabled={busy}
              className={danger ? 'btn bg-rose-600 text-white hover:bg-rose-700 disabled:opacity-50' : 'btn-primary'}
              onClick={onConfirm}
            >
              {confirmLabel}
            </button>
          </div>
        </DialogPanel>
      </div>
    </Dialog>
  );
}
