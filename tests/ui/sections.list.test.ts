/**
 * Section nodes and texts (viewer.md §3 "Ship section", §4 "Section drawing", §8 toasts).
 */
import { describe, expect, it } from 'vitest';
import {
  DELETE_SECTION_TEXT,
  failedEntities,
  mergeSavedSections,
  newSectionEntry,
  sectionDeletedText,
  sectionExportFileName,
  sectionFailureText,
  sectionSavedText,
  upsertSection,
} from '../../ui/logic/sections';

describe('section list', () => {
  it('names a section axis + "=" + upper-cased location', () => {
    const e = newSectionEntry('X', ' #10+0.1 ');
    expect(e.name).toBe('X=#10+0.1');
    expect(newSectionEntry('Z', '#v2').name).toBe('Z=#V2');
    expect(e).toMatchObject({ axis: 'X', location: '#10+0.1', saved: false, drawn: false, mm: null, ok: null });
  });

  it('adds once per name and merges updates', () => {
    let list = upsertSection([], newSectionEntry('X', '#2'));
    list = upsertSection(list, newSectionEntry('Y', '1.5'));
    list = upsertSection(list, { name: 'X=#2', drawn: true, mm: 1400 });
    expect(list.map((s) => s.name)).toEqual(['X=#2', 'Y=1.5']);
    expect(list[0]).toMatchObject({ drawn: true, mm: 1400, axis: 'X' });
    expect(() => upsertSection(list, { name: 'Q=1' })).toThrow(/needs an axis and a location/);
  });

  it('merges saved sections: flags known ones, adds unknown ones undrawn', () => {
    const list = [{ ...newSectionEntry('X', '#2'), drawn: true }];
    const merged = mergeSavedSections(list, [
      { name: 'X=#2', axis: 'X', location: '#2', createdBy: 'a@b.c' },
      { name: 'Z=3', axis: 'Z', location: '3', createdBy: 'd@e.f' },
    ]);
    expect(merged.map((s) => [s.name, s.saved, s.drawn, s.createdBy])).toEqual([
      ['X=#2', true, true, 'a@b.c'],
      ['Z=3', true, false, 'd@e.f'],
    ]);
  });

  it('gives the spec texts', () => {
    const errors = [
      { entity: 'compartments' as const, message: 'a' },
      { entity: 'structures' as const, message: 'b' },
      { entity: 'compartments' as const, message: 'c' },
    ];
    expect(failedEntities(errors)).toEqual(['compartments', 'structures']);
    expect(sectionFailureText('X=#2', errors)).toBe('Failed to create a section X=#2 for compartments, structures');
    expect(sectionSavedText('X=#2')).toBe('Section "X=#2" was saved"');
    expect(sectionDeletedText('Y=1')).toBe('Section "Y=1" was deleted"');
    expect(DELETE_SECTION_TEXT).toBe('This will delete the section from all the users.');
    expect(sectionExportFileName('NAPA-TR03', 'X=#2', 'svg')).toBe('NAPA-TR03 X=#2.svg');
    expect(sectionExportFileName('M', 'Z=3', 'dxf')).toBe('M Z=3.dxf');
  });
});
