/**
 * Pushes relayed by the socket.io PostgreSQL adapter reach the other server process in the order they were
 * made (api/realtime.ts), also when one of them is over PostgreSQL's 8000-byte NOTIFY limit and travels as
 * an attachment (a row of `socket_io_attachments` the receiver reads back) while the next one fits in the
 * NOTIFY itself. Two server instances on one real PostgreSQL database, a real socket.io client on the second;
 * 'api-pg' project only (on SQLite there is one process and no adapter).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Socket } from 'socket.io-client';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../../api/app';
import { COMMENT_EVENT, type CommentEvent, CommentEventSchema } from '../../api/contract';
import { attachRealtime, type JoinReply } from '../../api/realtime';
import { openSocket } from '../support/realtimeClient';
import { jobsTestConfig, signUp } from './helpers';

const onPostgres = Boolean(inject('pgUrl'));
const PROJECT = 'ORDER';

describe.skipIf(!onPostgres)('pushes between two server processes (PostgreSQL adapter)', () => {
  let dataDir: string;
  let a: FastifyInstance;
  let b: FastifyInstance;
  let client: Socket;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'keelson-order-'));
    const config = jobsTestConfig(dataDir, 60);
    a = await buildApp(config);
    b = await buildApp(config);
    attachRealtime(a);
    attachRealtime(b);
    await b.listen({ port: 0, host: '127.0.0.1' });
    const admin = await signUp(a, 'admin@yard.com', { admin: true });
    client = await openSocket(
      `http://127.0.0.1:${(b.server.address() as AddressInfo).port}`,
      { token: admin },
      sockets,
    );
    const ack = (await client.emitWithAck('join', `project:${PROJECT}`)) as JoinReply;
    expect(ack).toMatchObject({ ok: true });
  });

  afterAll(async () => {
    for (const s of sockets) s.close();
    await a?.close();
    await b?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** A removal of `count` threads: over the NOTIFY limit from about 200 on. */
  const removal = (count: number, tag: string): CommentEvent => ({
    kind: 'threadsRemoved',
    projectName: PROJECT,
    projectVersionName: 'MAIN',
    threadIds: Array.from({ length: count }, (_, i) => `${tag}-${String(i).padStart(36, '0')}`),
    by: 'admin@yard.com',
  });

  it('a push sent as an attachment is not overtaken by the small pushes after it', async () => {
    // Both processes listen before anything is sent (the adapter's LISTEN connection opens in the background).
    await new Promise<void>((resolve) => {
      const probe = () => a.ctx.commentEvents.send(removal(1, 'probe'));
      const timer = setInterval(probe, 100);
      client.once(COMMENT_EVENT, () => {
        clearInterval(timer);
        resolve();
      });
      probe();
    });
    const sent = ['big1', 'small1', 'small2', 'big2', 'small3'];
    const got: string[] = [];
    const all = new Promise<void>((resolve) =>
      client.on(COMMENT_EVENT, (raw: unknown) => {
        const e = v.parse(CommentEventSchema, raw);
        const tag = e.kind === 'threadsRemoved' ? e.threadIds[0].split('-')[0] : '';
        if (tag === 'probe') return;
        got.push(tag);
        if (got.length === sent.length) resolve();
      }),
    );
    for (const tag of sent) a.ctx.commentEvents.send(removal(tag.startsWith('big') ? 400 : 1, tag));
    await all;
    expect(got).toEqual(sent);
  });
});
