/**
 * Tags and tagging (viewer.md §7 "Tags", "Tagging") through inject on a converted NAPA-OCX_M8: every call,
 * the tree rules, the ExclusiveTree rule, access per project, and tagging that follows a part by GUID
 * into a later revision in which the part has a new name and OCX id.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GeometryTagsListSchema,
  TaggingResultSchema,
  TagListSchema,
  TagSchema,
  UploadResponseSchema,
} from '../../api/contract';
import {
  bearer,
  grantProjects,
  login,
  makeApp,
  multipartFile,
  SAMPLES,
  signUp,
  uploadSample,
  type TestApp,
} from './helpers';

let t: TestApp;
let admin: string;
let alice: string;
let bob: string;
let carol: string;
let project: string;
const ROOT = 'Custom-model-tree';

beforeAll(async () => {
  t = await makeApp();
  admin = await signUp(t.app, 'admin@yard.com', { admin: true });
  await signUp(t.app, 'alice@yard.com');
  await signUp(t.app, 'bob@yard.com');
  await signUp(t.app, 'carol@yard.com');
  project = await uploadSample(t, admin, 'NAPA-OCX_M8');
  for (const email of ['alice@yard.com', 'bob@yard.com']) await grantProjects(t.app, admin, email, [project]);
  alice = await login(t.app, 'alice@yard.com');
  bob = await login(t.app, 'bob@yard.com');
  carol = await login(t.app, 'carol@yard.com');
}, 120_000);
afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const q = (p: Record<string, string | number | boolean>) =>
  new URLSearchParams(Object.entries(p).map(([k, x]) => [k, String(x)])).toString();

async function call(token: string, method: Method, url: string, payload?: object) {
  return t.app.inject({ method, url, headers: bearer(token), ...(payload !== undefined ? { payload } : {}) });
}

async function ok<T>(schema: v.GenericSchema<T>, token: string, method: Method, url: string, payload?: object) {
  const r = await call(token, method, url, payload);
  expect(r.statusCode, r.body).toBe(200);
  return v.parse(schema, r.json());
}

const tagUrl = (p: Record<string, string | number | boolean> = {}) =>
  `/api/viewer/tags?${q({ projectName: project, ...p })}`;
const tagging = (op: string, p: Record<string, string | number | boolean>) =>
  `/api/viewer/tagging/${op}?${q({ projectName: project, ...p })}`;

async function createTag(token: string, name: string, type: string, parent: number | null) {
  return ok(TagSchema, token, 'POST', tagUrl(), { name, type, parent });
}

describe('tags', () => {
  let root: number;
  let folder: number;

  it('creates the root and a folder, finds them by /root, /all and by name, shared with other users', async () => {
    root = (await createTag(alice, ROOT, 'ContextRoot', null)).id;
    const f = await createTag(alice, 'New custom tree', 'UnrestrictedTree', root);
    folder = f.id;
    expect(f).toEqual({ id: folder, name: 'New custom tree', type: 'UnrestrictedTree', parent: root, children: [] });
    // Bob sees Alice's tree: tags are per project, not per user.
    const r = await ok(TagSchema, bob, 'GET', `/api/viewer/tags/root?${q({ projectName: project, rootName: ROOT })}`);
    expect(r.children.map((c) => c.name)).toEqual(['New custom tree']);
    const all = await ok(TagListSchema, bob, 'GET', `/api/viewer/tags/all?${q({ projectName: project })}`);
    expect(all.map((x) => [x.name, x.children.length])).toEqual([[ROOT, 1]]);
    const byName = await ok(TagSchema, bob, 'GET', tagUrl({ tagName: 'New custom tree', parentId: root }));
    expect(byName.id).toBe(folder);
  });

  it('renames (PATCH tagId, newName); a sibling name is a 409, an unknown tag a 404', async () => {
    const r = await ok(TagSchema, bob, 'PATCH', tagUrl({ tagId: folder, newName: 'Deck plates' }));
    expect(r.name).toBe('Deck plates');
    await createTag(alice, 'Other', 'UnrestrictedTree', root);
    const clash = await call(alice, 'PATCH', tagUrl({ tagId: folder, newName: 'Other' }));
    expect(clash.statusCode).toBe(409);
    expect(clash.json().message).toBe('Tag "Other" already exists');
    const dup = await call(alice, 'POST', tagUrl(), { name: 'Other', type: 'Flat', parent: root });
    expect(dup.statusCode).toBe(409);
    const missing = await call(alice, 'PATCH', tagUrl({ tagId: 99999, newName: 'x' }));
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('Tag 99999 not found');
    const missingRoot = await call(
      alice,
      'GET',
      `/api/viewer/tags/root?${q({ projectName: project, rootName: 'Nope' })}`,
    );
    expect(missingRoot.statusCode).toBe(404);
  });

  it('keeps the tree rules: roots are ContextRoot, Flat tags have no children; names are bounded', async () => {
    const rootless = await call(alice, 'POST', tagUrl(), { name: 'Loose', type: 'UnrestrictedTree', parent: null });
    expect(rootless.statusCode).toBe(400);
    expect(rootless.json().message).toBe('A tag without a parent must be of type ContextRoot');
    const nested = await call(alice, 'POST', tagUrl(), { name: 'Inner root', type: 'ContextRoot', parent: root });
    expect(nested.json().message).toBe('A ContextRoot tag cannot have a parent');
    const flat = await createTag(alice, 'Flat list', 'Flat', root);
    const under = await call(alice, 'POST', tagUrl(), { name: 'Child', type: 'Flat', parent: flat.id });
    expect(under.json().message).toBe('A Flat tag cannot have child tags');
    const long = await call(alice, 'POST', tagUrl(), { name: 'x'.repeat(101), type: 'Flat', parent: root });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe("Invalid field 'name': At most 100 characters");
    const type = await call(alice, 'POST', tagUrl(), { name: 'T', type: 'Tree', parent: root });
    expect(type.statusCode).toBe(400);
  });

  it('adds geometries by name or OCX id, refuses ones already in the folder or unknown, and lists them', async () => {
    const add = await ok(TaggingResultSchema, alice, 'POST', tagging('add-tag-to-geometries', { tagId: folder }), [
      'P:P1/DECK',
      'nplcid132', // P:P1/BOTTOM by its OCX id
      'No such part',
    ]);
    expect(add).toEqual({ geometryNamesSucceeded: ['P:P1/DECK', 'nplcid132'], geometryNamesFailed: ['No such part'] });
    const again = await ok(TaggingResultSchema, bob, 'POST', tagging('add-tag-to-geometries', { tagId: folder }), [
      'P:P1/DECK',
      'P:P1/WEB',
    ]);
    expect(again).toEqual({ geometryNamesSucceeded: ['P:P1/WEB'], geometryNamesFailed: ['P:P1/DECK'] });
    const names = await ok(v.array(v.string()), bob, 'GET', tagging('geometries-by-tag', { tagId: folder }));
    expect(names).toEqual(['P:P1/DECK', 'P:P1/BOTTOM', 'P:P1/WEB']);
    const byGeometry = await ok(
      TagListSchema,
      bob,
      'GET',
      tagging('tags-by-geometry', { geometryName: 'P:P1/DECK', tagTreeRootName: ROOT }),
    );
    expect(byGeometry.map((x) => x.name)).toEqual(['Deck plates']);
    const tree = await ok(
      GeometryTagsListSchema,
      bob,
      'POST',
      tagging('tags-by-geometries', { tagTreeRootName: ROOT }),
    );
    const deck = tree.find((g) => g.geometryName === 'P:P1/DECK');
    expect(deck).toEqual({
      geometryName: 'P:P1/DECK',
      id: 'nplcid64',
      guid: '4546F8B2-A8C6-4650-9F77-DF3587703532',
      tagIds: [folder],
    });
    expect(tree.map((g) => g.geometryName).sort()).toEqual(['P:P1/BOTTOM', 'P:P1/DECK', 'P:P1/WEB']);
    const only = await ok(
      GeometryTagsListSchema,
      bob,
      'POST',
      tagging('tags-by-geometries', { tagTreeRootName: ROOT }),
      ['P:P1/WEB'],
    );
    expect(only.map((g) => g.geometryName)).toEqual(['P:P1/WEB']);
  });

  it('removes geometries (remove-tag-from-geometries) and clears a tag (delete-tag)', async () => {
    const rm = await ok(TaggingResultSchema, bob, 'POST', tagging('remove-tag-from-geometries', { tagId: folder }), [
      'P:P1/WEB',
      'P:P1/WEBB_1',
    ]);
    expect(rm).toEqual({ geometryNamesSucceeded: ['P:P1/WEB'], geometryNamesFailed: ['P:P1/WEBB_1'] });
    const other = await createTag(alice, 'To clear', 'UnrestrictedTree', root);
    await ok(TaggingResultSchema, alice, 'POST', tagging('add-tag-to-geometries', { tagId: other.id }), ['P:P1/WEB']);
    const cleared = await call(alice, 'DELETE', tagging('delete-tag', { tagId: other.id }));
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(await ok(v.array(v.string()), alice, 'GET', tagging('geometries-by-tag', { tagId: other.id }))).toEqual([]);
    // The tag itself stays.
    expect((await ok(TagSchema, alice, 'GET', tagUrl({ tagName: 'To clear', parentId: root }))).id).toBe(other.id);
  });

  it('ExclusiveTree: a geometry carries at most one sibling; replaceSiblings moves it', async () => {
    const zones = await createTag(alice, 'Zones', 'UnrestrictedTree', root);
    const fore = await createTag(alice, 'Fore', 'ExclusiveTree', zones.id);
    const aft = await createTag(alice, 'Aft', 'ExclusiveTree', zones.id);
    await ok(TaggingResultSchema, alice, 'POST', tagging('add-tag-to-geometries', { tagId: fore.id }), ['P:P1/WEBB_1']);
    const refused = await ok(TaggingResultSchema, alice, 'POST', tagging('add-tag-to-geometries', { tagId: aft.id }), [
      'P:P1/WEBB_1',
      'P:P1/WEBB_2',
    ]);
    expect(refused).toEqual({ geometryNamesSucceeded: ['P:P1/WEBB_2'], geometryNamesFailed: ['P:P1/WEBB_1'] });
    const moved = await ok(
      TaggingResultSchema,
      alice,
      'POST',
      tagging('add-tag-to-geometries', { tagId: aft.id, replaceSiblings: true }),
      ['P:P1/WEBB_1'],
    );
    expect(moved.geometryNamesSucceeded).toEqual(['P:P1/WEBB_1']);
    expect(await ok(v.array(v.string()), alice, 'GET', tagging('geometries-by-tag', { tagId: fore.id }))).toEqual([]);
    expect(
      (await ok(v.array(v.string()), alice, 'GET', tagging('geometries-by-tag', { tagId: aft.id }))).sort(),
    ).toEqual(['P:P1/WEBB_1', 'P:P1/WEBB_2']);
    // Unrestricted trees let a geometry sit in several folders.
    const extra = await ok(TaggingResultSchema, alice, 'POST', tagging('add-tag-to-geometries', { tagId: zones.id }), [
      'P:P1/WEBB_1',
    ]);
    expect(extra.geometryNamesSucceeded).toEqual(['P:P1/WEBB_1']);
    const refusedRoot = await call(alice, 'POST', tagging('add-tag-to-geometries', { tagId: root }), ['P:P1/WEB']);
    expect(refusedRoot.json().message).toBe('Geometries cannot carry a ContextRoot tag');
  });

  it('deletes a folder with its subtree and their tagging', async () => {
    const zones = await ok(TagSchema, alice, 'GET', tagUrl({ tagName: 'Zones', parentId: root }));
    const del = await call(bob, 'DELETE', tagUrl({ tagId: zones.id }));
    expect(del.statusCode, del.body).toBe(200);
    const aftId = zones.children.find((c) => c.name === 'Aft')!.id;
    expect((await call(alice, 'GET', tagging('geometries-by-tag', { tagId: aftId }))).statusCode).toBe(404);
    const tree = await ok(
      TagSchema,
      alice,
      'GET',
      `/api/viewer/tags/root?${q({ projectName: project, rootName: ROOT })}`,
    );
    expect(tree.children.map((c) => c.name)).not.toContain('Zones');
  });

  it('answers 404 to a user without access and 401 without a token, for reads and writes alike', async () => {
    const calls: Array<[Method, string, object?]> = [
      ['GET', `/api/viewer/tags/all?${q({ projectName: project })}`],
      ['GET', `/api/viewer/tags/root?${q({ projectName: project, rootName: ROOT })}`],
      ['POST', tagUrl(), { name: 'Sneaky', type: 'Flat', parent: root }],
      ['PATCH', tagUrl({ tagId: folder, newName: 'Sneaky' })],
      ['DELETE', tagUrl({ tagId: folder })],
      ['POST', tagging('add-tag-to-geometries', { tagId: folder }), ['P:P1/WEB']],
      ['GET', tagging('geometries-by-tag', { tagId: folder })],
      ['DELETE', tagging('delete-tag', { tagId: folder })],
    ];
    for (const [method, url, payload] of calls) {
      const r = await call(carol, method, url, payload);
      expect([r.statusCode, r.json().message], url).toEqual([404, `Project ${project} not found`]);
      const anon = await t.app.inject({ method, url, ...(payload !== undefined ? { payload } : {}) });
      expect(anon.statusCode).toBe(401);
    }
    // A tag id of another project is not found through this one.
    const other = await uploadSample(t, admin, 'NAPA-OCX_M1');
    const foreign = await call(
      admin,
      'GET',
      `/api/viewer/tagging/geometries-by-tag?${q({ projectName: other, tagId: folder })}`,
    );
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe(`Tag ${folder} not found`);
    // Nothing changed for the users who see the project.
    expect((await ok(TagSchema, alice, 'GET', tagUrl({ tagName: 'Deck plates', parentId: root }))).id).toBe(folder);
  }, 60_000);

  it('follows a part by GUID into a later revision in which its name and OCX id changed', async () => {
    const text = readFileSync(path.join(SAMPLES, 'NAPA-OCX_M8.3docx'), 'utf8');
    const from = '<ocx:Plate id="nplcid64" name="P:P1/DECK"';
    expect(text.split(from).length).toBe(2);
    const next = text.replace(from, '<ocx:Plate id="nplcid64r2" name="P:P1/MAIN_DECK"');
    const { payload, headers } = multipartFile('NAPA-OCX_M8.3docx', next);
    const r = await t.app.inject({
      method: 'POST',
      url: `/api/viewer/project/add/project-uploaded?${q({ projectName: project })}`,
      payload,
      headers: { ...headers, ...bearer(admin) },
    });
    expect(r.statusCode, r.body).toBe(200);
    const done = await t.app.ctx.conversions.wait(v.parse(UploadResponseSchema, r.json()).conversionId);
    expect(done.status).toBe(2);
    expect((await t.app.ctx.projects.revision(project, 'latest')).number).toBe(2);
    const names = await ok(v.array(v.string()), alice, 'GET', tagging('geometries-by-tag', { tagId: folder }));
    expect(names).toEqual(['P:P1/MAIN_DECK', 'P:P1/BOTTOM']);
    const tree = await ok(
      GeometryTagsListSchema,
      alice,
      'POST',
      tagging('tags-by-geometries', { tagTreeRootName: ROOT }),
    );
    expect(tree.find((g) => g.guid === '4546F8B2-A8C6-4650-9F77-DF3587703532')?.id).toBe('nplcid64r2');
    // Removing by the new name works on the part tagged in revision 1.
    const rm = await ok(TaggingResultSchema, alice, 'POST', tagging('remove-tag-from-geometries', { tagId: folder }), [
      'P:P1/MAIN_DECK',
    ]);
    expect(rm.geometryNamesSucceeded).toEqual(['P:P1/MAIN_DECK']);
  }, 120_000);
});
