/**
 * The database switch (DATABASE_URL, api/config.ts) and the places where SQLite and PostgreSQL differ
 * (api/db/migrations.ts, api/db/errors.ts). Runs on SQLite in 'unit' and on PostgreSQL in 'api-pg'.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseConfig } from '../../api/config';
import { uniqueViolation } from '../../api/db/errors';
import { makeApp, type TestApp } from './helpers';

describe('DATABASE_URL', () => {
  it('selects SQLite when unset, empty or "sqlite", PostgreSQL for a postgres:// URL', () => {
    expect(databaseConfig(undefined)).toEqual({ kind: 'sqlite' });
    expect(databaseConfig(' ')).toEqual({ kind: 'sqlite' });
    expect(databaseConfig('sqlite')).toEqual({ kind: 'sqlite' });
    const url = 'postgresql://keelson:pw@db.yard.local:5432/keelson';
    expect(databaseConfig(url)).toEqual({ kind: 'postgres', url });
    expect(databaseConfig('postgres:///keelson?host=/var/run/postgresql')).toMatchObject({ kind: 'postgres' });
  });

  it('refuses another URL naming the variable, without echoing it (it may hold a password)', () => {
    expect(() => databaseConfig('mysql://root:hunter2@db/keelson')).toThrow(/DATABASE_URL/);
    expect(() => databaseConfig('mysql://root:hunter2@db/keelson')).toThrow(/^((?!hunter2).)*$/);
  });
});

describe('the same schema rules on both databases', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('keeps status option names unique ignoring case', async () => {
    const insert = (name: string) =>
      t.app.ctx.db
        .insertInto('approval_statuses')
        .values({ name, color: '#123456', is_editable: 1, is_default: 0, is_removed: 0, position: 9 })
        .execute();
    const err = await insert('APPROVED').then(
      () => null,
      (e: unknown) => e,
    );
    expect(uniqueViolation(err)).not.toBeNull();
    await insert('Approved twice');
  });

  it('keeps root tag names unique per project although roots have no parent', async () => {
    const root = (name: string) =>
      t.app.ctx.db
        .insertInto('tags')
        .values({
          project_name: 'SHIP',
          name,
          type: 'ContextRoot',
          parent_id: null,
          created_by: 'a@yard.com',
          created_at: new Date().toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
    const first = await root('Review');
    expect(typeof first.id).toBe('number');
    expect(uniqueViolation(await root('Review').catch((e: unknown) => e))).not.toBeNull();
    expect((await root('Other')).id).toBeGreaterThan(first.id);
  });

  it('counts as numbers and keeps marker coordinates to double precision', async () => {
    const n = await t.app.ctx.db
      .selectFrom('approval_statuses')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(typeof n.n).toBe('number');
    const row = {
      id: 'c-1',
      thread_id: 'c-1',
      project_name: 'SHIP',
      version_name: 'MAIN',
      revision_number: 1,
      type: 'Thread' as const,
      time_stamp: '2026-01-01T00:00:00.000Z',
      author_user_name: 'a@yard.com',
      author_description: 'A',
      last_modification_time: '2026-01-01T00:00:00.000Z',
      assignees: '[]',
      labels: '[]',
      message: 'm',
      seen_by: '[]',
      state: 'Open',
      marker_x: 123.456789012345,
      marker_y: -0.1,
      marker_z: 1e-7,
      has_modifications: 0,
    };
    await t.app.ctx.db.insertInto('comments').values(row).execute();
    const back = await t.app.ctx.db
      .selectFrom('comments')
      .select(['marker_x', 'marker_y', 'marker_z'])
      .where('id', '=', 'c-1')
      .executeTakeFirstOrThrow();
    expect(back).toEqual({ marker_x: 123.456789012345, marker_y: -0.1, marker_z: 1e-7 });
  });

  it('answers a text with the NUL character: stored on SQLite, 400 on PostgreSQL (which cannot store it)', async () => {
    const r = await t.app.inject({
      method: 'POST',
      url: '/api/auth/viewer/default/register',
      payload: {
        email: 'nul@yard.com',
        password: 'secret-password',
        fullName: 'Nul\u0000Name',
        requirePasswordReset: false,
        adminEmail: '',
        registerAdmin: false,
      },
    });
    if (t.config.database.kind === 'postgres') {
      expect(r.statusCode, r.body).toBe(400);
      expect(r.json().message).toBe('Text must not contain the NUL character');
      expect(await t.app.ctx.users.find('nul@yard.com')).toBeNull();
    } else {
      expect(r.statusCode, r.body).toBe(200);
      expect((await t.app.ctx.users.find('nul@yard.com'))?.name).toBe('Nul\u0000Name');
    }
  });
});
