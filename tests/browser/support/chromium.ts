/**
 * Debian's Chromium through playwright-core, with software WebGL (SwiftShader) so the render worker's
 * OffscreenCanvas works on a machine without a GPU (ARCHITECTURE.md "Real components").
 */
import { chromium, type Browser } from 'playwright-core';

/** Launches headless Chromium from /usr/bin/chromium (or CHROMIUM_PATH). */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--use-angle=swiftshader',
      '--enable-unsafe-swiftshader',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
    ],
  });
}
