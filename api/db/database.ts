/**
 * The database through Kysely: SQLite (better-sqlite3, the file DATA_DIR/keelson.sqlite in WAL mode; the
 * default) or PostgreSQL (DATABASE_URL; api/db/postgres.ts), schema created by in-code migrations (Kysely
 * Migrator; api/db/migrations.ts). Table shapes follow application.md §3 (User, Model / project, revisions,
 * conversions).
 */
import Database from 'better-sqlite3';
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { type Dialect, Kysely, Migrator, SqliteDialect, sql, type Generated } from 'kysely';
import type { DatabaseConfig } from '../config';
import { migrationsFor, POSTGRES_MIGRATIONS, SQLITE_MIGRATIONS } from './migrations';
import { ensureDatabase, postgresDialect } from './postgres';

export interface UsersTable {
  id: Generated<number>;
  /** Lower-case, unique. */
  email: string;
  name: string;
  password_hash: string;
  user_type: 'administrator' | 'internal' | 'external';
  /** JSON array of permission identifiers. */
  permissions: string;
  require_password_reset: number;
  created_at: string;
  /** Raised on password change, reset, permission change and logout: older tokens stop working. */
  token_version: Generated<number>;
}

/**
 * Project access of one user (application.md §6 "Project-category permissions give access to projects"):
 * `valid_until` null = permanent, else an ISO time at which the access ends.
 */
export interface ProjectAccessTable {
  user_id: number;
  /** Upper-case project name. */
  project_name: string;
  valid_until: string | null;
}

export interface ProjectsTable {
  id: Generated<number>;
  /** Upper-case, unique. */
  name: string;
  created_at: string;
}

export interface RevisionsTable {
  id: Generated<number>;
  project_id: number;
  number: number;
  description: string;
  last_updated: string;
  /** Directory of the revision's files, relative to DATA_DIR. */
  dir: string;
  /** Base64 PNG 160×120, '' when none. */
  thumbnail: string;
  /** JSON: { modelName, scFile, bytes, triangles, objectCount, schemaVersion, originatingSystem, conversionOptions }. */
  info: string;
  warnings: number;
  /** The conversion that made the revision (its uploads/{id}-* original goes with it); null before 004. */
  conversion_id: string | null;
}

export interface ConversionsTable {
  /** UUID. */
  id: string;
  project_name: string;
  started_by: string;
  /** 1..5, application.md §3 "Progress report". */
  status: number;
  /** 0..100. */
  progress: number;
  message: string;
  error: string | null;
  created_at: string;
  finished_at: string | null;
  /**
   * The server process that holds the conversion (reserved it during the upload, or took its job from the
   * queue); null while the job waits in the queue or after it ended.
   */
  worker: string | null;
  /** Last sign of life of `worker`, ms since the epoch: older than JOB_TIMEOUT_SEC means it died. */
  heartbeat_at: number | null;
  /** How many times a process took the job (a retry after a dead process counts again). */
  attempts: Generated<number>;
  /** JSON ConversionInput of the queued job (paths in DATA_DIR); null while the upload is stored. */
  job: string | null;
}

/** Moments of scheduled project updates already run by some server process (slot: '{jobId}@{ISO time}'). */
export interface ScheduleRunsTable {
  slot: string;
  ran_at: string;
}

/** Saved ship sections shared by all users of a project (viewer.md §3 "Ship section", §7). */
export interface ShipSectionsTable {
  id: Generated<number>;
  /** Upper-case project name. */
  project_name: string;
  /** axis + '=' + upper-cased location; unique per project. */
  name: string;
  axis: 'X' | 'Y' | 'Z';
  location: string;
  /** E-mail of the creator (lower case). */
  created_by: string;
  created_at: string;
}

/**
 * Review comments (viewer.md §3 "Comment"): threads, their replies and the StateChangeMessage entries
 * that record state changes, one row each. Lists (assignees, labels, seen_by) are JSON text.
 */
export interface CommentsTable {
  /** UUID. */
  id: string;
  /** The thread's id (a thread's own). */
  thread_id: string;
  /** Upper-case project name. */
  project_name: string;
  version_name: string;
  revision_number: number;
  type: 'Thread' | 'Reply' | 'StateChangeMessage';
  time_stamp: string;
  /** Author e-mail (lower case) and full name. */
  author_user_name: string;
  author_description: string;
  last_modification_time: string;
  /** JSON [{ userName, description }]. */
  assignees: string;
  /** JSON string[]. */
  labels: string;
  message: string;
  /** JSON string[] of user names (e-mails). */
  seen_by: string;
  /** A COMMENT_STATES name. */
  state: string;
  /** Marker location, m; all null when the comment has no marker. */
  marker_x: number | null;
  marker_y: number | null;
  marker_z: number | null;
  has_modifications: number;
}

/**
 * Comment attachments (viewer.md §3 "Attachment"): the bytes live in DATA_DIR/comment-attachments/{id}
 * (and {id}.thumb.png); `comment_id` is null while an upload is not yet part of a comment.
 */
export interface CommentAttachmentsTable {
  /** UUID. */
  id: string;
  comment_id: string | null;
  project_name: string;
  /** E-mail of the uploader (only they may attach an unattached upload). */
  uploaded_by: string;
  file_name: string;
  file_size: number;
  /** 1 VIEW, 2 FILE. */
  type: number;
  timestamp: string;
  last_modified: string;
  /** JSON AttachmentView (visibleObjects, referredObjects, savedView, workplane, clippingBox, flags). */
  view: string;
  has_thumbnail: number;
  /** Position in its comment's attachment list. */
  position: number;
}

