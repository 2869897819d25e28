/**
 * The configured project locations (application.md §3 "Available project location"): the tree of
 * project files in each server directory, the projects of each other Keelson server as the user sees
 * them there, and the checks that keep every path inside the configured directories (no '..', symbolic
 * links resolved before the check).
 */
import { realpath, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  type AvailableProjectLocation,
  isServerSource,
  type LocationNode,
  SERVER_SOURCE_SEPARATOR,
  splitServerSource,
} from '../contract/locations';
import { Errors } from '../errors';
import type { DirectoryLocation, ProjectLocationConfig, ServerLocation } from './locationsConfig';
import { listRemoteProjects } from './remoteServer';

/** File types a location may hold as projects (as uploads; a .zip holds one OCX file). */
export const LOCATION_FILE_EXTENSIONS = ['.3docx', '.ocx', '.xml', '.zip'];
/** Deepest directory level listed below a location. */
const MAX_DEPTH = 8;
/** Most nodes listed per directory location (a huge share stays answerable). */
const MAX_NODES = 5000;

/** True when `child` is `root` or inside it (both absolute and normalised). */
function inside(root: string, child: string): boolean {
  const rel = path.relative(root, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** Lists, resolves and checks project locations. */
export class ProjectLocations {
  constructor(readonly locations: readonly ProjectLocationConfig[]) {}

  /** The directory locations. */
  get directories(): DirectoryLocation[] {
    return this.locations.filter((l): l is DirectoryLocation => l.type === 'directory');
  }

  /**
   * The tree of every location: directories with the project files below them (directories without
   * any left out), servers with the projects `email` may see there. A server that cannot be asked is
   * listed with no projects and `error`.
   */
  async tree(email: string): Promise<AvailableProjectLocation[]> {
    return Promise.all(
      this.locations.map(async (loc): Promise<AvailableProjectLocation> => {
        if (loc.type === 'directory') {
          const budget = { left: MAX_NODES };
          const root = await realpath(loc.path).catch(() => null);
          const projects = root ? await this.scan(root, loc.path, root, 0, budget) : [];
          return { location: loc.path, locationType: 'Directory', projects };
        }
        try {
          const names = await listRemoteProjects(loc, email);
          return {
            location: loc.url,
            locationType: 'Server',
            projects: names.map((n) => {
              const filePath = `${loc.url}${SERVER_SOURCE_SEPARATOR}${n}`;
              return { id: filePath, name: n, filePath, children: [] };
            }),
          };
        } catch (e) {
          return { location: loc.url, locationType: 'Server', projects: [], error: (e as Error).message };
        }
      }),
    );
  }

  /**
   * Project files below `dir` (a path as configured, shown to users) whose real path is `real`; entries whose
   * real path leaves `root` (links leading out) are left out.
   */
  private async scan(
    root: string,
    dir: string,
    real: string,
    depth: number,
    budget: { left: number },
  ): Promise<LocationNode[]> {
    if (depth > MAX_DEPTH) return [];
    const entries = await readdir(real, { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => a.name.localeCompare(b.name));
    const out: LocationNode[] = [];
    for (const e of entries) {
      if (budget.left <= 0) break;
      if (e.name.startsWith('.')) continue;
      const full = path.join(dir, e.name);
      const target = e.isSymbolicLink()
        ? await realpath(path.join(real, e.name)).catch(() => null)
        : path.join(real, e.name);
      if (!target || !inside(root, target)) continue;
      const st = await stat(target).catch(() => null);
      if (!st) continue;
      if (st.isDirectory()) {
        const children = await this.scan(root, full, target, depth + 1, budget);
        if (children.length > 0) {
          budget.left--;
          out.push({ id: full, name: e.name, filePath: full, children });
        }
      } else if (st.isFile() && LOCATION_FILE_EXTENSIONS.includes(path.extname(e.name).toLowerCase())) {
        budget.left--;
        out.push({ id: full, name: e.name, filePath: full, children: [] });
      }
    }
    return out;
  }

  /**
   * The real path of a project file given by its server path, when it lies inside a directory location.
   * @throws ApiError 400 'The path is not inside a configured project location' (relative, '..', outside
   *   after resolving links, not a project file type); 404 when no such file exists.
   */
  async resolveFile(projectPath: string): Promise<string> {
    if (!path.isAbsolute(projectPath) || projectPath.includes('\0') || projectPath.split(/[\\/]/).includes('..'))
      throw Errors.pathOutsideLocations();
    const lexical = path.normalize(projectPath);
    if (!this.directories.some((d) => inside(d.path, lexical))) throw Errors.pathOutsideLocations();
    const real = await realpath(lexical).catch(() => null);
    if (!real) throw Errors.projectFileNotFound(path.basename(lexical));
    let allowed = false;
    for (const d of this.directories) {
      const root = await realpath(d.path).catch(() => null);
      if (root && inside(root, real)) allowed = true;
    }
    if (!allowed || !LOCATION_FILE_EXTENSIONS.includes(path.extname(real).toLowerCase()))
      throw Errors.pathOutsideLocations();
    const st = await stat(real);
    if (!st.isFile()) throw Errors.projectFileNotFound(path.basename(lexical));
    return real;
  }

  /**
   * Checks a job source without touching the file: a server source names a configured server; a path is
   * absolute, without '..', lexically inside a directory location.
   * @throws ApiError 400 as resolveFile and server().
   */
  checkSource(source: string): void {
    if (isServerSource(source)) {
      this.server(splitServerSource(source).url);
      return;
    }
    if (!path.isAbsolute(source) || source.includes('\0') || source.split(/[\\/]/).includes('..'))
      throw Errors.pathOutsideLocations();
    if (!this.directories.some((d) => inside(d.path, path.normalize(source)))) throw Errors.pathOutsideLocations();
  }

  /** The server location of `url` (trailing slashes ignored). @throws ApiError 400 when not configured. */
  server(url: string): ServerLocation {
    const want = url.trim().replace(/\/+$/, '');
    const loc = this.locations.find((l): l is ServerLocation => l.type === 'server' && l.url === want);
    if (!loc) throw Errors.unknownServerLocation(want);
    return loc;
  }
}
