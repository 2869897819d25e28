/** Toasts at the bottom right, stacked 80 px apart (application.md §2, §9). */
import { useSnapshot } from 'valtio';
import { TOAST_STACK_PX, closeToast, toastStore, type ToastKind } from '../stores/toasts';

const STYLE: Record<ToastKind, string> = {
  success: 'border-emerald-300 bg-emerald-50 text-emerald-900',
  info: 'border-sky-300 bg-sky-50 text-sky-900',
  warning: 'border-amber-300 bg-amber-50 text-amber-900',
  error: 'border-rose-300 bg-rose-50 text-rose-900',
};

export function Toasts() {
  const { toasts } = useSnapshot(toastStore);
  return (
    <div aria-live="polite" className="pointer-events-none fixed right-4 bottom-4 z-50">
      {toasts.map((t, i) => (
        <div
          key={t.id}
          role={t.kind === 'error' ? 'alert' : 'status'}
          data-testid={`toast-${t.kind}`}
          className={`pointer-events-auto absolute right-0 flex w-96 items-start gap-3 rounded-lg border px-4 py-3 text-sm shadow-lg ${STYLE[t.kind]}`}
          style={{ bottom: i * TOAST_STACK_PX }}
        >
          <span className="flex-1 leading-snug whitespace-pre-line">{t.text}</span>
          <button
            type="button"
            aria-label="Close message"
            className="text-lg leading-none opacity-60 hover:opacity-100"
            onClick={() => closeToast(t.id)}
          >
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
