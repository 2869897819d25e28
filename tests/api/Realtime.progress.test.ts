/**
 * socket.io at /api/socket.io over a real listening server, with the conversion in a piscina worker
 * thread (workers/convert.worker.ts): token required, 'join' a conversion room, 'progress' events
 * that never go back and end with Ready.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import * as v from 'valibot';
import { ProgressEventSchema, type ProgressEvent } from '../../api/contract';
import { attachRealtime } from '../../api/realtime';
import { SAMPLES, bearer, makeApp, multipartFile, signUp, type TestApp } from './helpers';
import { openSocket } from '../support/realtimeClient';

let t: TestApp;
let url: string;
let token: string;

beforeAll(async () => {
  t = await makeApp({ useWorkerThreads: true });
  attachRealtime(t.app);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  token = await signUp(t.app, 'admin@yard.com', { admin: true });
});
afterAll(async () => {
  await t.close();
});

const open = (auth: Record<string, string>): Promise<Socket> => openSocket(url, auth);

describe('realtime progress', () => {
  it('refuses a connection without a valid token', async () => {
    await expect(open({})).rejects.toThrow('Authentication required');
    await expect(open({ token: 'nope' })).rejects.toThrow('Invalid token');
  });

  it('streams progress of a worker-thread conversion to the joined room', async () => {
    const socket = await open({ token });
    const events: ProgressEvent[] = [];
    let done!: () => void;
    const finished = new Promise<void>((r) => (done = r));
    socket.on('progress', (e: unknown) => {
      const ev = v.parse(ProgressEventSchema, e);
      events.push(ev);
      if (ev.status !== 1 && ev.status !== 5) done();
    });
    const { payload, headers } = multipartFile(
      'NAPA-OCX_M1.3docx',
      readFileSync(path.join(SAMPLES, 'NAPA-OCX_M1.3docx')),
    );
    const r = await fetch(`${url}/api/viewer/project/add/project-uploaded?projectName=RT`, {
      method: 'POST',
      body: new Uint8Array(payload),
      headers: { ...headers, ...bearer(token) },
    });
    expect(r.status).toBe(200);
    const { conversionId } = (await r.json()) as { conversionId: string };
    socket.emit('join', conversionId);
    await finished;
    socket.close();
    const last = events.at(-1)!;
    if (last.status !== 2) console.log(JSON.stringify(events));
    expect(last).toMatchObject({ conversionId, projectName: 'RT', status: 2, progress: 100 });
    for (let i = 1; i < events.length; i++) expect(events[i].progress).toBeGreaterThanOrEqual(events[i - 1].progress);
    const models = await (await fetch(`${url}/api/viewer/project/models`, { headers: bearer(token) })).json();
    expect(models.find((m: { name: string }) => m.name === 'RT').revisions).toHaveLength(1);
  });
});
