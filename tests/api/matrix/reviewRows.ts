/** Authorization-matrix sample requests: saved sections, custom trees, geometry, comments and users. */
import { multipartFile } from '../helpers';
import { BCF_MINIMUM, commentPlace, model, q, ROLES, type Sample, SHIP, state, tagFixture, threadOf } from './context';

/** Sample request per route ('METHOD /url'). */
export const REVIEW_ROWS: Record<string, Sample> = {
  // Each role saves, then deletes, its own section.
  'POST /api/viewer/ship-sections': {
    who: 'read',
    project: SHIP,
    req: (role) => ({
      method: 'POST',
      url: '/api/viewer/ship-sections',
      payload: { projectName: SHIP, axis: 'X', location: String(ROLES.indexOf(role)) },
    }),
  },
  'GET /api/viewer/ship-sections': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/viewer/ship-sections?${q({ projectName: SHIP })}` }),
  },
  'DELETE /api/viewer/ship-sections': {
    who: 'read',
    project: SHIP,
    req: (role) => ({
      method: 'DELETE',
      url: '/api/viewer/ship-sections',
      payload: { projectName: SHIP, axis: 'X', location: String(ROLES.indexOf(role)) },
    }),
  },
  // Custom model trees: every call needs access to the project (tags are shared by its users).
  'GET /api/viewer/tags/all': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/viewer/tags/all?${q({ projectName: SHIP })}` }),
  },
  'GET /api/viewer/tags/root': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/viewer/tags/root?${q({ projectName: SHIP, rootName: 'Custom-model-tree' })}` }),
  },
  'GET /api/viewer/tags': {
    who: 'read',
    project: SHIP,
    req: () => ({
      url: `/api/viewer/tags?${q({ projectName: SHIP, tagName: 'Matrix', parentId: String(tagFixture.root) })}`,
    }),
  },
  // Each role makes its own folder, which the DELETE row removes again.
  'POST /api/viewer/tags': {
    who: 'read',
    project: SHIP,
    req: (role) => ({
      method: 'POST',
      url: `/api/viewer/tags?${q({ projectName: SHIP })}`,
      payload: { name: `Folder of ${role}`, type: 'UnrestrictedTree', parent: tagFixture.root },
    }),
    after: async (role, res) => {
      if (res.statusCode === 200) tagFixture.own[role] = res.json().id;
    },
  },
  'PATCH /api/viewer/tags': {
    who: 'read',
    project: SHIP,
    req: () => ({
      method: 'PATCH',
      url: `/api/viewer/tags?${q({ projectName: SHIP, tagId: String(tagFixture.folder), newName: 'Matrix' })}`,
    }),
  },
  'DELETE /api/viewer/tags': {
    who: 'read',
    project: SHIP,
    req: (role) => ({
      method: 'DELETE',
      url: `/api/viewer/tags?${q({ projectName: SHIP, tagId: String(tagFixture.own[role] ?? 0) })}`,
    }),
  },
  'POST /api/viewer/tagging/tags-by-geometries': {
    who: 'read',
    project: SHIP,
    req: () => ({
      method: 'POST',
      url: `/api/viewer/tagging/tags-by-geometries?${q({ projectName: SHIP, tagTreeRootName: 'Custom-model-tree' })}`,
      payload: [],
    }),
  },
  'GET /api/viewer/tagging/tags-by-geometry': {
    who: 'read',
    project: SHIP,
    req: () => ({
      url: `/api/viewer/tagging/tags-by-geometry?${q({ projectName: SHIP, geometryName: 'x', tagTreeRootName: 'Custom-model-tree' })}`,
    }),
  },
  'GET /api/viewer/tagging/geometries-by-tag': {
    who: 'read',
    project: SHIP,
    req: () => ({
      url: `/api/viewer/tagging/geometries-by-tag?${q({ projectName: SHIP, tagId: String(tagFixture.folder) })}`,
    }),
  },
  'POST /api/viewer/tagging/add-tag-to-geometries': {
    who: 'read',
    project: SHIP,
    req: () => ({
      method: 'POST',
      url: `/api/viewer/tagging/add-tag-to-geometries?${q({ projectName: SHIP, tagId: String(tagFixture.folder) })}`,
      payload: ['x'],
    }),
  },
  'POST /api/viewer/tagging/remove-tag-from-geometries': {
    who: 'read',
    project: SHIP,
    req: () => ({
      method: 'POST',
      url: `/api/viewer/tagging/remove-tag-from-geometries?${q({ projectName: SHIP, tagId: String(tagFixture.folder) })}`,
      payload: ['x'],
    }),
  },
  'DELETE /api/viewer/tagging/delete-tag': {
    who: 'read',
    project: SHIP,
    req: () => ({
      method: 'DELETE',
      url: `/api/viewer/tagging/delete-tag?${q({ projectName: SHIP, tagId: String(tagFixture.folder) })}`,
    }),
  },
  'POST /api/keelson-instance/geometry/surface-objects': {
    who: 'read',
    project: SHIP,
    req: () => ({ method: 'POST', url: `/api/keelson-instance/geometry/surface-objects?${model()}`, payload: ['x'] }),
  },
  'POST /api/keelson-instance/geometry/surface-normals-at-points': {
    who: 'read',
    project: SHIP,
    req: () => ({
      method: 'POST',
      url: `/api/keelson-instance/geometry/surface-normals-at-points?${model()}`,
      payload: [{ x: 0, y: 0, z: 0 }],
    }),
  },
  'GET /api/keelson-static/comments/all': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-static/comments/all?${q({ projectName: SHIP })}` }),
  },
  'GET /api/keelson-static/comments/by-id': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-static/comments/by-id?${q({ commentId: threadOf('admin') })}` }),
  },
  'GET /api/keelson-static/comments/attachment-data': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-static/comments/attachment-data?${q({ attachmentId: state.snapshotId })}` }),
  },
  'GET /api/keelson-static/comments/attachment-thumbnail-data': {
    who: 'read',
    project: SHIP,
    req: () => ({
      url: `/api/keelson-static/comments/attachment-thumbnail-data?${q({ attachmentId: state.snapshotId })}`,
    }),
  },
  'POST /api/keelson-static/comments/upload-attachment': {
    who: 'read',
    project: SHIP,
    req: () => {
      const { payload, headers } = multipartFile('note.txt', 'a note');
      return {
        method: 'POST',
        url: `/api/keelson-static/comments/upload-attachment?${q({ projectName: SHIP })}`,
        payload,
        headers,
      };
    },
  },
  'POST /api/keelson-static/comments/add-thread': {
    who: 'read',
    project: SHIP,
    req: () => ({
      method: 'POST',
      url: `/api/keelson-static/comments/add-thread?${commentPlace()}`,
      payload: { comment: { message: 'matrix' } },
    }),
  },
  'POST /api/keelson-static/comments/add-reply': {
    who: 'read',
    project: SHIP,
    req: () => ({
      method: 'POST',
      url: `/api/keelson-static/comments/add-reply?${commentPlace({ threadId: threadOf('admin') })}`,
      payload: { comment: { message: 'matrix reply' } },
    }),
  },
  // Each role changes the state of, and edits, its own thread (the author's rights; §6 rules have their own tests).
  'POST /api/keelson-static/comments/change-state': {
    who: 'read',
    project: SHIP,
    req: (role) => ({
      method: 'POST',
      url: `/api/keelson-static/comments/change-state?${q({ threadId: threadOf(role), newState: 'InProgress' })}`,
    }),
  },
  'POST /api/keelson-static/comments/update': {
    who: 'read',
    project: SHIP,
    req: (role) => ({
      method: 'POST',
      url: '/api/keelson-static/comments/update',
      payload: { comment: { id: threadOf(role), message: `edited by ${role}` } },
    }),
  },
  'POST /api/keelson-static/comments/delete-revision-comments': {
    who: 'delete',
    project: SHIP,
    req: () => ({
      method: 'POST',
      url: `/api/keelson-static/comments/delete-revision-comments?${commentPlace({}, '99')}`,
    }),
  },
  'GET /api/keelson-static/comments/bcf': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-static/comments/bcf?${q({ projectName: SHIP })}` }),
  },
  'POST /api/keelson-static/comments/bcf': {
    who: 'read',
    project: SHIP,
    req: () => {
      const { payload, headers } = multipartFile('minimum.bcf', BCF_MINIMUM);
      return { method: 'POST', url: `/api/keelson-static/comments/bcf?${q({ projectName: SHIP })}`, payload, headers };
    },
  },
  'GET /api/keelson-instance/users/all': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-instance/users/all?${model()}` }),
  },
};
