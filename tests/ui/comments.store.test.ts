import { afterEach, describe, expect, it } from 'vitest';
import { MAX_ATTACHMENT_BYTES } from '../../api/contract';
import {
  answerConfirm,
  attachFile,
  attachSnapshot,
  cancelEditor,
  closeComments,
  commentsStore,
  handleCommentsEngineEvent,
  restoreSnapshot,
  setDraftMessage,
  startMarkerPlacement,
  startNewThread,
} from '../../ui/stores/comments';
import { toastStore } from '../../ui/stores/toasts';

const toasts = () => toastStore.toasts.map((t) => `${t.kind}: ${t.text}`);

afterEach(() => {
  closeComments();
  toastStore.toasts.splice(0);
});

describe('comments store without a viewer (viewer.md §8)', () => {
  it("answers a snapshot, a restore or a marker with 'Failed to get web viewer'", async () => {
    startNewThread();
    await attachSnapshot();
    expect(toasts()).toEqual(['error: Failed to get web viewer']);
    expect(commentsStore.editor?.attachments).toEqual([]);
    toastStore.toasts.splice(0);
    await restoreSnapshot({
      visibleObjects: [],
      referredObjects: [],
      isClippingEnabled: false,
      isWorkplaneEnabled: false,
      savedView: null,
      workplane: null,
      clippingBox: null,
    });
    expect(toasts()).toEqual(['error: Failed to get web viewer']);
    toastStore.toasts.splice(0);
    startMarkerPlacement();
    expect(commentsStore.placingMarker).toBe(false);
    expect(toasts()).toEqual(['error: Failed to get web viewer']);
  });
  it('refuses a file over 250 MB before uploading, with the spec text', async () => {
    commentsStore.projectName = 'DEMO';
    startNewThread();
    const big = new File([], 'hull.ocx');
    Object.defineProperty(big, 'size', { value: MAX_ATTACHMENT_BYTES + 1 });
    await attachFile(big);
    expect(toasts()).toEqual(['error: Upload failed because the file was larger than 250 MB.']);
    expect(commentsStore.editor?.attachments).toEqual([]);
  });
});

describe('comments store: editor and leaving the viewer', () => {
  it('takes a placed marker in metres and ends placement on cancel', () => {
    startNewThread();
    commentsStore.placingMarker = true;
    handleCommentsEngineEvent({ type: 'comment-marker-placed', point: [12_500, -250, 3_000] });
    expect(commentsStore.placingMarker).toBe(false);
    expect(commentsStore.editor?.markerLocation).toEqual({ x: 12.5, y: -0.25, z: 3 });
    commentsStore.placingMarker = true;
    handleCommentsEngineEvent({ type: 'comment-marker-placed', point: null });
    expect(commentsStore.placingMarker).toBe(false);
    expect(commentsStore.editor?.markerLocation).toEqual({ x: 12.5, y: -0.25, z: 3 });
  });
  it("closes an unchanged draft at once and asks 'Discard comment?' for a changed one", async () => {
    startNewThread();
    cancelEditor();
    expect(commentsStore.editor).toBeNull();
    expect(commentsStore.confirm).toBeNull();
    startNewThread();
    setDraftMessage('Check frame 12');
    cancelEditor();
    expect(commentsStore.confirm).toEqual({ kind: 'discard', question: 'Discard comment?' });
    await answerConfirm(false);
    expect(commentsStore.editor?.message).toBe('Check frame 12');
    cancelEditor();
    await answerConfirm(true);
    expect(commentsStore.editor).toBeNull();
  });
  it('opens a clicked marker’s thread; leaving the viewer clears the comments and hides the panel', () => {
    handleCommentsEngineEvent({ type: 'comment-marker-clicked', id: 't1' });
    expect(commentsStore.visible).toBe(true);
    expect(commentsStore.activeThreadId).toBe('t1');
    expect(commentsStore.expanded).toEqual(['t1']);
    startNewThread();
    closeComments();
    expect(commentsStore.visible).toBe(false);
    expect(commentsStore.threads).toEqual([]);
    expect(commentsStore.activeThreadId).toBeNull();
    expect(commentsStore.editor).toBeNull();
  });
});
