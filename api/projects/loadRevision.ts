/**
 * Loading a revision's parsed files for the instance calls (viewer.md §7), shared by the model, reference
 * system and section routes, and the mm → m conversions of their answers (the API speaks metres).
 */
import type { FastifyInstance } from 'fastify';
import type { Box3Tuple, RefPlane } from '../../engine/model/types';
import { ApiError } from '../errors';
import { normaliseProjectName } from './ProjectStore';
import type { RevisionData } from './RevisionCache';

/** A loaded revision: upper-case project name, revision number, directory, stamp and parsed data. */
export interface LoadedRevision {
  name: string;
  number: number;
  dir: string;
  stamp: string;
  scFile: string;
  data: RevisionData;
}

/**
 * Loads a revision's parsed files through the app's RevisionCache.
 * @throws ApiError 404 (project / revision), 500 'Revision N of project P cannot be read'.
 */
export async function loadRevision(
  app: FastifyInstance,
  modelName: string,
  revision: number | 'latest',
): Promise<LoadedRevision> {
  const { projects, revisionCache } = app.ctx;
  const name = normaliseProjectName(modelName);
  const row = await projects.revision(name, revision);
  const dir = await projects.revisionDir(row);
  const info = JSON.parse(row.info || '{}') as { scFile?: string };
  try {
    const data = await revisionCache.get(dir, row.last_updated);
    return { name, number: row.number, dir, stamp: row.last_updated, scFile: info.scFile ?? `${name}.sc`, data };
  } catch (e) {
    app.log.error({ err: e, project: name, revision: row.number }, 'revision unreadable');
    throw new ApiError('RevisionUnreadable', 500, `Revision ${row.number} of project ${name} cannot be read`, 'error');
  }
}

/**
 * The revision's section index (its `.sc` geometry) through the app's RevisionCache.
 * @throws ApiError 500 'Revision N of project P cannot be read'.
 */
export async function loadSectionIndex(app: FastifyInstance, rev: LoadedRevision) {
  try {
    return await app.ctx.revisionCache.sectionIndex(rev.dir, rev.stamp, rev.scFile);
  } catch (e) {
    app.log.error({ err: e, project: rev.name, revision: rev.number }, 'revision geometry unreadable');
    throw new ApiError(
      'RevisionUnreadable',
      500,
      `Revision ${rev.number} of project ${rev.name} cannot be read`,
      'error',
    );
  }
}

/** A reference plane with its coordinate in metres. */
export const planeToMetres = (p: RefPlane) => ({
  id: p.id,
  name: p.name,
  coordinate: p.coordinate / 1000,
  number: p.number,
});

/** Millimetres → metres for a box (null stays null; an empty box becomes zeros). */
export function boxToMetres(b: Box3Tuple | null): Box3Tuple | null {
  if (!b) return null;
  return b.map((x) => (Number.isFinite(x) ? x / 1000 : 0)) as Box3Tuple;
}
