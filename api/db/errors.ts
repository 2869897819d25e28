/**
 * Database errors the stores turn into API answers, recognised on SQLite and PostgreSQL alike.
 */

/**
 * When `e` is a unique-constraint violation: text naming what collided (SQLite 'users.email'; PostgreSQL
 * the constraint or index name and its detail 'Key (email)=(…) already exists.'); otherwise null.
 */
export function uniqueViolation(e: unknown): string | null {
  if (!(e instanceof Error)) return null;
  const sqlite = /UNIQUE constraint failed: (.*)/.exec(e.message);
  if (sqlite) return sqlite[1];
  const pg = e as Error & { code?: string; constraint?: string; detail?: string };
  if (pg.code === '23505') return `${pg.constraint ?? ''} ${pg.detail ?? ''}`.trim();
  return null;
}

/**
 * Whether `e` is PostgreSQL refusing a text value it cannot store (the NUL character, code 22021/22P05),
 * which SQLite stores: the request gets a 400 instead of a 500.
 */
export function unstorableText(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return code === '22021' || code === '22P05';
}
