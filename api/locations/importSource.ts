/**
 * Adds a project (or a revision) from a project location, for a route or a scheduled update
 * (application.md §4 "Model conversion", §7 add/project-from-directory and add/project-from-server): the
 * source is checked, the user's right to add to that project name enforced, the name reserved, the file
 * copied (a server directory) or pulled (another Keelson server, with the user's rights there) into
 * DATA_DIR/uploads as the revision's original, and the conversion started exactly as for an upload.
 */
import { copyFile, mkdir, rename } from 'node:fs/promises';
import path from 'node:path';
import { Access, enforceProject } from '../access/rules';
import type { User } from '../auth/UserStore';
import type { AppContext } from '../context';
import { isServerSource, splitServerSource } from '../contract/locations';
import type { UploadResponse } from '../contract/projects';
import { startStoredConversion, storedOriginalPath, withdrawStored } from '../conversion/startStored';
import { normaliseProjectName, projectNameFromFile } from '../projects/ProjectStore';
import { downloadRemoteProject } from './remoteServer';

/** What to add and how. */
export interface ImportRequest {
  /** A server path inside a directory location, or 'url->project' of a server location. */
  source: string;
  /** Project name here; default the file's base name or the other server's project name. */
  projectName?: string;
  description: string;
  /** Replace the latest revision instead of adding one. */
  replace: boolean;
  /** A user watches the conversion: it pauses for the model's CAD files (the CAD upload dialog). */
  waitForCadFiles?: boolean;
}

/** Rule of adding: access to an existing project plus upload:model (as the upload route). */
const addRule = Access.write<{ name: string }>((i) => i.name, 'upload:model');

/**
 * Starts the conversion of `req.source` as `user`; returns once the original is stored and the
 * conversion runs.
 * @throws ApiError 400 (path outside the locations, unknown server, bad archive, bad name), 403 (missing
 *   upload:model), 404 (file missing, project not visible, cancelled while
 *   the file was fetched), 409 (already being added), 502 (other server).
 */
export async function importFromLocation(ctx: AppContext, user: User, req: ImportRequest): Promise<UploadResponse> {
  const { locations, conversions, config } = ctx;
  const remote = isServerSource(req.source) ? splitServerSource(req.source) : null;
  const loc = remote ? locations.server(remote.url) : null;
  const file = remote ? null : await locations.resolveFile(req.source);
  const raw = req.projectName?.trim() || (remote ? remote.project : projectNameFromFile(file ?? ''));
  const name = normaliseProjectName(raw);
  if (addRule.kind === 'project') await enforceProject(ctx, user, name, addRule);
  const conversionId = await conversions.reserve(name, user.email);
  // A cancel while the file is fetched withdraws the reservation and ends the download there.
  const withdrawn = conversions.storingSignal(conversionId);
  let stored = '';
  try {
    await mkdir(path.join(config.dataDir, 'uploads'), { recursive: true, mode: 0o700 });
    if (loc && remote) {
      const tmp = storedOriginalPath(config.dataDir, conversionId, 'download.part');
      stored = tmp;
      const fileName = await downloadRemoteProject(
        loc,
        user.email,
        remote.project,
        tmp,
        config.maxUploadMb * 2 ** 20,
        withdrawn,
      );
      stored = storedOriginalPath(config.dataDir, conversionId, fileName);
      await rename(tmp, stored);
    } else if (file) {
      stored = storedOriginalPath(config.dataDir, conversionId, path.basename(file));
      await copyFile(file, stored);
    }
  } catch (e) {
    const part = storedOriginalPath(config.dataDir, conversionId, 'download.part');
    throw await withdrawStored(conversions, conversionId, stored ? [stored, part] : [part], e);
  }
  await startStoredConversion(conversions, config, conversionId, stored, {
    description: req.description,
    replace: req.replace,
    waitForCadFiles: req.waitForCadFiles === true,
  });
  return { conversionId, projectName: name };
}
