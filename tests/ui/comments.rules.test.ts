import { describe, expect, it } from 'vitest';
import {
  deleteQuestion,
  discardQuestion,
  draftChanged,
  mayChangeState,
  mayEdit,
  maySubmit,
  type DraftFields,
} from '../../ui/logic/commentsRules';

const thread = {
  type: 'Thread',
  author: { userName: 'Ann@Yard.example' },
  assignees: [{ userName: 'bob@yard.example' }],
};
const ann = { email: 'ann@yard.example', adminView: false };
const bob = { email: 'BOB@yard.example', adminView: false };
const eve = { email: 'eve@yard.example', adminView: false };
const admin = { email: 'root@yard.example', adminView: true };

describe('comment rules (viewer.md §6)', () => {
  it('lets the author (any case) or admin:view edit, never a state-change message', () => {
    expect(mayEdit(thread, ann)).toBe(true);
    expect(mayEdit(thread, admin)).toBe(true);
    expect(mayEdit(thread, bob)).toBe(false);
    expect(mayEdit(thread, null)).toBe(false);
    expect(mayEdit({ ...thread, type: 'StateChangeMessage' }, ann)).toBe(false);
  });
  it('lets the author, an assignee or admin:view change the state while the thread is active', () => {
    expect(mayChangeState(thread, ann, true)).toBe(true);
    expect(mayChangeState(thread, bob, true)).toBe(true);
    expect(mayChangeState(thread, admin, true)).toBe(true);
    expect(mayChangeState(thread, eve, true)).toBe(false);
    expect(mayChangeState(thread, ann, false)).toBe(false);
  });
});

describe('the editor (viewer.md §4 "Editing")', () => {
  const original: DraftFields = {
    message: 'Check weld',
    labels: ['Hull'],
    assignees: [],
    markerLocation: null,
    attachmentKeys: [],
  };
  it('submits only a non-empty, changed draft with no submit running', () => {
    expect(maySubmit(original, original, false)).toBe(false);
    const edited = { ...original, message: 'Check weld at frame 12' };
    expect(maySubmit(edited, original, false)).toBe(true);
    expect(maySubmit(edited, original, true)).toBe(false);
    expect(maySubmit({ ...original, message: '   ' }, { ...original, message: '' }, false)).toBe(false);
  });
  it('notices every kind of change', () => {
    expect(draftChanged({ ...original, labels: ['Hull', 'Deck'] }, original)).toBe(true);
    expect(draftChanged({ ...original, assignees: [{ userName: 'x' }] }, original)).toBe(true);
    expect(draftChanged({ ...original, markerLocation: { x: 1, y: 2, z: 3 } }, original)).toBe(true);
    expect(draftChanged({ ...original, attachmentKeys: ['f1'] }, original)).toBe(true);
    expect(draftChanged({ ...original, labels: ['Hull'] }, original)).toBe(false);
  });
  it('asks the spec questions', () => {
    expect(discardQuestion(true)).toBe('Discard comment?');
    expect(discardQuestion(false)).toBe('Discard modification?');
    expect(deleteQuestion('Thread')).toBe('Delete this thread?');
    expect(deleteQuestion('Reply')).toBe('Delete this reply?');
  });
});
