/**
 * Waiting on what the viewer shows instead of on time: the engine state the UI exposes as data attributes
 * (ui/viewer/EngineStateMarker.tsx: camera angles, initial view, undo / redo names, selection counter) and
 * the canvas pixels (where the model is drawn, whether the picture changed).
 */
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';

/** Background colour of the 3D canvas (engine/Engine.ts BACKGROUND 0xeef1f5). */
export const BACKGROUND = [0xee, 0xf1, 0xf5] as const;

const marker = (page: Page) => page.getByTestId('engine-state');

/** An attribute of the engine-state marker ('camera', 'undo', 'selection-seq', ...). */
export async function engineState(page: Page, name: string): Promise<string> {
  return (await marker(page).getAttribute(`data-${name}`)) ?? '';
}

/** Waits until the engine-state attribute `name` satisfies `ok` (a value or a predicate run in the page). */
export async function waitForEngineState(
  page: Page,
  name: string,
  ok: string | ((value: string) => boolean),
  timeout = 20_000,
): Promise<void> {
  if (typeof ok === 'string') {
    await page.locator(`[data-testid="engine-state"][data-${name}="${ok}"]`).waitFor({ state: 'attached', timeout });
    return;
  }
  const end = Date.now() + timeout;
  for (;;) {
    const v = await engineState(page, name);
    if (ok(v)) return;
    if (Date.now() > end) throw new Error(`engine state ${name}="${v}" did not reach the expected value`);
    // Wait for the next change of the marker's attributes rather than for a fixed time.
    await page
      .waitForFunction(
        ([n, before]) => document.querySelector('[data-testid="engine-state"]')?.getAttribute(`data-${n}`) !== before,
        [name, v] as const,
        { timeout: Math.max(1, end - Date.now()), polling: 'raf' },
      )
      .catch(() => {});
  }
}

/**
 * Waits until the initial view of viewer.md §4 (orbit (160, 10), fit to window) is set and drawn: the
 * marker says so and two consecutive canvas pictures are the same.
 */
export async function waitForSettledView(page: Page): Promise<void> {
  await waitForEngineState(page, 'initial-view', 'true', 60_000);
  await waitForStillCanvas(page);
}

/** The canvas as a PNG. */
export function canvasShot(page: Page): Promise<Buffer> {
  return page.getByTestId('viewer-canvas').screenshot();
}

/** Waits until two consecutive canvas pictures are identical (no animation running); returns the picture. */
export async function waitForStillCanvas(page: Page, timeout = 20_000): Promise<Buffer> {
  const end = Date.now() + timeout;
  let last = await canvasShot(page);
  for (;;) {
    const next = await canvasShot(page);
    if (next.equals(last)) return next;
    if (Date.now() > end) throw new Error('the canvas kept changing');
    last = next;
  }
}

/** Waits until the canvas picture differs from `before`; returns the new picture. */
export async function waitForCanvasChange(page: Page, before: Buffer, timeout = 20_000): Promise<Buffer> {
  const end = Date.now() + timeout;
  for (;;) {
    const shot = await canvasShot(page);
    if (!shot.equals(before)) return shot;
    if (Date.now() > end) throw new Error('the canvas did not change');
  }
}

/**
 * Page points (CSS px) where the model is drawn: canvas pixels whose whole (2r+1)² neighbourhood differs
 * from the background, so a click there hits geometry rather than an edge. Ordered from the canvas centre
 * outwards; at most `max`.
 */
export async function modelPixels(page: Page, max = 40, r = 3): Promise<Array<[number, number]>> {
  const canvas = page.getByTestId('viewer-canvas');
  const box = (await canvas.boundingBox())!;
  const png = PNG.sync.read(await canvas.screenshot());
  const scale = png.width / box.width;
  const isModel = (x: number, y: number) => {
    const i = (y * png.width + x) * 4;
    const d =
      Math.abs(png.data[i] - BACKGROUND[0]) +
      Math.abs(png.data[i + 1] - BACKGROUND[1]) +
      Math.abs(png.data[i + 2] - BACKGROUND[2]);
    return d > 24;
  };
  const found: Array<[number, number, number]> = [];
  const step = Math.max(4, Math.round(8 * scale));
  const cx = png.width / 2;
  const cy = png.height / 2;
  for (let y = r; y < png.height - r; y += step)
    for (let x = r; x < png.width - r; x += step) {
      let all = true;
      for (let dy = -r; dy <= r && all; dy++) for (let dx = -r; dx <= r && all; dx++) all = isModel(x + dx, y + dy);
      if (all) found.push([x, y, (x - cx) ** 2 + (y - cy) ** 2]);
    }
  found.sort((a, b) => a[2] - b[2]);
  return found.slice(0, max).map(([x, y]) => [box.x + x / scale, box.y + y / scale]);
}

/** Clicks at (x, y) and waits until the engine has answered the click (selection-changed, hit or miss). */
export async function clickAndWaitForSelection(page: Page, x: number, y: number): Promise<void> {
  const before = Number(await engineState(page, 'selection-seq'));
  await page.mouse.click(x, y);
  await waitForEngineState(page, 'selection-seq', (v) => Number(v) > before);
}

/** Waits until the input with data-testid `testId` holds `expected` (a string, or a pattern it matches). */
export async function waitForInputValue(page: Page, testId: string, expected: string | RegExp): Promise<void> {
  const [text, pattern] = typeof expected === 'string' ? [expected, null] : [null, expected.source];
  await page.waitForFunction(
    ([id, t, p]) => {
      const v = (document.querySelector(`[data-testid="${id}"]`) as HTMLInputElement | null)?.value;
      return v !== undefined && (p === null ? v === t : new RegExp(p).test(v));
    },
    [testId, text, pattern] as const,
  );
}

/**
 * Moves the mouse to (x, y) over the model and waits until the engine has reported a new point under the
 * cursor (data-cursor, mm); returns it.
 */
export async function hoverModelPoint(page: Page, x: number, y: number): Promise<string> {
  const before = await engineState(page, 'cursor');
  await page.mouse.move(x, y);
  await waitForEngineState(page, 'cursor', (v) => v !== '' && v !== before);
  return engineState(page, 'cursor');
}
