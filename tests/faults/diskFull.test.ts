/**
 * The disk fills up while the server stores a revision: the data directory is a small tmpfs, mounted by the
 * test where the machine allows it (root with the mount capability, as in CI; skipped elsewhere), nearly
 * filled by another file. The conversion fails with a status that names the cause, no half revision is visible or left on disk, the projects stored before are untouched,
 * and once space is free again the same upload succeeds without restarting the server.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeShipOcx } from '../../tools/generator';
import { startServer, type RunningServer } from '../browser/support/keelsonServer';
import { leftovers, ServerClient } from '../support/serverClient';

const SAMPLES = path.resolve(__dirname, '../../../shared/models/ocx');
/** Whether this machine lets the test mount a tmpfs (root with the mount capability, as CI runs). */
function canMountTmpfs(): boolean {
  if (process.getuid?.() !== 0) return false;
  const probe = mkdtempSync(path.join(os.tmpdir(), 'keelson-mountprobe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}
const isRoot = canMountTmpfs();

let mount: string;
let work: string;
let server: RunningServer;
let api: ServerClient;

beforeAll(async () => {
  if (!isRoot) return;
  work = mkdtempSync(path.join(os.tmpdir(), 'keelson-diskfull-'));
  mount = path.join(work, 'data');
  mkdirSync(mount);
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=48m,mode=0700', 'tmpfs', mount]);
  server = await startServer({ LOG: 'false' }, { buildUi: false, dataDir: mount });
  api = new ServerClient(server.url);
  await api.signUp('admin@yard.com', true);
}, 240_000);

afterAll(async () => {
  if (!isRoot) return;
  await server?.stop();
  execFileSync('umount', ['-l', mount]);
  rmSync(work, { recursive: true, force: true });
});

describe('disk full while storing a revision', () => {
  it.skipIf(!isRoot)(
    'fails the conversion truly, leaves nothing half-written and recovers once space is free',
    async () => {
      const before = await api.upload('KEPT', 'm1.3docx', readFileSync(path.join(SAMPLES, 'NAPA-OCX_M1.3docx')));
      expect(before.status).toBe(200);
      expect((await api.waitConversion('KEPT', (c) => c.status !== 1)).status).toBe(2);

      const ship = path.join(work, 'ship.3docx');
      await writeShipOcx(ship, { targetParts: 2000, seed: 5 });
      const bytes = readFileSync(ship);
      // Leave room for the upload itself and a little more, not for the revision made from it.
      const { bavail, bsize } = statfsSync(mount);
      const filler = path.join(mount, 'filler');
      writeFileSync(filler, Buffer.alloc(Math.max(0, bavail * bsize - bytes.length - 256 * 1024)));
      const kept = leftovers(mount).uploads;

      const up = await api.upload('FULL', 'ship.3docx', bytes);
      if (up.status === 200) {
        const c = await api.waitConversion('FULL', (x) => x.status !== 1);
        expect(c.status).toBe(4);
        expect(c.error ?? c.message).toMatch(/ENOSPC/);
      } else {
        // The upload itself did not fit: refused with a clear error.
        expect(up.status).toBeGreaterThanOrEqual(400);
      }
      expect(await api.revisionStatus('FULL')).toBe(404);
      expect(leftovers(mount).projects.FULL ?? []).toEqual([]);
      expect(leftovers(mount).uploads).toEqual(kept);
      expect(await api.revisionStatus('KEPT')).toBe(200);

      // Space comes back: the same upload works, with no restart.
      rmSync(filler);
      const again = await api.upload('FULL', 'ship.3docx', bytes);
      expect(again.status, JSON.stringify(again.json)).toBe(200);
      expect((await api.waitConversion('FULL', (x) => x.status !== 1)).status).toBe(2);
      expect(await api.revisionStatus('FULL')).toBe(200);
    },
    300_000,
  );
});
