/**
 * The schema's versioned migrations, one list for SQLite and PostgreSQL (application.md §3 tables).
 */
import { type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely, type Migration, sql } from 'kysely';

/** Column types and clauses whose SQL differs between SQLite and PostgreSQL. */
export interface MigrationDialect {
  kind: 'sqlite' | 'postgres';
  /** Type of an auto-numbered integer id: SQLite INTEGER (AUTOINCREMENT), PostgreSQL serial. */
  serial: 'integer' | 'serial';
  /** Clauses of an auto-numbered id column. */
  primaryId: (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;
  /** A double-precision float (SQLite REAL is 8 bytes; PostgreSQL real is 4). */
  real: 'real' | 'double precision';
  /** A 64-bit integer (byte counts); SQLite INTEGER is 64-bit already. */
  bigint: 'integer' | 'bigint';
  /** NOT NULL, unique ignoring case (SQLite COLLATE NOCASE; PostgreSQL adds a lower() index). */
  caseInsensitiveUnique: (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;
  /**
   * The `rowid` column that orders rows by insertion: SQLite has it on every table; PostgreSQL gets an
   * identity column of that name.
   */
  insertionOrder: (t: CreateTableBuilder<any, any>) => CreateTableBuilder<any, any>;
}

/** The migration dialect of SQLite. */
export const SQLITE_MIGRATIONS: MigrationDialect = {
  kind: 'sqlite',
  serial: 'integer',
  primaryId: (c) => c.primaryKey().autoIncrement(),
  real: 'real',
  bigint: 'integer',
  caseInsensitiveUnique: (c) => c.notNull().unique().modifyEnd(sql`COLLATE NOCASE`),
  insertionOrder: (t) => t,
};

/** The migration dialect of PostgreSQL. */
export const POSTGRES_MIGRATIONS: MigrationDialect = {
  kind: 'postgres',
  serial: 'serial',
  primaryId: (c) => c.primaryKey(),
  real: 'double precision',
  bigint: 'bigint',
  caseInsensitiveUnique: (c) => c.notNull(),
  insertionOrder: (t) => t.addColumn('rowid', 'bigint', (c) => c.notNull().generatedByDefaultAsIdentity()),
};

/**
 * Versioned schema migrations (Kysely Migrator) for SQLite and PostgreSQL. Each keeps its name and its
 * SQLite statements for ever (existing data files have run them); where SQLite and PostgreSQL SQL differ
 * the dialect `d` picks the statement, so both databases get the same tables, columns and constraints.
 */
export function migrationsFor(d: MigrationDialect): Record<string, Migration> {
  return {
    '001_initial': {
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('users')
          .addColumn('id', d.serial, d.primaryId)
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
          .addColumn('id', d.serial, d.primaryId)
          .addColumn('name', 'text', (c) => c.notNull().unique())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('revisions')
          .addColumn('id', d.serial, d.primaryId)
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
          .addColumn('progress', d.real, (c) => c.notNull().defaultTo(0))
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
          .addColumn('id', d.serial, d.primaryId)
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
          .addColumn('marker_x', d.real)
          .addColumn('marker_y', d.real)
          .addColumn('marker_z', d.real)
          .addColumn('has_modifications', 'integer', (c) => c.notNull().defaultTo(0))
          .$call(d.insertionOrder)
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
          .addColumn('file_size', d.bigint, (c) => c.notNull())
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
          .addColumn('id', d.serial, d.primaryId)
          .addColumn('name', 'text', d.caseInsensitiveUnique)
          .addColumn('color', 'text', (c) => c.notNull())
          .addColumn('is_editable', 'integer', (c) => c.notNull().defaultTo(1))
          .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('is_removed', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        // PostgreSQL has no NOCASE collation: a unique index on the lower-cased name keeps names unique.
        if (d.kind === 'postgres')
          await sql`CREATE UNIQUE INDEX approval_statuses_name ON approval_statuses (lower(name))`.execute(db);
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
          .addColumn('id', d.serial, d.primaryId)
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
          .addColumn('id', d.serial, d.primaryId)
          .addColumn('project_name', 'text', (c) => c.notNull())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('type', 'text', (c) => c.notNull())
          .addColumn('parent_id', 'integer', (c) => c.references('tags.id').onDelete('cascade'))
          .addColumn('created_by', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .execute();
        // Roots have no parent; IFNULL makes their names unique per project too (NULLs never collide).
        if (d.kind === 'sqlite')
          await sql`CREATE UNIQUE INDEX tags_sibling_name ON tags (project_name, IFNULL(parent_id, 0), name)`.execute(
            db,
          );
        else
          await sql`CREATE UNIQUE INDEX tags_sibling_name ON tags (project_name, COALESCE(parent_id, 0), name)`.execute(
            db,
          );
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
    // The socket.io PostgreSQL adapter's table for pushes over NOTIFY's 8000-byte limit (api/realtime.ts
    // ADAPTER_TABLE; the shape the adapter expects). SQLite runs one process and needs none.
    '010_realtime_attachments': {
      async up(db: Kysely<any>) {
        if (d.kind !== 'postgres') return;
        await sql`CREATE TABLE IF NOT EXISTS socket_io_attachments (
          id bigserial UNIQUE, created_at timestamptz DEFAULT NOW(), payload bytea)`.execute(db);
      },
      async down(db: Kysely<any>) {
        if (d.kind === 'postgres') await sql`DROP TABLE IF EXISTS socket_io_attachments`.execute(db);
      },
    },
    '011_conversion_jobs': {
      async up(db: Kysely<any>) {
        // Rows left unfinished by a process of an older version cannot finish: they would hold the new
        // one-unfinished-conversion-per-project index.
        await db
          .updateTable('conversions')
          .set({
            status: 4,
            message: 'The server stopped during the conversion',
            error: 'The server stopped during the conversion',
            finished_at: new Date().toISOString(),
          })
          .where('finished_at', 'is', null)
          .execute();
        await db.schema.alterTable('conversions').addColumn('worker', 'text').execute();
        await db.schema.alterTable('conversions').addColumn('heartbeat_at', d.bigint).execute();
        await db.schema
          .alterTable('conversions')
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        await db.schema.alterTable('conversions').addColumn('job', 'text').execute();
        // One unfinished conversion per project across every server process (the 409 of a second one).
        await sql`CREATE UNIQUE INDEX conversions_one_running ON conversions (project_name) WHERE finished_at IS NULL`.execute(
          db,
        );
        await db.schema
          .createTable('schedule_runs')
          .addColumn('slot', 'text', (c) => c.primaryKey())
          .addColumn('ran_at', 'text', (c) => c.notNull())
          .execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.dropTable('schedule_runs').execute();
        await sql`DROP INDEX conversions_one_running`.execute(db);
        for (const c of ['job', 'attempts', 'heartbeat_at', 'worker'])
          await db.schema.alterTable('conversions').dropColumn(c).execute();
      },
    },
  };
}
