/** Database mode, the SPA fallback, the demo ship switch and the CLI helpers. */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../api/app';
import { parseArgs, progressBar } from '../../api/cli/import';
import { loadConfig } from '../../api/config';
import { startDemoShipImport } from '../../api/demo';
import { readRevisionObjects } from '../../engine/node/package/writeRevision';
import { boxStl, writeCadShip } from '../support/cadShip';
import { makeApp, type TestApp } from './helpers';

let t: TestApp | null = null;
const tmp: string[] = [];
afterEach(async () => {
  await t?.close();
  t = null;
  for (const d of tmp.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tempDir = () => {
  const d = mkdtempSync(path.join(os.tmpdir(), 'keelson-misc-'));
  tmp.push(d);
  return d;
};

describe('database', () => {
  it('keeps the SQLite file under DATA_DIR in WAL mode (or the tables in PostgreSQL when configured)', async () => {
    t = await makeApp();
    const expected = ['users', 'projects', 'revisions', 'conversions'];
    if (t.config.database.kind === 'postgres') {
      expect(existsSync(path.join(t.config.dataDir, 'keelson.sqlite'))).toBe(false);
      const { rows } = await sql<{ name: string }>`SELECT table_name AS name FROM information_schema.tables
        WHERE table_schema = 'public'`.execute(t.app.ctx.db);
      expect(rows.map((r) => r.name)).toEqual(expect.arrayContaining(expected));
      return;
    }
    const db = new Database(path.join(t.config.dataDir, 'keelson.sqlite'), { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type='table'")
      .all()
      .map((r) => (r as { name: string }).name);
    expect(tables).toEqual(expect.arrayContaining(expected));
    db.close();
  });
});

describe('built UI', () => {
  it('serves files and falls back to index.html outside /api', async () => {
    const ui = tempDir();
    mkdirSync(path.join(ui, 'assets'));
    writeFileSync(path.join(ui, 'index.html'), '<!doctype html><title>Keelson</title>');
    writeFileSync(path.join(ui, 'assets', 'app.js'), 'console.log(1)');
    const dataDir = tempDir();
    const app = await buildApp(
      loadConfig({}, { dataDir, uiDir: ui, demoShip: false, useWorkerThreads: false, jwtSecret: 'x' }),
      { serveUi: true },
    );
    try {
      expect((await app.inject({ url: '/assets/app.js' })).body).toBe('console.log(1)');
      const deep = await app.inject({ url: '/SOME_MODEL?revision=2' });
      expect(deep.statusCode).toBe(200);
      expect(deep.body).toContain('<title>Keelson</title>');
      const api = await app.inject({ url: '/api/no-such-route' });
      expect(api.statusCode).toBe(404);
      expect(api.headers['content-type']).toMatch(/json/);
      expect((await app.inject({ url: '/api/auth/nothing' })).statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });
});

describe('demo ship', () => {
  it('is skipped when DEMO_SHIP is false or projects exist', async () => {
    t = await makeApp({ demoShip: false });
    expect(await startDemoShipImport(t.app.ctx)).toBeNull();
  });
});

describe('CLI helpers', () => {
  it('parses arguments and refuses bad ones', () => {
    expect(parseArgs(['a.3docx', '--name', 'Ship', '--replace'])).toEqual({
      file: 'a.3docx',
      name: 'Ship',
      replace: true,
      description: '',
      cadDir: undefined,
      cadComponents: false,
    });
    expect(parseArgs(['a.3docx', '--cad-dir', 'cad', '--cad-components'])).toMatchObject({
      cadDir: 'cad',
      cadComponents: true,
    });
    expect(() => parseArgs([])).toThrow('FILE is required');
    expect(() => parseArgs(['a', '--bogus'])).toThrow('Unknown option --bogus');
    expect(() => parseArgs(['a', '--name'])).toThrow('--name needs a value');
  });

  it('imports a ship with its CAD components taken from the files beside it', async () => {
    const dir = tempDir();
    const dataDir = path.join(dir, 'data');
    // The generator's equipment names three CAD files; two STL boxes are put beside the OCX file, one is missing.
    const file = path.join(dir, 'ship.3docx');
    await writeCadShip(file, 'CLICAD', {
      'as1-oc-214.stp': 'pump.stl',
      'cube-10mm.igs': 'hatch.stl',
      'IfcOpenHouse_IFC4.ifc': 'deckhouse.stl',
    });
    writeFileSync(path.join(dir, 'pump.stl'), boxStl([400, 300, 200], [1000, 2000, 3000]));
    writeFileSync(path.join(dir, 'hatch.stl'), boxStl([2000, 1000, 50], [5000, 0, 10000]));
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'api/cli/import.ts', file, '--name', 'CLICAD', '--cad-components'],
      {
        cwd: path.resolve(__dirname, '../..'),
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
        encoding: 'utf8',
      },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toContain('2 found, missing: deckhouse.stl');
    const revDir = path.join(dataDir, 'projects', 'CLICAD', 'rev-1');
    const cad = (await readRevisionObjects(revDir)).objects.filter((o) => o.type === 'CAD COMPONENT');
    // One component per object of the file that names a CAD file.
    const referring = (readFileSync(file, 'utf8').match(/<ocx:ExternalGeometryRef\b/g) ?? []).length;
    expect(cad).toHaveLength(referring);
    expect(cad.find((o) => o.bounds?.[0] === 800)?.bounds).toEqual([800, 1850, 2900, 1200, 2150, 3100]);
  });

  it('draws a bar proportional to the progress', () => {
    const bar = progressBar(50, 'half', 10);
    expect(bar).toBe('[█████░░░░░]  50.0 % half');
    expect(progressBar(150, '', 4)).toContain('[████] 100.0 %');
  });
});

const hasGenerator = ['index.ts', 'index.js'].some((f) =>
  existsSync(path.resolve(__dirname, '../../tools/generator', f)),
);

describe('demo ship import', () => {
  it.skipIf(!hasGenerator)(
    'imports DEMO_SHIP on first start through the conversion path, once',
    async () => {
      t = await makeApp({ demoShip: true });
      const id = await startDemoShipImport(t.app.ctx);
      expect(id).not.toBeNull();
      const final = await t.app.ctx.conversions.wait(id!);
      expect(final.status === 2 || final.status === 5, final.message).toBe(true);
      const rev = await t.app.ctx.projects.revision('DEMO_SHIP', 'latest');
      expect(rev.number).toBe(1);
      await new Promise((r) => setTimeout(r, 50));
      await t.app.ctx.projects.deleteProject('DEMO_SHIP');
      // imported once: a deleted demo does not come back
      expect(await startDemoShipImport(t.app.ctx)).toBeNull();
    },
    180_000,
  );

  it('ends a failed demo generation as an Error conversion without throwing', async () => {
    t = await makeApp({ demoShip: true });
    writeFileSync(path.join(t.config.dataDir, 'uploads'), 'a file where the uploads directory should be');
    const id = await startDemoShipImport(t.app.ctx);
    const final = await t.app.ctx.conversions.wait(id!);
    expect(final.status).toBe(4);
    expect(final.message).toMatch(/^The demo ship could not be generated: /);
  });
});
