/**
 * The authorization matrix (ARCHITECTURE.md "Who may see what"; application.md §6), generated from the
 * server's own route table: every /api route × {anonymous, user without access, user with access,
 * upload:model user, administrator}. The expected answer of each cell follows from the route's declared
 * rule; a route without a rule cannot even be registered, and a route missing from the sample rows (tests/api/matrix/*Rows.ts) fails here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, makeApp } from './helpers';
import { ROLES, expected, setUpMatrix, state, token, type Sample } from './matrix/context';
import { ACCOUNT_ROWS } from './matrix/accountRows';
import { PROJECTS_ROWS } from './matrix/projectsRows';
import { INSTANCE_ROWS } from './matrix/instanceRows';
import { REVIEW_ROWS } from './matrix/reviewRows';
import { ADMIN_ROWS } from './matrix/adminRows';

const SAMPLES_BY_ROUTE: Record<string, Sample> = {
  ...ACCOUNT_ROWS,
  ...PROJECTS_ROWS,
  ...INSTANCE_ROWS,
  ...REVIEW_ROWS,
  ...ADMIN_ROWS,
};

beforeAll(setUpMatrix, 120_000);
afterAll(async () => {
  await state.t?.close();
});

describe('authorization matrix', () => {
  it('refuses to register an /api route that declares no rule', async () => {
    const fresh = await makeApp();
    try {
      expect(() => fresh.app.get('/api/new-route-without-rule', async () => ({}))).toThrow(
        'Route GET /api/new-route-without-rule declares no access rule',
      );
    } finally {
      await fresh.close();
    }
  });

  it('has a sample request for every route of the route table', () => {
    const keys = state.t.app.routeTable.map((r) => `${r.method} ${r.url}`);
    expect(keys.filter((k) => !(k in SAMPLES_BY_ROUTE))).toEqual([]);
    expect(Object.keys(SAMPLES_BY_ROUTE).filter((k) => !keys.includes(k))).toEqual([]);
  });

  it('answers every route × role as its rule says', async () => {
    const cells: string[] = [];
    for (const route of state.t.app.routeTable) {
      const key = `${route.method} ${route.url}`;
      const sample = SAMPLES_BY_ROUTE[key];
      if (!sample) continue;
      for (const role of ROLES) {
        const opts = sample.req(role);
        const headers = { ...(opts.headers ?? {}), ...(role === 'anonymous' ? {} : bearer(token[role])) };
        const res = await state.t.app.inject({ ...opts, method: opts.method ?? 'GET', headers });
        const want = expected(sample.who, role, sample.project);
        const body = res.headers['content-type']?.toString().includes('json') ? res.json() : {};
        if (want === 'allowed') {
          const ok = (sample.ok ?? [200]).includes(res.statusCode);
          const denied =
            res.statusCode === 401 || /^Missing permission|^Project .* not found$/.test(String(body.message));
          cells.push(`${key} ${role}: ${ok && !denied ? 'ok' : `got ${res.statusCode} ${res.body.slice(0, 120)}`}`);
        } else {
          const same = res.statusCode === want.status && body.message === want.message;
          cells.push(
            `${key} ${role}: ${same ? 'ok' : `want ${want.status} '${want.message}', got ${res.statusCode} ${res.body.slice(0, 120)}`}`,
          );
        }
        await sample.after?.(role, res);
      }
    }
    expect(cells.filter((c) => !c.endsWith(': ok'))).toEqual([]);
    expect(cells.length).toBe(state.t.app.routeTable.length * ROLES.length);
  }, 120_000);
});
