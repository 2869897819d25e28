/**
 * Cancel while a project is still being fetched from another Keelson server (application.md §4 "Model
 * conversion"; add/project-from-server): the other server is a real HTTP server on a loopback port that
 * sends the project file slowly and never finishes. The cancel must end the download there: the pull is
 * answered, the partial download removed, nothing kept, and the connection to the other server closed.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, makeApp, signUp, type TestApp } from './helpers';
import { storedUploads, until } from './slowUpload';

let a: TestApp;
let admin: string;
let peer: http.Server;
let peerUrl: string;
/** The peer's download responses still open. */
const open = new Set<http.ServerResponse>();
let served = 0;

beforeAll(async () => {
  // Answers the project-file request with a file that keeps coming, 16 KiB every 20 ms.
  peer = http.createServer((req, res) => {
    if (!req.url?.startsWith('/api/viewer/project/project-file')) {
      res.writeHead(404).end();
      return;
    }
    served++;
    res.writeHead(200, {
      'content-type': 'application/octet-stream',
      'content-disposition': 'attachment; filename="FAR.3docx"',
    });
    open.add(res);
    const timer = setInterval(() => res.write(Buffer.alloc(16 * 1024, 0x20)), 20);
    res.on('close', () => {
      clearInterval(timer);
      open.delete(res);
    });
  });
  await new Promise<void>((r) => peer.listen(0, '127.0.0.1', r));
  peerUrl = `http://127.0.0.1:${(peer.address() as AddressInfo).port}`;
  a = await makeApp({
    projectLocations: [{ type: 'server', url: peerUrl, name: 'Far yard', issuer: 'yard-a', secret: 'shared' }],
  });
  admin = await signUp(a.app, 'admin@yard.com', { admin: true });
});

afterAll(async () => {
  await a?.close();
  peer?.closeAllConnections();
  await new Promise((r) => peer?.close(r));
});

describe('cancel while the project is fetched from another server', () => {
  it('ends the download at the cancel: the pull is answered 404, nothing is kept, the connection closes', async () => {
    const pull = a.app.inject({
      method: 'POST',
      url: `/api/viewer/project/add/project-from-server?${new URLSearchParams({
        keelsonUser: 'admin@yard.com',
        masterServerUri: `${peerUrl}/`,
        projectName: 'FAR',
      })}`,
      headers: bearer(admin),
    });
    // Part of the file is on disk.
    await until('the partial download', () => Object.values(storedUploads(a.config.dataDir)).some((n) => n > 0));
    expect(open.size).toBe(1);
    const cancel = await a.app.inject({
      method: 'DELETE',
      url: '/api/viewer/project/add/cancel-project?projectName=FAR',
      headers: bearer(admin),
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    const r = await Promise.race([
      pull,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the pull went on after the cancel')), 5000)),
    ]);
    expect(r.statusCode, r.body).toBe(404);
    expect(storedUploads(a.config.dataDir)).toEqual({});
    expect(await a.app.ctx.conversions.latest('FAR')).toBeUndefined();
    expect(a.app.ctx.conversions.running('FAR')).toBeNull();
    // The download's connection is closed, not left to the 30-minute time-out.
    await until('the peer connection closed', () => open.size === 0);
    expect(served).toBe(1);
  });
});
