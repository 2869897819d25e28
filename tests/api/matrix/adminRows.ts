/** Authorization-matrix sample requests: approval status, administration, settings and scheduling. */
import { OBJECT_PROPERTY_SETS } from '../../../api/contract';
import { q, type Sample, SHIP, state } from './context';

/** Sample request per route ('METHOD /url'). */
export const ADMIN_ROWS: Record<string, Sample> = {
  // Object status options: read by every signed-in user, changed with admin:view. The administrator's POST
  // makes the option its DELETE removes.
  'GET /api/viewer/approval-status/all': {
    who: 'signedIn',
    req: () => ({ url: '/api/viewer/approval-status/all' }),
  },
  'GET /api/viewer/approval-status/options': {
    who: 'signedIn',
    req: () => ({ url: '/api/viewer/approval-status/options' }),
  },
  'GET /api/viewer/approval-status': {
    who: 'signedIn',
    req: () => ({ url: '/api/viewer/approval-status?id=1' }),
  },
  'GET /api/viewer/approval-status/usage': {
    who: 'admin',
    req: () => ({ url: '/api/viewer/approval-status/usage?id=1' }),
  },
  'POST /api/viewer/approval-status': {
    who: 'admin',
    req: () => ({ method: 'POST', url: '/api/viewer/approval-status', payload: { name: 'Matrix status' } }),
    after: async (_role, res) => {
      if (res.statusCode === 200) state.statusId = res.json().id;
    },
  },
  'PUT /api/viewer/approval-status': {
    who: 'admin',
    req: () => ({ method: 'PUT', url: '/api/viewer/approval-status?id=3', payload: { name: 'In review' } }),
  },
  'DELETE /api/viewer/approval-status': {
    who: 'admin',
    req: () => ({ method: 'DELETE', url: `/api/viewer/approval-status?id=${state.statusId}` }),
  },
  // Object statuses: read with access to the project (the change, the same path with approvalStatusId, also
  // needs upload:model: tests/api/Approval.routes.test.ts).
  'GET /api/viewer/geometry/approval-status/all': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/viewer/geometry/approval-status/all?${q({ projectName: SHIP })}` }),
  },
  'POST /api/viewer/geometry/approval-status': {
    who: 'read',
    project: SHIP,
    req: () => ({
      method: 'POST',
      url: `/api/viewer/geometry/approval-status?${q({ projectName: SHIP, revision: '1' })}`,
      payload: ['x'],
    }),
  },
  'GET /api/viewer/geometry/approval-status/revision-geometry-approval-status-count': {
    who: 'read',
    project: SHIP,
    req: () => ({
      url: `/api/viewer/geometry/approval-status/revision-geometry-approval-status-count?${q({ projectName: SHIP })}`,
    }),
  },
  // An id M1 does not hold answers 400 naming it once access was granted.
  'GET /api/viewer/geometry/approval-status/history': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/viewer/geometry/approval-status/history?${q({ projectName: SHIP, geometry: 'x' })}` }),
    ok: [400],
  },
  'GET /api/default/viewer/permissions/all': {
    who: 'admin',
    req: () => ({ url: '/api/default/viewer/permissions/all' }),
  },
  'GET /api/default/viewer/permissions/with-users': {
    who: 'admin',
    req: () => ({ url: '/api/default/viewer/permissions/with-users?category=project' }),
  },
  'GET /api/default/viewer/users/all': {
    who: 'admin',
    req: () => ({ url: '/api/default/viewer/users/all' }),
  },
  'PATCH /api/default/viewer/users': {
    who: 'admin',
    req: () => ({
      method: 'PATCH',
      url: '/api/default/viewer/users?email=victim%40other.org',
      payload: { name: 'Victim' },
    }),
  },
  'DELETE /api/default/viewer/users': {
    who: 'admin',
    req: () => ({ method: 'DELETE', url: '/api/default/viewer/users?email=victim%40other.org' }),
  },
  'GET /api/keelson-static/license/expirationTime': {
    who: 'signedIn',
    req: () => ({ url: '/api/keelson-static/license/expirationTime' }),
  },
  'GET /api/keelson-static/whats-new': {
    who: 'anyone',
    req: () => ({ url: '/api/keelson-static/whats-new' }),
  },
  'GET /api/default/viewer/logs': {
    who: 'admin',
    req: () => ({ url: '/api/default/viewer/logs' }),
  },
  'GET /api/default/viewer/config/conversion': {
    who: 'admin',
    req: () => ({ url: '/api/default/viewer/config/conversion' }),
  },
  'PATCH /api/default/viewer/config/conversion': {
    who: 'admin',
    req: () => ({ method: 'PATCH', url: '/api/default/viewer/config/conversion', payload: { screenshot: true } }),
  },
  'GET /api/viewer/settings/object-properties': {
    who: 'signedIn',
    req: () => ({ url: '/api/viewer/settings/object-properties' }),
  },
  'POST /api/viewer/settings/object-properties': {
    who: 'admin',
    req: () => ({
      method: 'POST',
      url: '/api/viewer/settings/object-properties',
      payload: Object.fromEntries(OBJECT_PROPERTY_SETS.map((set) => [set, [{ name: 'NAME', description: 'Name' }]])),
    }),
  },
  'GET /api/default/scheduling/project-update-schedule': {
    who: 'admin',
    req: () => ({ url: '/api/default/scheduling/project-update-schedule' }),
  },
  'POST /api/default/scheduling/project-update-schedule': {
    who: 'admin',
    req: () => ({ method: 'POST', url: '/api/default/scheduling/project-update-schedule', payload: [] }),
  },
};
