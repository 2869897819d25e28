/**
 * The 'Delete section' confirmation (viewer.md §4 "deleting a saved one asks for confirmation"): 'This will
 * delete the section from all the users.' with Delete and Cancel; Delete calls DELETE ship-sections.
 */
import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import { useSnapshot } from 'valtio';
import { DELETE_SECTION_TEXT, DELETE_SECTION_TITLE } from '../logic/sections';
import { askDeleteSection, deleteSection, sectionsStore } from '../stores/sections';

export function DeleteSectionDialog() {
  const { confirmDelete } = useSnapshot(sectionsStore);
  const close = () => askDeleteSection(null);
  return (
    <Dialog open={confirmDelete !== null} onClose={close} className="relative z-40">
      <div className="fixed inset-0 bg-slate-900/20" aria-hidden="true" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel data-testid="delete-section-dialog" className="panel w-full max-w-sm p-5">
          <DialogTitle className="mb-2 text-base font-semibold text-ink">{DELETE_SECTION_TITLE}</DialogTitle>
          <p className="mb-1 text-sm text-slate-700">{DELETE_SECTION_TEXT}</p>
          <p className="mb-4 font-mono text-xs text-slate-500">{confirmDelete}</p>
          <div className="flex justify-end gap-2">
            <button type="button" className="btn-secondary" onClick={close}>
              Cancel
            </button>
            <button
              type="button"
              className="btn bg-rose-600 text-white hover:bg-rose-700"
              onClick={() => {
                const name = confirmDelete;
                close();
                if (name) void deleteSection(name);
              }}
            >
              Delete
            </button>
          </div>
        </DialogPanel>
      </div>
    </Dialog>
  );
}
