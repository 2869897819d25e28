/**
 * SQLite through Kysely and better-sqlite3: the file DATA_DIR/keelson.sqlite in WAL
 * mode, schema created by in-code migrations (Kysely Migrator). Table shapes follow application.md §3
 * (User, Model / project, revisions, conversions).
 */
import Database from 'better-sqlite3';
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { Kysely, Migrator, SqliteDialect, sql, type Generated, type Migration } from 'kysely';

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
  tags: TagsTable;
  tag_geometries: TagGeometriesTable;
}

const migrations: Record<string, Migration> = {
  '001_initial': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('users')
        .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('user_type', 'text', (c) => c.notNull())
        .addColumn('permissions', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('require_password_reset', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('projects')
        .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('revisions')
        .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('number', 'integer', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('last_updated', 'text', (c) => c.notNull())
        .addColumn('dir', 'text', (c) => c.notNull())
        .addColumn('thumbnail', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('info', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('warnings', 'integer', (c) => c.notNull().defaultTo(0))
        .addUniqueConstraint('revisions_project_number', ['project_id', 'number'])
        .execute();
      await db.schema
        .createTable('conversions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('project_name', 'text', (c) => c.notNull())
        .addColumn('started_by', 'text', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('progress', 'real', (c) => c.notNull().defaultTo(0))
        .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('error', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('finished_at', 'text')
        .execute();
      await db.schema
        .createIndex('conversions_project')
        .on('conversions')
        .columns(['project_name', 'created_at'])
        .execute();
    },
    async down(db: Kysely<any>) {
      for (const t of ['conversions', 'revisions', 'projects', 'users']) await db.schema.dropTable(t).execute();
    },
  },
  '002_ship_sections': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('ship_sections')
        .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('project_name', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('axis', 'text', (c) => c.notNull())
        .addColumn('location', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('ship_sections_project_name', ['project_name', 'name'])
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('ship_sections').execute();
    },
  },
  '003_access': {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('users')
        .addColumn('token_version', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      // Exactly one administrator: extra ones that an earlier version let in become internal users.
      await sql`UPDATE users SET user_type = 'internal' WHERE user_type = 'administrator'
        AND id > (SELECT MIN(id) FROM users WHERE user_type = 'administrator')`.execute(db);
      await sql`CREATE UNIQUE INDEX users_one_administrator ON users (user_type) WHERE user_type = 'administrator'`.execute(
        db,
      );
      await db.schema
        .createTable('project_access')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('project_name', 'text', (c) => c.notNull())
        .addColumn('valid_until', 'text')
        .addPrimaryKeyConstraint('project_access_pk', ['user_id', 'project_name'])
        .execute();
      await db.schema.createIndex('project_access_project').on('project_access').column('project_name').execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('project_access').execute();
      await sql`DROP INDEX users_one_administrator`.execute(db);
      await db.schema.alterTable('users').dropColumn('token_version').execute();
    },
  },
  '004_revision_conversion': {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('revisions').addColumn('conversion_id', 'text').execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable('revisions').dropColumn('conversion_id').execute();
    },
  },
  '005_comments': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('comments')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('thread_id', 'text', (c) => c.notNull())
        .addColumn('project_name', 'text', (c) => c.notNull())
        .addColumn('version_name', 'text', (c) => c.notNull())
        .addColumn('revision_number', 'integer', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('time_stamp', 'text', (c) => c.notNull())
        .addColumn('author_user_name', 'text', (c) => c.notNull())
        .addColumn('author_description', 'text', (c) => c.notNull())
        .addColumn('last_modification_time', 'text', (c) => c.notNull())
        .addColumn('assignees', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('labels', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('message', 'text', (c) => c.notNull())
        .addColumn('seen_by', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('marker_x', 'real')
        .addColumn('marker_y', 'real')
        .addColumn('marker_z', 'real')
        .addColumn('has_modifications', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createIndex('comments_project')
        .on('comments')
        .columns(['project_name', 'version_name'])
        .execute();
      await db.schema.createIndex('comments_thread').on('comments').column('thread_id').execute();
      await db.schema
        .createTable('comment_attachments')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('comment_id', 'text', (c) => c.references('comments.id').onDelete('cascade'))
        .addColumn('project_name', 'text', (c) => c.notNull())
        .addColumn('uploaded_by', 'text', (c) => c.notNull())
        .addColumn('file_name', 'text', (c) => c.notNull())
        .addColumn('file_size', 'integer', (c) => c.notNull())
        .addColumn('type', 'integer', (c) => c.notNull())
        .addColumn('timestamp', 'text', (c) => c.notNull())
        .addColumn('last_modified', 'text', (c) => c.notNull())
        .addColumn('view', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('has_thumbnail', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createIndex('comment_attachments_comment')
        .on('comment_attachments')
        .column('comment_id')
        .execute();
      await db.schema
        .createIndex('comment_attachments_project')
        .on('comment_attachments')
        .column('project_name')
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('comment_attachments').execute();
      await db.schema.dropTable('comments').execute();
    },
  },
  '006_approval': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('approval_statuses')
        .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('name', 'text', (c) => c.notNull().unique().modifyEnd(sql`COLLATE NOCASE`))
        .addColumn('color', 'text', (c) => c.notNull())
        .addColumn('is_editable', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('is_removed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      // The two fixed statuses and a starting set of editable options an administrator may change.
      await db
        .insertInto('approval_statuses')
        .values([
          { name: 'Not set', color: '#eeeeee', is_editable: 0, is_default: 1, is_removed: 0, position: 0 },
          { name: 'Removed', color: '#9e9e9e', is_editable: 0, is_default: 0, is_removed: 1, position: 1 },
          { name: 'In review', color: '#ffc107', is_editable: 1, is_default: 0, is_removed: 0, position: 2 },
          { name: 'Approved', color: '#4caf50', is_editable: 1, is_default: 0, is_removed: 0, position: 3 },
          { name: 'Rejected', color: '#f44336', is_editable: 1, is_default: 0, is_removed: 0, position: 4 },
        ])
        .execute();
      await db.schema
        .createTable('object_statuses')
        .addColumn('project_name', 'text', (c) => c.notNull())
        .addColumn('object_key', 'text', (c) => c.notNull())
        .addColumn('revision', 'integer', (c) => c.notNull())
        .addColumn('status_id', 'integer', (c) => c.notNull().references('approval_statuses.id'))
        .addPrimaryKeyConstraint('object_statuses_pk', ['project_name', 'object_key', 'revision'])
        .execute();
      await db.schema.createIndex('object_statuses_status').on('object_statuses').column('status_id').execute();
      await db.schema
        .createTable('object_status_history')
        .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('project_name', 'text', (c) => c.notNull())
        .addColumn('object_key', 'text', (c) => c.notNull())
        .addColumn('revision', 'integer', (c) => c.notNull())
        .addColumn('from_status_id', 'integer')
        .addColumn('from_name', 'text', (c) => c.notNull())
        .addColumn('to_status_id', 'integer', (c) => c.notNull())
        .addColumn('to_name', 'text', (c) => c.notNull())
        .addColumn('changed_by', 'text', (c) => c.notNull())
        .addColumn('changed_by_name', 'text', (c) => c.notNull())
        .addColumn('changed_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('object_status_history_object')
        .on('object_status_history')
        .columns(['project_name', 'object_key'])
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('object_status_history').execute();
      await db.schema.dropTable('object_statuses').execute();
      await db.schema.dropTable('approval_statuses').execute();
    },
  },
  '007_admin_settings': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('admin_settings')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('updated_by', 'text', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('admin_settings').execute();
    },
  },
  '008_schedules': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('project_update_jobs')
        .addColumn('position', 'integer', (c) => c.primaryKey())
        .addColumn('id', 'integer', (c) => c.notNull().unique())
        .addColumn('sources', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('times_of_day', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('keelson_id', 'text', (c) => c.notNull())
        .addColumn('overwrite_if_exists', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('project_update_jobs').execute();
    },
  },
  '009_tags': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('tags')
        .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('project_name', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('parent_id', 'integer', (c) => c.references('tags.id').onDelete('cascade'))
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      // Roots have no parent; IFNULL makes their names unique per project too (NULLs never collide).
      await sql`CREATE UNIQUE INDEX tags_sibling_name ON tags (project_name, IFNULL(parent_id, 0), name)`.execute(db);
      await db.schema.createIndex('tags_parent').on('tags').column('parent_id').execute();
      await db.schema
        .createTable('tag_geometries')
        .addColumn('tag_id', 'integer', (c) => c.notNull().references('tags.id').onDelete('cascade'))
        .addColumn('geometry_key', 'text', (c) => c.notNull())
        .addColumn('geometry_name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('tag_geometries_pk', ['tag_id', 'geometry_key'])
        .execute();
      await db.schema.createIndex('tag_geometries_key').on('tag_geometries').column('geometry_key').execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('tag_geometries').execute();
      await db.schema.dropTable('tags').execute();
    },
  },
};

/**
 * Opens (creating if needed) DATA_DIR/keelson.sqlite in WAL mode with foreign keys on, and migrates
 * it to the latest schema.
 * @throws Error with the failing migration's name when a migration fails.
 */
export async function openDatabase(dataDir: string): Promise<Kysely<DB>> {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // The data directory and database hold password hashes and every model: the server's user only.
  chmodSync(dataDir, 0o700);
  const file = path.join(dataDir, 'keelson.sqlite');
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  for (const f of [file, `${file}-wal`, `${file}-shm`]) if (existsSync(f)) chmodSync(f, 0o600);
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }) });
  // Unordered: migrations written in parallel (006, 007, 008) may reach a database in any order.
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
