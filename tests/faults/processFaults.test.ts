/**
 * A server process killed with SIGKILL (nothing flushed, nothing closed) at the worst moments, on the
 * embedded default (SQLite, local files): during an upload, during a conversion, and right after
 * acknowledging writes. After a restart on the same data directory no half revision is visible, the
 * conversion's status says what happened, no upload or temporary revision files are left, every write the
 * server acknowledged is there, and the server works again without manual steps.
 */
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeShipOcx } from '../../tools/generator';
import { startServer, type RunningServer } from '../browser/support/keelsonServer';
import { leftovers, ServerClient } from '../support/serverClient';

const SAMPLES = path.resolve(__dirname, '../../../shared/models/ocx');
const M1 = readFileSync(path.join(SAMPLES, 'NAPA-OCX_M1.3docx'));

let server: RunningServer;
let api: ServerClient;
let tmp: string;

beforeAll(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'keelson-faults-'));
  server = await startServer({ LOG: 'false' }, { buildUi: false });
  api = new ServerClient(server.url);
  await api.signUp('admin@yard.com', true);
}, 240_000);

afterAll(async () => {
  await server?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

/** Restarts after a crash and signs in again (tokens survive: the secret is on disk). */
async function restart(): Promise<void> {
  await server.start({ LOG: 'false' });
}

/** Sends the first `fraction` of a multipart upload of `content` and leaves the request hanging. */
function partialUpload(name: string, content: Buffer, fraction: number): http.ClientRequest {
  const boundary = '----keelsonfault';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="ship.3docx"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const req = http.request(`${server.url}/api/viewer/project/add/project-uploaded?projectName=${name}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${api.token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': head.length + content.length + tail.length,
    },
  });
  req.on('error', () => {}); // the server goes away under it
  req.write(head);
  req.write(content.subarray(0, Math.floor(content.length * fraction)));
  return req;
}

describe('SIGKILL of the server process', () => {
  it('during an upload: after the restart nothing of it is stored and the same upload then works', async () => {
    const ship = path.join(tmp, 'upload.3docx');
    await writeShipOcx(ship, { targetParts: 1000, seed: 7 });
    const bytes = readFileSync(ship);
    // Uploads of converted revisions are kept with them; only the interrupted one must go.
    const kept = leftovers(server.dataDir).uploads;
    const req = partialUpload('HALFUPLOAD', bytes, 0.5);
    // Crash once the server has started storing the upload (a new file under uploads/).
    const deadline = Date.now() + 60_000;
    while (leftovers(server.dataDir).uploads.length === kept.length && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    expect(leftovers(server.dataDir).uploads.length).toBe(kept.length + 1);
    await server.crash();
    req.destroy();
    await restart();
    const c = await api.conversion('HALFUPLOAD');
    if (c) expect(c).toMatchObject({ status: 4, message: 'The server stopped during the conversion' });
    expect(await api.revisionStatus('HALFUPLOAD')).toBe(404);
    expect(leftovers(server.dataDir).uploads).toEqual(kept);
    expect(leftovers(server.dataDir).projects.HALFUPLOAD ?? []).toEqual([]);
    const again = await api.upload('HALFUPLOAD', 'ship.3docx', bytes);
    expect(again.status, JSON.stringify(again.json)).toBe(200);
    expect((await api.waitConversion('HALFUPLOAD', (x) => x.status !== 1)).status).toBe(2);
    expect(await api.revisionStatus('HALFUPLOAD')).toBe(200);
  });

  it('during a conversion: the status says the server stopped, no half revision, the files are gone', async () => {
    const ship = path.join(tmp, 'convert.3docx');
    await writeShipOcx(ship, { targetParts: 20_000, seed: 3 });
    const kept = leftovers(server.dataDir).uploads;
    const r = await api.upload('KILLED', 'ship.3docx', readFileSync(ship));
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    await api.waitConversion('KILLED', (c) => c.status === 1 && c.progress > 0);
    await server.crash();
    await restart();
    expect(await api.conversion('KILLED')).toMatchObject({
      status: 4,
      message: 'The server stopped during the conversion',
    });
    expect(await api.revisionStatus('KILLED')).toBe(404);
    const left = leftovers(server.dataDir);
    expect(left.uploads).toEqual(kept);
    expect(left.projects.KILLED ?? []).toEqual([]);
    // The name is free again: a new conversion of it runs to the end.
    const again = await api.upload('KILLED', 'm1.3docx', M1);
    expect(again.status).toBe(200);
    expect((await api.waitConversion('KILLED', (x) => x.status !== 1)).status).toBe(2);
  });

  it('during the revision commit: either the whole revision with a true status, or nothing', async () => {
    const ship = path.join(tmp, 'commit.3docx');
    await writeShipOcx(ship, { targetParts: 1500, seed: 11 });
    const r = await api.upload('COMMIT', 'ship.3docx', readFileSync(ship));
    expect(r.status).toBe(200);
    // The revision directory is moved into place inside the commit's transaction: crash the moment it appears.
    const revDir = path.join(server.dataDir, 'projects', 'COMMIT', 'rev-1');
    const deadline = Date.now() + 120_000;
    while (!existsSync(revDir) && Date.now() < deadline) await new Promise((res) => setImmediate(res));
    expect(existsSync(revDir)).toBe(true);
    await server.crash();
    await restart();
    const c = await api.conversion('COMMIT');
    if ((await api.revisionStatus('COMMIT')) === 200) {
      // Committed: status, row and files agree.
      expect(c?.status).toBe(2);
      expect(existsSync(path.join(revDir, 'objects.json'))).toBe(true);
      const objects = await api.call('GET', '/api/keelson-instance/model/objects?modelName=COMMIT&revision=1');
      expect(objects.status).toBe(200);
    } else {
      // Not committed: a true status and no directory left behind.
      expect(c).toMatchObject({ status: 4, message: 'The server stopped during the conversion' });
      expect(leftovers(server.dataDir).projects.COMMIT ?? []).toEqual([]);
    }
  });

  it('right after acknowledging writes: every acknowledged comment and section is there after the restart', async () => {
    const up = await api.upload('ACKED', 'm1.3docx', M1);
    expect(up.status).toBe(200);
    expect((await api.waitConversion('ACKED', (x) => x.status !== 1)).status).toBe(2);
    const place = 'projectName=ACKED&projectVersionName=MAIN&projectRevisionNumber=1';
    const acked: string[] = [];
    for (let i = 0; i < 25; i++) {
      const message = `Weld seam ${i} to be checked`;
      const c = await api.call('POST', `/api/keelson-static/comments/add-thread?${place}`, { comment: { message } });
      expect(c.status, JSON.stringify(c.json)).toBe(200);
      acked.push(message);
    }
    const s = await api.call('POST', '/api/viewer/ship-sections', { projectName: 'ACKED', axis: 'X', location: '#10' });
    expect(s.status, JSON.stringify(s.json)).toBe(200);
    await server.crash();
    await restart();
    const all = await api.call('GET', '/api/keelson-static/comments/all?projectName=ACKED&projectVersionName=MAIN');
    expect(all.status).toBe(200);
    const messages = (all.json as { message: string; type: string }[])
      .filter((c) => c.type === 'Thread')
      .map((c) => c.message);
    expect(messages.sort()).toEqual([...acked].sort());
    const sections = await api.call('GET', '/api/viewer/ship-sections?projectName=ACKED');
    expect((sections.json as { location: string }[]).map((x) => x.location)).toContain('#10');
  });
});
