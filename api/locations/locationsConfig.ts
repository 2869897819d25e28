/**
 * Project locations of the server configuration (application.md §1 "add projects from a location on the
 * server", §3 "Available project location"): directories on this server and other Keelson servers, read
 * from PROJECT_LOCATIONS (JSON) or the JSON file PROJECT_LOCATIONS_FILE; and the other Keelson servers
 * this one trusts to act for their users (TRUSTED_SERVERS, JSON). README "Project locations" shows both.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as v from 'valibot';

/** Shortest accepted shared secret between two servers, characters. */
export const PEER_SECRET_MIN_LENGTH = 16;

const secret = v.pipe(
  v.string(),
  v.minLength(PEER_SECRET_MIN_LENGTH, `secret: at least ${PEER_SECRET_MIN_LENGTH} characters`),
);
const issuer = v.pipe(v.string(), v.regex(/^[\w.-]{1,64}$/, 'issuer: letters, digits, "_", "-", "." (at most 64)'));

const DirectoryEntry = v.object({
  type: v.literal('directory'),
  /** Absolute path, or relative to the working directory. */
  path: v.pipe(v.string(), v.nonEmpty()),
  name: v.optional(v.string()),
});
const ServerEntry = v.object({
  type: v.literal('server'),
  /** Base URL of the other Keelson server (http or https). */
  url: v.pipe(v.string(), v.url(), v.regex(/^https?:\/\//, 'url: http or https')),
  name: v.optional(v.string()),
  /** Who this server says it is to the other one (its TRUSTED_SERVERS entry); default: INSTANCE. */
  issuer: v.optional(issuer),
  /** The secret shared with the other server's TRUSTED_SERVERS entry. */
  secret,
});
const LocationsSchema = v.array(v.variant('type', [DirectoryEntry, ServerEntry]));
const TrustedSchema = v.array(v.object({ issuer, secret }));

/** A directory on this server whose OCX files (and .zip files holding one) can be added as projects. */
export interface DirectoryLocation {
  type: 'directory';
  /** Absolute, normalised path (symbolic links are resolved when files are looked up). */
  path: string;
  /** Shown in the location tree: the configured name or the last path segment. */
  name: string;
}

/** Another Keelson server whose projects can be pulled, acting for the signed-in user there. */
export interface ServerLocation {
  type: 'server';
  /** Base URL without a trailing slash; also the location's identity in job sources ('url->project'). */
  url: string;
  name: string;
  issuer: string;
  secret: string;
}

export type ProjectLocationConfig = DirectoryLocation | ServerLocation;

/** Another server allowed to send tokens for its users (by issuer), with the shared secret. */
export interface TrustedServer {
  issuer: string;
  secret: string;
}

function parseJson(text: string, name: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new Error(`${name} is not valid JSON: ${(e as Error).message}`);
  }
}

function check<S extends v.GenericSchema>(schema: S, value: unknown, name: string): v.InferOutput<S> {
  const r = v.safeParse(schema, value);
  if (!r.success) {
    const where = v.getDotPath(r.issues[0]) ?? '';
    throw new Error(`${name}${where ? ` at ${where}` : ''}: ${r.issues[0].message}`);
  }
  return r.output;
}

/**
 * The project locations from PROJECT_LOCATIONS (JSON text) or PROJECT_LOCATIONS_FILE (a JSON file);
 * [] when neither is set. `instance` is the default issuer of server entries.
 * @throws Error naming the variable and the failing entry.
 */
export function loadProjectLocations(env: NodeJS.ProcessEnv, instance: string): ProjectLocationConfig[] {
  let text = env.PROJECT_LOCATIONS ?? '';
  let name = 'PROJECT_LOCATIONS';
  if (!text && env.PROJECT_LOCATIONS_FILE) {
    name = 'PROJECT_LOCATIONS_FILE';
    text = readFileSync(path.resolve(env.PROJECT_LOCATIONS_FILE), 'utf8');
  }
  if (!text.trim()) return [];
  const entries = check(LocationsSchema, parseJson(text, name), name);
  return entries.map((e): ProjectLocationConfig => {
    if (e.type === 'directory') {
      const p = path.resolve(e.path);
      return { type: 'directory', path: p, name: e.name || path.basename(p) || p };
    }
    const url = e.url.replace(/\/+$/, '');
    return { type: 'server', url, name: e.name || url, issuer: e.issuer ?? instance, secret: e.secret };
  });
}

/** TRUSTED_SERVERS (JSON: [{ issuer, secret }]); [] when unset. @throws Error naming the failing entry. */
export function loadTrustedServers(env: NodeJS.ProcessEnv): TrustedServer[] {
  const text = env.TRUSTED_SERVERS ?? '';
  if (!text.trim()) return [];
  return check(TrustedSchema, parseJson(text, 'TRUSTED_SERVERS'), 'TRUSTED_SERVERS');
}