/**
 * Object status options (application.md §3 "Approval status", §4 "Status options editing"): one row each;
 * the default status (objects never given one) and the removed status (objects whose option was deleted)
 * are fixed rows that are not editable.
 */
export interface ApprovalStatusesTable {
  id: Generated<number>;
  /** Unique, case-insensitively. */
  name: string;
  /** '#rrggbb'. */
  color: string;
  is_editable: number;
  is_default: number;
  is_removed: number;
  /** Position in the option list. */
  position: number;
}

/**
 * The status of an object in a project from a revision on (viewer.md §3 "Approval status"): keyed by the
 * part's GUID ('id:' + OCX id when it has none), so it follows the part into later revisions; the status of
 * revision R is the row of the highest revision ≤ R.
 */
export interface ObjectStatusesTable {
  /** Upper-case project name. */
  project_name: string;
  object_key: string;
  revision: number;
  status_id: number;
}

/** Every object status change (who, when, from, to), newest last per object. */
export interface ObjectStatusHistoryTable {
  id: Generated<number>;
  project_name: string;
  object_key: string;
  revision: number;
  /** Status before (null = default) and after, with their names at the time of the change. */
  from_status_id: number | null;
  from_name: string;
  to_status_id: number;
  to_name: string;
  /** E-mail (lower case) and full name of the user who changed it. */
  changed_by: string;
  changed_by_name: string;
  changed_at: string;
}

/**
 * Admin settings (application.md §4 "Other admin state"), one JSON document per key: 'conversion'
 * (ConversionConfig) and 'object-properties' (ObjectPropertiesConfig). A missing key means the defaults.
 */
export interface AdminSettingsTable {
  key: string;
  /** JSON of the setting. */
  value: string;
  updated_at: string;
  /** E-mail of the administrator who saved it last. */
  updated_by: string;
}

/**
 * Scheduled project update jobs (application.md §3 "Project update job"), saved as a whole list:
 * `position` keeps the list's order; lists are JSON text.
 */
export interface ProjectUpdateJobsTable {
  position: number;
  /** The job's sequence number shown as 'Project update job {id}'. */
  id: number;
  /** JSON string[]: server paths of directory locations or 'url->project'. */
  sources: string;
  /** JSON string[] of HH:MM. */
  times_of_day: string;
  /** E-mail of the user the job runs as. */
  keelson_id: string;
  overwrite_if_exists: number;
}

/**
 * Custom model tree tags of a project (viewer.md §3 "Tag"): a tree per ContextRoot; names are unique
 * among the children of one parent (roots: per project). Deleting a tag deletes its subtree.
 */
export interface TagsTable {
  id: Generated<number>;
  /** Upper-case project name. */
  project_name: string;
  name: string;
  type: 'ContextRoot' | 'UnrestrictedTree' | 'ExclusiveTree' | 'Flat';
  parent_id: number | null;
  /** E-mail of the creator (lower case). */
  created_by: string;
  created_at: string;
}

/**
 * Which geometries carry a tag, keyed by the part's GUID, or 'id:' + its OCX id when the file gives
 * none, so that tagging follows a part into later revisions.
 */
export interface TagGeometriesTable {
  tag_id: number;
  geometry_key: string;
  /** The name when tagged (kept for parts missing from the latest revision). */
  geometry_name: string;
  created_at: string;
}

/** The database schema. */
export interface DB {
  approval_statuses: ApprovalStatusesTable;
  object_statuses: ObjectStatusesTable;
  object_status_history: ObjectStatusHistoryTable;
  users: UsersTable;
  projects: ProjectsTable;
  revisions: RevisionsTable;
  conversions: ConversionsTable;
  ship_sections: ShipSectionsTable;
  project_access: ProjectAccessTable;
  comments: CommentsTable;
  comment_attachments: CommentAttachmentsTable;
  admin_settings: AdminSettingsTable;
  project_update_jobs: ProjectUpdateJobsTable;
  schedule_runs: ScheduleRunsTable;
  tags: TagsTable;
  tag_geometries: TagGeometriesTable;
}

/** The SQLite file of a data directory. */
export const sqliteFile = (dataDir: string) => path.join(dataDir, 'keelson.sqlite');

/** Opens DATA_DIR/keelson.sqlite (creating it) in WAL mode with foreign keys on, readable by the server only. */
function sqliteDialect(dataDir: string): Dialect {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // The data directory and database hold password hashes and every model: the server's user only.
  chmodSync(dataDir, 0o700);
  const file = sqliteFile(dataDir);
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  for (const f of [file, `${file}-wal`, `${file}-shm`]) if (existsSync(f)) chmodSync(f, 0o600);
  return new SqliteDialect({ database: sqlite });
}

/**
 * Opens the database and migrates it to the latest schema: DATA_DIR/keelson.sqlite (created if needed) by
 * default, or the PostgreSQL database of `database.url` (created if missing and the role may).
 * @throws Error with the failing migration's name when a migration fails; the driver's error when the
 *   PostgreSQL server cannot be reached.
 */
export async function openDatabase(
  dataDir: string,
  database: DatabaseConfig = { kind: 'sqlite' },
): Promise<Kysely<DB>> {
  let dialect: Dialect;
  if (database.kind === 'postgres') {
    await ensureDatabase(database.url);
    dialect = postgresDialect(database.url);
  } else dialect = sqliteDialect(dataDir);
  const db = new Kysely<DB>({ dialect });
  // Unordered: migrations written in parallel (006, 007, 008) may reach a database in any order.
  const migrations = migrationsFor(database.kind === 'postgres' ? POSTGRES_MIGRATIONS : SQLITE_MIGRATIONS);
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    await db.destroy();
    throw new Error(`Database migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return db;
}

export { sql };
