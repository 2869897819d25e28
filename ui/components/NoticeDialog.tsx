/**
 * The notice dialog for administrator-driven user changes (application.md §2 "Application shell", §4
 * "Realtime user notification"): the notice text and a Confirm button (ui/stores/notice.ts). Mounted
 * once in App; while a user is signed in it keeps the realtime room of the user's e-mail joined.
 */
import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { authStore } from '../stores/auth';
import { confirmNotice, noticeStore, watchUserNotices } from '../stores/notice';

export function NoticeDialog() {
  const { notice } = useSnapshot(noticeStore);
  const { token, user } = useSnapshot(authStore);
  const email = user?.email;
  useEffect(() => {
    if (token && email) watchUserNotices(token, email);
  }, [token, email]);
  return (
    <Dialog open={notice !== null} onClose={() => void confirmNotice()} className="relative z-50">
      <div className="fixed inset-0 bg-slate-900/20" aria-hidden="true" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel data-testid="notice-dialog" className="panel w-full max-w-md p-5">
          <DialogTitle className="mb-2 text-base font-semibold text-ink">Notice</DialogTitle>
          <p className="mb-4 text-sm text-slate-700">{notice?.text}</p>
          <div className="flex justify-end">
            <button type="button" className="btn-primary" onClick={() => void confirmNotice()}>
              Confirm
            </button>
          </div>
        </DialogPanel>
      </div>
    </Dialog>
  );
}
