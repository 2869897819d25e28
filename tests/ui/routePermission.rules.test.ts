/**
 * The '{route}:view' permission a route needs (application.md §4 "Realtime user notification", §6): the
 * UI leaves a route whose permission the user lost after an administrator's change.
 */
import { describe, expect, it } from 'vitest';
import { viewPermissionOf } from '../../ui/logic/routePermission';

describe('view permission of a route', () => {
  it('asks admin:view for /admin and the project permission for a model', () => {
    expect(viewPermissionOf('/admin')).toBe('admin:view');
    expect(viewPermissionOf('/NAPA-OCX_M1')).toBe('project:NAPA-OCX_M1');
    expect(viewPermissionOf('/demo_ship')).toBe('project:DEMO_SHIP');
    expect(viewPermissionOf('/MY%20SHIP')).toBe('project:MY SHIP');
  });

  it('asks nothing for the start view and the sign-in views', () => {
    for (const p of ['/', '', '/login', '/register', '/error', '/changePassword', '/login/callback'])
      expect(viewPermissionOf(p), p).toBeNull();
  });
});
