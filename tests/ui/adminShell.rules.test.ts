/**
 * Pure rules of the admin area and the shell: the organisation-domain rule of a new user (application.md
 * §5), project counts and valid-until, the warning toast's content (§4 "Warning"), LicenseError messages
 * for external users (§6, §8) and the 'What's new' changelog parsing (§1).
 */
import { describe, expect, it } from 'vitest';
import type { AdminUser } from '../../api/contract';
import { isOrganizationEmail } from '../../api/contract';
import { parseChangelog } from '../../api/routes/whatsNew';
import { DEFAULT_ERROR_MESSAGE, isLicenseError, licenseErrorMessage } from '../../ui/logic/errorMessage';
import { formatValidUntil } from '../../ui/logic/format';
import { warningText } from '../../ui/logic/progress';
import { defaultPermissionsFor, projectCount, validUntilOf } from '../../ui/logic/userAccess';

const user = (permissions: string[], data: Array<[string, string | null]>): AdminUser => ({
  id: 1,
  email: 'a@b.c',
  name: 'A',
  userType: 'internal',
  picture: '',
  permissions,
  permissionData: data.map(([identifier, validUntil], i) => ({ id: i, identifier, validUntil })),
  valid: null,
  requirePasswordReset: false,
});

describe('organisation-domain rule', () => {
  it('grants every project and upload:model to the domain and its subdomains, nothing to others', () => {
    expect(defaultPermissionsFor('eng@yard.com', 'yard.com', ['A', 'B'])).toEqual([
      'upload:model',
      'project:A',
      'project:B',
    ]);
    expect(defaultPermissionsFor('eng@dept.yard.com', '@yard.com', ['A'])).toEqual(['upload:model', 'project:A']);
    expect(defaultPermissionsFor('eng@notyard.com', 'yard.com', ['A'])).toEqual([]);
    expect(isOrganizationEmail('anyone@else.org', '')).toBe(true);
  });
});

describe('project access of a user', () => {
  it('counts the project permissions and keeps the valid-until of those held now', () => {
    const u = user(
      ['upload:model', 'project:A', 'project:B'],
      [
        ['upload:model', null],
        ['project:A', null],
        ['project:B', '2030-01-01T00:00:00.000Z'],
        ['project:C', '2020-01-01T00:00:00.000Z'],
      ],
    );
    expect(projectCount(u)).toBe(2);
    expect(validUntilOf(u)).toEqual({ 'project:A': null, 'project:B': '2030-01-01T00:00:00.000Z' });
    expect(formatValidUntil(null)).toBe('Permanent');
    expect(formatValidUntil('2030-01-01T12:00:00.000Z')).toBe('01.01.2030');
  });
});

describe('warning toast', () => {
  it('shows the summary and the warnings themselves, at most five', () => {
    expect(warningText({ message: 'Project P was added with 2 warnings', subMessages: ['w1', 'w2'] })).toBe(
      'Project P was added with 2 warnings\nw1\nw2',
    );
    const many = warningText({ message: 'm', subMessages: ['1', '2', '3', '4', '5', '6', '7'] });
    expect(many.split('\n')).toEqual(['m', '1', '2', '3', '4', '5', '… and 2 more']);
  });
});

describe('LicenseError', () => {
  it('is recognised by its type; external users get the default message', () => {
    expect(isLicenseError({ error: 'LicenseError', message: 'x', type: 'LicenseError' })).toBe(true);
    expect(isLicenseError({ error: 'Forbidden', message: 'x', type: 'permission' })).toBe(false);
    expect(licenseErrorMessage('The licence expired', 'external')).toBe(DEFAULT_ERROR_MESSAGE);
    expect(licenseErrorMessage('The licence expired', 'internal')).toBe('The licence expired');
  });
});

describe("what's new", () => {
  it('reads versions from ## headings and items from list lines', () => {
    expect(parseChangelog('# Title\nintro\n- not an item\n## 2.0\n- a\n* b\n\n## 1.0\n- c\n')).toEqual([
      { version: '2.0', items: ['a', 'b'] },
      { version: '1.0', items: ['c'] },
    ]);
  });
});
