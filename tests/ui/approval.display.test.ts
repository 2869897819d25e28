/**
 * What the OBJECT_STATUS row shows (viewer.md §3 "Object status property") and the status option name rules
 * the editor and the server share (application.md §5 "Status option name").
 */
import { describe, expect, it } from 'vitest';
import { type GeometryApprovalStatus, statusNameError } from '../../api/contract';
import { hexToRgb, REMOVED_TEXT, statusDisplay, VARIES_TEXT } from '../../ui/stores/approval';

const item = (geometry: string, id: number, name: string): GeometryApprovalStatus => ({
  geometry,
  approvalStatus: { id, name, color: '#4caf50', isEditable: true },
  changeInProgress: false,
});

describe('statusDisplay', () => {
  it('shows the one status, ** REMOVED ** for the removed status and ** VARIES ** when objects differ', () => {
    expect(statusDisplay([item('a', 4, 'Approved'), item('b', 4, 'Approved')], 2)).toEqual({
      text: 'Approved',
      statusId: 4,
    });
    expect(statusDisplay([item('a', 2, 'Removed')], 2)).toEqual({ text: REMOVED_TEXT, statusId: 2 });
    expect(statusDisplay([item('a', 4, 'Approved'), item('b', 5, 'Rejected')], 2)).toEqual({
      text: VARIES_TEXT,
      statusId: null,
    });
    expect(REMOVED_TEXT).toBe('** REMOVED **');
    expect(VARIES_TEXT).toBe('** VARIES **');
  });
  it('turns the option colours into bytes for the engine', () => {
    expect(hexToRgb('#4caf50')).toEqual([76, 175, 80]);
    expect(hexToRgb('#eeeeee')).toEqual([238, 238, 238]);
  });
});

describe('statusNameError', () => {
  it('checks required, length 3..20, characters and uniqueness in that order', () => {
    expect(statusNameError('  ')).toBe('Name is required.');
    expect(statusNameError('ab')).toBe('Minimum 3 and maximum 20 characters');
    expect(statusNameError('x'.repeat(21))).toBe('Minimum 3 and maximum 20 characters');
    expect(statusNameError('Done!')).toBe('Name contains special characters.');
    expect(statusNameError('Hyväksytty 2')).toBeNull();
    expect(statusNameError(' approved ', ['Approved'])).toBe(
      'There is another status option with the same name. Try another name.',
    );
    expect(statusNameError('New status option', ['Approved'])).toBeNull();
  });
});
