/**
 * Scheduled project updates (application.md §2 "Scheduling tab", §3 "Project update job", §7 GET/POST
 * /api/{instance}/scheduling/project-update-schedule): the list is saved as a whole and checked (HH:MM,
 * no duplicate times, sources inside the locations, bounds); with an injected clock the job runs at its
 * time as a real conversion (a new revision, then a replaced one); after a restart on the same data the
 * list is back and the job runs again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../api/app';
import { loadConfig, type ServerConfig } from '../../api/config';
import { ModelListSchema, type ProjectUpdateJob } from '../../api/contract';
import type { SchedulerClock, SourceRunResult } from '../../api/scheduling/ProjectUpdateScheduler';
import { SAMPLES, bearer, login, signUp } from './helpers';

const URL = '/api/default/scheduling/project-update-schedule';
const M1 = path.join(SAMPLES, 'NAPA-OCX_M1.3docx');

/** A clock that only moves when told; due timers fire in time order as it passes them. */
class FakeClock implements SchedulerClock {
  private timers: { at: number; fn: () => void; id: number }[] = [];
  private seq = 0;
  constructor(private t: number) {}
  now(): Date {
    return new Date(this.t);
  }
  setTimer(ms: number, fn: () => void): () => void {
    const id = ++this.seq;
    this.timers.push({ at: this.t + ms, fn, id });
    return () => {
      this.timers = this.timers.filter((x) => x.id !== id);
    };
  }
  get pending(): number {
    return this.timers.length;
  }
  /** Moves to `to` (ms), firing every timer due on the way. */
  advanceTo(to: number): void {
    for (;;) {
      const due = this.timers.filter((x) => x.at <= to).sort((x, y) => x.at - y.at)[0];
      if (!due) break;
      this.timers = this.timers.filter((x) => x.id !== due.id);
      this.t = due.at;
      due.fn();
    }
    this.t = to;
  }
}

let dataDir: string;
let config: ServerConfig;
let app: FastifyInstance;
let admin: string;
let clock0: FakeClock;
const T0 = Date.parse('2026-11-25T10:29:00Z');
const DAY = 86_400_000;

async function start(clock: FakeClock): Promise<void> {
  app = await buildApp(config, { schedulerClock: clock });
}

/** The next finished run of the scheduler. */
function nextRun(): Promise<SourceRunResult[]> {
  return new Promise((resolve) => {
    const off = app.ctx.scheduler.onRun((_id, results) => {
      off();
      resolve(results);
    });
  });
}

async function revisions(): Promise<[number, string][]> {
  const r = await app.inject({ url: '/api/viewer/project/models', headers: bearer(admin) });
  const m = v.parse(ModelListSchema, r.json()).find((x) => x.name === 'NAPA-OCX_M1');
  return (m?.revisions ?? []).map((x) => [x.revisionInfo.revisionNumber, x.revisionInfo.lastUpdatedDate]);
}

async function runAndWait(clock: FakeClock, to: number): Promise<void> {
  const run = nextRun();
  clock.advanceTo(to);
  const results = await run;
  expect(results.map((x) => ('error' in x ? x.error : 'started'))).toEqual(['started']);
  const started = results[0] as { started: { conversionId: string } };
  expect((await app.ctx.conversions.wait(started.started.conversionId)).status).toBe(2);
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'keelson-schedule-'));
  config = loadConfig(
    {},
    {
      dataDir,
      demoShip: false,
      useWorkerThreads: false,
      jwtSecret: 'test-secret-0123456789',
      authRateLimitPerMin: 1000,
      organizationDomain: 'yard.com',
      scheduleTimezone: 'UTC',
      projectLocations: [{ type: 'directory', path: SAMPLES, name: 'ocx' }],
    },
  );
  clock0 = new FakeClock(T0);
  await start(clock0);
  admin = await signUp(app, 'admin@yard.com', { admin: true });
});

afterAll(async () => {
  await app?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const job = (over: Partial<ProjectUpdateJob> = {}): ProjectUpdateJob => ({
  id: 1,
  sources: [M1],
  timesOfDay: ['10:30'],
  keelsonId: '',
  overwriteIfExists: false,
  ...over,
});

describe('project update schedule', () => {
  it('starts empty and refuses bad lists', async () => {
    const r = await app.inject({ url: URL, headers: bearer(admin) });
    expect([r.statusCode, r.json()]).toEqual([200, []]);
    const bad: [unknown, string][] = [
      [[job({ timesOfDay: ['10:30', '10:30'] })], 'Times in a job cannot be duplicated'],
      [[job({ timesOfDay: ['24:00'] })], 'Times are HH:MM (24-hour)'],
      [[job(), job()], 'Job ids must be unique'],
      [Array.from({ length: 101 }, (_, i) => job({ id: i + 1 })), 'At most 100 jobs'],
      [
        [job({ sources: [`${SAMPLES}/../secret.3docx`] })],
        `Project update job 1: ${SAMPLES}/../secret.3docx: The path is not inside a configured project location`,
      ],
      [
        [job({ sources: ['http://127.0.0.1:9->SHIP'] })],
        'Project update job 1: http://127.0.0.1:9->SHIP: http://127.0.0.1:9 is not a configured project location',
      ],
    ];
    for (const [payload, message] of bad) {
      const res = await app.inject({ method: 'POST', url: URL, headers: bearer(admin), payload: payload as object });
      expect(res.statusCode, message).toBe(400);
      expect(res.json().message).toContain(message);
    }
    const other = await signUp(app, 'fitter@other.org');
    const denied = await app.inject({ method: 'POST', url: URL, headers: bearer(other), payload: [job()] });
    expect([denied.statusCode, denied.json().message]).toEqual([403, 'Missing permission admin:view']);
  });

  it('saves the whole list, runs the job at its time and again the next day', async () => {
    const saved = await app.inject({ method: 'POST', url: URL, headers: bearer(admin), payload: [job()] });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual([job({ keelsonId: 'admin@yard.com' })]);
    expect(await revisions()).toEqual([]);
    await runAndWait(clock0, T0 + 60_000);
    expect((await revisions()).map((r) => r[0])).toEqual([1]);
    await runAndWait(clock0, T0 + 60_000 + DAY);
    expect((await revisions()).map((r) => r[0])).toEqual([2, 1]);
  }, 60_000);

  it('comes back after a restart and replaces the latest revision when asked', async () => {
    const replace = await app.inject({
      method: 'POST',
      url: URL,
      headers: bearer(admin),
      payload: [job({ overwriteIfExists: true, timesOfDay: ['06:00', '10:30'] })],
    });
    expect(replace.statusCode).toBe(200);
    const before = await revisions();
    await app.close();
    const clock = new FakeClock(T0 + 2 * DAY);
    await start(clock);
    admin = await login(app, 'admin@yard.com');
    const r = await app.inject({ url: URL, headers: bearer(admin) });
    expect(r.json()).toEqual([
      job({ keelsonId: 'admin@yard.com', overwriteIfExists: true, timesOfDay: ['06:00', '10:30'] }),
    ]);
    expect(clock.pending).toBe(2);
    await runAndWait(clock, T0 + 2 * DAY + 60_000);
    const after = await revisions();
    expect(after.map((x) => x[0])).toEqual([2, 1]);
    expect(after[0][1]).not.toBe(before[0][1]);
  }, 60_000);
});
