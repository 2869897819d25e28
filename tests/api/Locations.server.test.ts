/**
 * Projects from another Keelson server (application.md §7 add/project-from-server; README "Project
 * locations"): two real servers, B listening on a loopback port and A configured with B as a server
 * location sharing a secret that B trusts. A's user sees and pulls B's projects with that user's rights on
 * B (a project not granted there is neither listed nor pulled); a wrong secret is refused by B; B accepts
 * another server's token only for reading.
 */
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AvailableProjectLocationsSchema, ModelListSchema, UploadResponseSchema } from '../../api/contract';
import { signPeerToken } from '../../api/locations/peerTokens';
import { bearer, grantProjects, login, makeApp, signUp, type TestApp, uploadSample } from './helpers';

const SECRET = 'shared-secret-between-yards';
const ALICE = 'alice@other.org';
let a: TestApp;
let b: TestApp;
let bUrl: string;
let aliceOnA: string;

async function pull(token: string, query: Record<string, string>) {
  return a.app.inject({
    method: 'POST',
    url: `/api/viewer/project/add/project-from-server?${new URLSearchParams(query)}`,
    headers: bearer(token),
  });
}

beforeAll(async () => {
  b = await makeApp({ organizationDomain: 'yard-b.com', trustedServers: [{ issuer: 'yard-a', secret: SECRET }] });
  bUrl = await b.app.listen({ port: 0, host: '127.0.0.1' });
  const bAdmin = await signUp(b.app, 'admin@yard-b.com', { admin: true });
  await uploadSample(b, bAdmin, 'NAPA-OCX_M1');
  await uploadSample(b, bAdmin, 'NAPA-OCX_M3');
  await signUp(b.app, ALICE);
  await grantProjects(b.app, bAdmin, ALICE, ['NAPA-OCX_M1'], { fixed: [] });

  a = await makeApp({
    organizationDomain: 'yard-a.com',
    projectLocations: [{ type: 'server', url: bUrl, name: 'Yard B', issuer: 'yard-a', secret: SECRET }],
  });
  const aAdmin = await signUp(a.app, 'admin@yard-a.com', { admin: true });
  await signUp(a.app, ALICE);
  await grantProjects(a.app, aAdmin, ALICE, [], { fixed: ['upload:model'] });
  aliceOnA = await login(a.app, ALICE);
}, 120_000);

afterAll(async () => {
  await a?.close();
  await b?.close();
});

describe('projects from another Keelson server', () => {
  it("lists the other server's projects that the user may see there", async () => {
    const r = await a.app.inject({ url: '/api/viewer/project/project-locations', headers: bearer(aliceOnA) });
    expect(r.statusCode, r.body).toBe(200);
    const [loc] = v.parse(AvailableProjectLocationsSchema, r.json());
    expect(loc).toEqual({
      location: bUrl,
      locationType: 'Server',
      projects: [{ id: `${bUrl}->NAPA-OCX_M1`, name: 'NAPA-OCX_M1', filePath: `${bUrl}->NAPA-OCX_M1`, children: [] }],
    });
  });

  it('pulls a project from the other server and converts it here', async () => {
    const r = await pull(aliceOnA, {
      keelsonUser: ALICE,
      masterServerUri: `${bUrl}/`,
      projectName: 'NAPA-OCX_M1',
      description: 'from yard B',
    });
    expect(r.statusCode, r.body).toBe(200);
    const up = v.parse(UploadResponseSchema, r.json());
    expect((await a.app.ctx.conversions.wait(up.conversionId)).status).toBe(2);
    const models = v.parse(
      ModelListSchema,
      (await a.app.inject({ url: '/api/viewer/project/models', headers: bearer(aliceOnA) })).json(),
    );
    const m1 = models.find((m) => m.name === 'NAPA-OCX_M1');
    expect(m1?.revisions.map((x) => x.revisionInfo.description)).toEqual(['from yard B']);
  }, 60_000);

  it("a scheduled job pulls the other server's project as its user", async () => {
    const results = await a.app.ctx.scheduler.run({
      id: 1,
      sources: [`${bUrl}->NAPA-OCX_M1`, `${bUrl}->NAPA-OCX_M3`],
      timesOfDay: ['06:00'],
      keelsonId: ALICE,
      overwriteIfExists: false,
    });
    expect(results[1]).toEqual({
      source: `${bUrl}->NAPA-OCX_M3`,
      error: `The Keelson server ${bUrl} answered: Project NAPA-OCX_M3 not found`,
    });
    const started = results[0] as { started: { conversionId: string } };
    expect((await a.app.ctx.conversions.wait(started.started.conversionId)).status).toBe(2);
    const models = v.parse(
      ModelListSchema,
      (await a.app.inject({ url: '/api/viewer/project/models', headers: bearer(aliceOnA) })).json(),
    );
    expect(models.find((m) => m.name === 'NAPA-OCX_M1')?.revisions.map((x) => x.revisionInfo.revisionNumber)).toEqual([
      2, 1,
    ]);
  }, 60_000);

  it("refuses what the user may not see there, other users' names and unknown servers", async () => {
    const hidden = await pull(aliceOnA, { masterServerUri: bUrl, projectName: 'NAPA-OCX_M3' });
    expect([hidden.statusCode, hidden.json().message]).toEqual([
      502,
      `The Keelson server ${bUrl} answered: Project NAPA-OCX_M3 not found`,
    ]);
    const other = await pull(aliceOnA, { keelsonUser: 'admin@yard-a.com', masterServerUri: bUrl, projectName: 'X' });
    expect(other.statusCode).toBe(403);
    const unknown = await pull(aliceOnA, { masterServerUri: 'http://127.0.0.1:9', projectName: 'NAPA-OCX_M1' });
    expect([unknown.statusCode, unknown.json().message]).toEqual([
      400,
      'http://127.0.0.1:9 is not a configured project location',
    ]);
  });

  it("B refuses a token signed with another secret and lets another server's token only read", async () => {
    const forged = await signPeerToken({ issuer: 'yard-a', secret: 'not-the-shared-secret' }, ALICE);
    const r1 = await b.app.inject({ url: '/api/viewer/project/models', headers: bearer(forged) });
    expect([r1.statusCode, r1.json().message]).toEqual([401, 'Invalid token']);
    const unknownIssuer = await signPeerToken({ issuer: 'yard-c', secret: SECRET }, ALICE);
    const r2 = await b.app.inject({ url: '/api/viewer/project/models', headers: bearer(unknownIssuer) });
    expect(r2.statusCode).toBe(401);
    const peer = await signPeerToken({ issuer: 'yard-a', secret: SECRET }, ALICE);
    const write = await b.app.inject({
      method: 'DELETE',
      url: '/api/viewer/project/delete-model?projectName=NAPA-OCX_M1',
      headers: bearer(peer),
    });
    expect([write.statusCode, write.json().message]).toEqual([403, 'A token of another Keelson server may only read']);
    const wrongLocation = await makeApp({
      projectLocations: [
        { type: 'server', url: bUrl, name: 'Yard B', issuer: 'yard-a', secret: 'wrong-secret-0123456' },
      ],
    });
    try {
      const admin = await signUp(wrongLocation.app, 'admin@yard-a.com', { admin: true });
      const r = await wrongLocation.app.inject({
        url: '/api/viewer/project/project-locations',
        headers: bearer(admin),
      });
      expect(r.json()).toEqual([
        {
          location: bUrl,
          locationType: 'Server',
          projects: [],
          error: `The Keelson server ${bUrl} answered: Invalid token`,
        },
      ]);
    } finally {
      await wrongLocation.close();
    }
  });
});
