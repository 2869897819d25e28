/**
 * The object approval status calls of application.md §7 "Object status" (viewer.md §7 "Geometry approval"),
 * typed by api/contract/approval.ts. Objects are named by OCX id. Failures go through the central handling
 * of ui/api/client.ts with the messages of application.md §8 "Messages".
 */
import {
  ApprovalHistorySchema,
  ApprovalStatusCountListSchema,
  ApprovalStatusIdResponseSchema,
  ApprovalStatusListSchema,
  ApprovalStatusOptionsSchema,
  ApprovalStatusSchema,
  ApprovalStatusUsageSchema,
  GeometryApprovalStatusListSchema,
  MAX_APPROVAL_GEOMETRIES,
  type ApprovalStatusBody,
} from '../../api/contract';
import { request } from './client';

const BASE = '/api/viewer/approval-status';
const GEO = '/api/viewer/geometry/approval-status';
const SUFFIX = 'Try again later or contact your organization administrator.';

/** The error texts of application.md §8 "Messages" (status options and object status). */
export const APPROVAL_MESSAGES = {
  readOptions: `Unable to read status options. ${SUFFIX}`,
  addOption: `Unable to add status option. ${SUFFIX}`,
  renameOption: `Unable to rename status option. ${SUFFIX}`,
  colorOption: `Unable to change status color. ${SUFFIX}`,
  deleteOption: `Unable to delete status option. ${SUFFIX}`,
  readObject: `Unable to read object status. ${SUFFIX}`,
  changeObject: `Unable to change object status. ${SUFFIX}`,
} as const;

/** GET /all: every option (the fixed default and removed statuses too), in order. */
export const getStatusOptions = () =>
  request('GET', `${BASE}/all`, ApprovalStatusListSchema, { message: APPROVAL_MESSAGES.readOptions });

/** GET /options: the default and removed statuses' ids and the order. */
export const getStatusOptionsMeta = () =>
  request('GET', `${BASE}/options`, ApprovalStatusOptionsSchema, { message: APPROVAL_MESSAGES.readOptions });

/** GET ?id: one option. */
export const getStatusOption = (id: number) =>
  request('GET', BASE, ApprovalStatusSchema, { query: { id }, message: APPROVAL_MESSAGES.readOptions });

/** GET /usage?id: how many object statuses use the option (admin). */
export const getStatusOptionUsage = (id: number) =>
  request('GET', `${BASE}/usage`, ApprovalStatusUsageSchema, { query: { id }, message: APPROVAL_MESSAGES.readOptions });

/** POST: creates an option; the new id. */
export const addStatusOption = (body: ApprovalStatusBody) =>
  request('POST', BASE, ApprovalStatusIdResponseSchema, { body, message: APPROVAL_MESSAGES.addOption });

/** PUT ?id: renames or recolours an option (`message` tells which failed). */
export const updateStatusOption = (id: number, body: ApprovalStatusBody, message: string) =>
  request('PUT', BASE, ApprovalStatusSchema, { query: { id }, body, message });

/** DELETE ?id: deletes an option; its objects get the removed status. */
export const deleteStatusOption = (id: number) =>
  request('DELETE', BASE, null, { query: { id }, message: APPROVAL_MESSAGES.deleteOption });

/**
 * Runs `call` on `ids` in slices of MAX_APPROVAL_GEOMETRIES (the server's bound per call) one after the
 * other and joins the answers in order, so a selection of any size is read and changed whole.
 */
async function inSlices<T>(ids: string[], call: (slice: string[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < ids.length || i === 0; i += MAX_APPROVAL_GEOMETRIES)
    out.push(...(await call(ids.slice(i, i + MAX_APPROVAL_GEOMETRIES))));
  return out;
}

/** POST ?projectName,revision: the statuses of `ids` (any number; sliced per call). */
export const readObjectStatuses = (projectName: string, revision: number, ids: string[], signal?: AbortSignal) =>
  inSlices(ids, (body) =>
    request('POST', GEO, GeometryApprovalStatusListSchema, {
      query: { projectName, revision },
      body,
      message: APPROVAL_MESSAGES.readObject,
      signal,
    }),
  );

/** POST ?projectName,revision,approvalStatusId: gives `ids` (any number; sliced per call) the status; their statuses after. */
export const changeObjectStatuses = (projectName: string, revision: number, approvalStatusId: number, ids: string[]) =>
  inSlices(ids, (body) =>
    request('POST', GEO, GeometryApprovalStatusListSchema, {
      query: { projectName, revision, approvalStatusId },
      body,
      message: APPROVAL_MESSAGES.changeObject,
    }),
  );

/** GET /all?projectName,revision: every part whose status is not the default. */
export const getAllObjectStatuses = (projectName: string, revision: number) =>
  request('GET', `${GEO}/all`, GeometryApprovalStatusListSchema, {
    query: { projectName, revision },
    message: APPROVAL_MESSAGES.readObject,
  });

/** GET /revision-geometry-approval-status-count: parts of the revision per status. */
export const getStatusCounts = (projectName: string, revision: number) =>
  request('GET', `${GEO}/revision-geometry-approval-status-count`, ApprovalStatusCountListSchema, {
    query: { projectName, revision },
    message: APPROVAL_MESSAGES.readObject,
  });

/** GET /history: one object's recorded changes, oldest first. */
export const getObjectStatusHistory = (projectName: string, revision: number, geometry: string) =>
  request('GET', `${GEO}/history`, ApprovalHistorySchema, {
    query: { projectName, revision, geometry },
    message: APPROVAL_MESSAGES.readObject,
  });
