/**
 * The demo ship: on first start — no projects, no earlier successful demo import and
 * DEMO_SHIP not false — generate a ~2000-part ship with tools/generator and import it as project
 * DEMO_SHIP through the normal conversion path, so a new user has a model to open at once.
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AppContext } from './context';
import { ConversionStatus } from './contract/common';

/** Project name of the demo ship. */
export const DEMO_PROJECT = 'DEMO_SHIP';
/** The conversion's starter shown on the card. */
export const DEMO_STARTER = 'system';
/** File under DATA_DIR written once the demo ship was imported. */
export const DEMO_MARKER = 'demo-ship-imported';

/**
 * Starts the demo import when due; returns its conversion id, or null when nothing was started.
 * Does not wait for the conversion; a failure of the generator ends the conversion with Error.
 */
export async function startDemoShipImport(
  ctx: AppContext,
  log: (msg: string) => void = () => {},
): Promise<string | null> {
  if (!ctx.config.demoShip) return null;
  if ((await ctx.projects.list()).length > 0) return null;
  const marker = path.join(ctx.config.dataDir, DEMO_MARKER);
  // Imported once: a demo that the users deleted does not come back; a failed one is retried.
  if (existsSync(marker) || ctx.conversions.running(DEMO_PROJECT)) return null;
  const id = await ctx.conversions.reserve(DEMO_PROJECT, DEMO_STARTER);
  try {
    const uploads = path.join(ctx.config.dataDir, 'uploads');
    await mkdir(uploads, { recursive: true, mode: 0o700 });
    const file = path.join(uploads, 'demo-ship.3docx');
    log('Generating the demo ship');
    const { writeShipOcx } = await import('../tools/generator/index');
    // with equipment naming the shared CAD samples, so the demo exercises CAD components (README)
    await writeShipOcx(file, { targetParts: 2000, name: 'DEMO SHIP', equipment: true });
    ctx.conversions.start(id, { input: file, description: 'Demo ship', replace: false });
    void ctx.conversions.wait(id).then(async (e) => {
      if (e.status === ConversionStatus.Ready) await writeFile(marker, new Date().toISOString());
    });
    log('Importing the demo ship as project DEMO_SHIP');
  } catch (e) {
    const msg = `The demo ship could not be generated: ${e instanceof Error ? e.message : String(e)}`;
    log(msg);
    await ctx.conversions.fail(id, msg);
  }
  return id;
}
