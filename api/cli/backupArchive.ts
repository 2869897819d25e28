/**
 * `keelson backup` / `keelson restore`: one archive (tar, compressed by its name: .tar.gz, .tar.zst…) of
 * the database and every file of the data directory (converted revisions, original uploads, comment
 * attachments, the JWT secret). SQLite is copied with its online backup (better-sqlite3 `.backup`, safe
 * while the server runs); PostgreSQL with `pg_dump` (custom format) and restored with `pg_restore`.
 *
 * Archive members: `keelson-backup/manifest.json` ({ format, database, createdAt }), the database as
 * `keelson-backup/keelson.sqlite` or `keelson-backup/keelson.dump`, and the data directory's files at the
 * top (without the live SQLite files and the logs). The database is copied first: a file written while
 * the backup runs may come without its row (the server removes such leftovers on start), never a row
 * without a file that existed when the backup started.
 */
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { ServerConfig } from '../config';
import { sqliteFile } from '../db/database';
import { pgBinary } from '../db/pgBinaries';
import { ensureDatabase } from '../db/postgres';

/** The archive folder of the database copy and the manifest. */
const BACKUP_DIR = 'keelson-backup';
const FORMAT = 1;

/** What `keelson-backup/manifest.json` holds. */
export interface BackupManifest {
  format: number;
  database: 'sqlite' | 'postgres';
  /** ISO time the backup started. */
  createdAt: string;
}

/** Runs `cmd` with `args`; @throws Error with its stderr when it exits with a status not in `ok`. */
function exec(cmd: string, args: string[], ok: number[] = [0]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-4000);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== null && ok.includes(code)) resolve();
      else reject(new Error(`${path.basename(cmd)} failed (exit ${code}): ${stderr.trim()}`));
    });
  });
}

/** `child` lies inside `parent` (or is it). */
const inside = (parent: string, child: string) => {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

/**
 * Writes the backup of `config`'s database and data directory to `archive` (tar; compressed as its name
 * says). Safe while the server runs.
 * @throws Error when the archive would lie inside the data directory, the database is missing, or tar /
 *   pg_dump fail (a half-written archive is removed).
 */
export async function backup(config: ServerConfig, archive: string): Promise<BackupManifest> {
  const out = path.resolve(archive);
  if (inside(config.dataDir, out)) throw new Error('Write the backup outside the data directory (DATA_DIR)');
  const staging = mkdtempSync(path.join(path.dirname(out), '.keelson-backup-'));
  const manifest: BackupManifest = {
    format: FORMAT,
    database: config.database.kind,
    createdAt: new Date().toISOString(),
  };
  try {
    const dir = path.join(staging, BACKUP_DIR);
    mkdirSync(dir);
    if (config.database.kind === 'postgres') {
      await exec(pgBinary('pg_dump'), [
        '--format=custom',
        '--no-owner',
        '--no-privileges',
        '--file',
        path.join(dir, 'keelson.dump'),
        '--dbname',
        config.database.url,
      ]);
    } else {
      const file = sqliteFile(config.dataDir);
      if (!existsSync(file)) throw new Error(`No database at ${file}`);
      const db = new Database(file, { readonly: true, fileMustExist: true });
      try {
        await db.backup(path.join(dir, 'keelson.sqlite'));
      } finally {
        db.close();
      }
    }
    writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
    // Exit status 1: a file changed while read (a running server); the database copy is already consistent.
    await exec(
      'tar',
      [
        '--create',
        '--auto-compress',
        '--file',
        out,
        '--directory',
        staging,
        BACKUP_DIR,
        '--directory',
        config.dataDir,
        '--anchored',
        '--exclude=./keelson.sqlite',
        '--exclude=./keelson.sqlite-*',
        '--exclude=./logs',
        // Local copies of revisions kept in an S3 bucket (api/storage/S3Storage.ts), fetched again when read.
        '--exclude=./cache',
        `--exclude=./${BACKUP_DIR}`,
        '--warning=no-file-changed',
        '--warning=no-file-removed',
        '.',
      ],
      [0, 1],
    );
    chmodSync(out, 0o600); // it holds password hashes and the JWT secret
    return manifest;
  } catch (e) {
    rmSync(out, { force: true });
    throw e;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** Whether the PostgreSQL database of `url` holds any table (besides the catalogs). */
async function hasTables(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const r = await client.query(
      "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema')",
    );
    return r.rows[0].n > 0;
  } finally {
    await client.end();
  }
}

/**
 * Restores `archive` into `config`'s data directory and database, which must be empty (a missing
 * directory or PostgreSQL database is created). The database kind must be the backup's.
 * @throws Error when the target is not empty, the archive is not a Keelson backup or of the other
 *   database kind, or tar / pg_restore fail.
 */
export async function restore(config: ServerConfig, archive: string): Promise<BackupManifest> {
  const file = path.resolve(archive);
  if (!existsSync(file)) throw new Error(`No backup at ${file}`);
  const dataDir = config.dataDir;
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0)
    throw new Error(`The data directory ${dataDir} is not empty: restore into an empty one`);
  if (config.database.kind === 'postgres') {
    await ensureDatabase(config.database.url);
    if (await hasTables(config.database.url))
      throw new Error('The PostgreSQL database is not empty: restore into an empty one');
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const dir = path.join(dataDir, BACKUP_DIR);
  try {
    await exec('tar', ['--extract', '--file', file, '--directory', dataDir, '--no-same-owner']);
    const manifestFile = path.join(dir, 'manifest.json');
    if (!existsSync(manifestFile)) throw new Error(`${file} is not a Keelson backup (no ${BACKUP_DIR}/manifest.json)`);
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as BackupManifest;
    if (manifest.format !== FORMAT) throw new Error(`Unknown backup format ${manifest.format}`);
    if (manifest.database !== config.database.kind)
      throw new Error(
        `The backup holds a ${manifest.database} database; this server is configured for ${config.database.kind} (DATABASE_URL)`,
      );
    if (config.database.kind === 'postgres') {
      await exec(pgBinary('pg_restore'), [
        '--no-owner',
        '--no-privileges',
        '--exit-on-error',
        '--single-transaction',
        '--dbname',
        config.database.url,
        path.join(dir, 'keelson.dump'),
      ]);
    } else {
      renameSync(path.join(dir, 'keelson.sqlite'), sqliteFile(dataDir));
      chmodSync(sqliteFile(dataDir), 0o600);
    }
    return manifest;
  } catch (e) {
    // Leave the target empty again so that a corrected restore can run.
    for (const f of readdirSync(dataDir)) rmSync(path.join(dataDir, f), { recursive: true, force: true });
    throw e;
  } finally {
    rmSync(dir, { recursive: true, force: true });
    chmodSync(dataDir, 0o700);
  }
}
