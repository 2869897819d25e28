/**
 * Where PostgreSQL's programs are: Debian installs the server's (initdb, pg_ctl) only under
 * /usr/lib/postgresql/{version}/bin; the clients (pg_dump, pg_restore) are on the PATH too.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** Debian's versioned binary directories, newest version first. */
function debianBinDirs(): string[] {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((v) => /^\d+(\.\d+)?$/.test(v))
    .sort((a, b) => Number(b) - Number(a))
    .map((v) => path.join(root, v, 'bin'));
}

/**
 * The path of PostgreSQL program `name` (e.g. 'pg_dump'): PG_BIN_DIR when set, then Debian's newest
 * /usr/lib/postgresql/{version}/bin, then the PATH.
 * @throws Error naming the program and the Debian package when it is nowhere.
 */
export function pgBinary(name: string): string {
  const dirs = [
    ...(process.env.PG_BIN_DIR ? [process.env.PG_BIN_DIR] : []),
    ...debianBinDirs(),
    ...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean),
  ];
  for (const d of dirs) {
    const p = path.join(d, name);
    if (existsSync(p)) return p;
  }
  throw new Error(`PostgreSQL program ${name} not found (install Debian's postgresql package or set PG_BIN_DIR)`);
}
