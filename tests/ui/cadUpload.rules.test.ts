/**
 * The CAD upload dialog's rules (application.md §4 "CAD upload dialog", §5 "Upload and project files"): a
 * picked file shows 'uploading' when new and 'updating' when it replaces one on the server; a pick is refused
 * when the project does not require the name (extra files included), when it is picked twice, or when the
 * file is on the server and Overwrite is off.
 */
import { describe, expect, it } from 'vitest';
import type { CadFileStatus } from '../../api/contract';
import { checkPicked, shownStatus } from '../../ui/stores/cadUpload';

const files: { fileName: string; status: CadFileStatus }[] = [
  { fileName: 'pump.stl', status: 'missing' },
  { fileName: 'hatch.stl', status: 'exists' },
  { fileName: 'old-valve.stl', status: 'extra' },
];

describe('CAD upload dialog rules', () => {
  it('shows the status of picked files by whether they replace one', () => {
    expect(shownStatus(files[0], true)).toBe('uploading');
    expect(shownStatus(files[1], true)).toBe('updating');
    expect(shownStatus(files[1], false)).toBe('exists');
    expect(shownStatus({ status: 'updating' }, false)).toBe('updating');
  });

  it('accepts required names once and an existing file only with Overwrite', () => {
    const picks = [{ name: 'pump.stl' }, { name: 'pump.stl' }, { name: 'hatch.stl' }, { name: 'old-valve.stl' }];
    expect(checkPicked(picks, files, [], false)).toEqual({
      accepted: ['pump.stl'],
      refused: [
        'pump.stl is already chosen',
        'hatch.stl is already on the server; check Overwrite existing files to replace it',
        'old-valve.stl is not a CAD file this project requires',
      ],
    });
    expect(checkPicked([{ name: 'hatch.stl' }], files, [], true)).toEqual({ accepted: ['hatch.stl'], refused: [] });
    expect(checkPicked([{ name: 'pump.stl' }], files, ['pump.stl'], true).refused).toEqual([
      'pump.stl is already chosen',
    ]);
  });
});
