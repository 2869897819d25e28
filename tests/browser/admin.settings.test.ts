/**
 * Admin Settings in Chromium against a real server (application.md §2 "Settings tab" (1)(2), §4 "Other
 * admin state"): a conversion option toggled in the Settings tab is applied at once ('Conversion config
 * updated'), the last main option is locked, and the next conversion follows it (Screenshot off: the new
 * project's card has no thumbnail while the earlier one has); an object-properties header edited and saved
 * in the accordion (an empty added row dropped) is what the properties panel shows for a plate.
 */
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/chromium';
import { type RunningServer, samplesDir, startServer } from './support/keelsonServer';
import { apiRequest, newLoggedInPage, openViewer, seedSample, shutDown } from './support/seed';
import { clickAndWaitForSelection, engineState, modelPixels, waitForStillCanvas } from './support/viewerState';

const MODEL = 'NAPA-TR03_TC11';
const ADMIN = { email: 'settings-admin@yard.example', fullName: 'Sam Settings', password: 'settings-password-1' };
const HEADER = 'Plate thickness (design)';

let server: RunningServer;
let browser: Browser;
let page: Page;
let token: string;

beforeAll(async () => {
  server = await startServer();
  token = await seedSample(server, ADMIN, MODEL);
  browser = await launchChromium();
  page = await newLoggedInPage(browser, token);
});

afterAll(() => shutDown(server, browser));

async function openSettings(): Promise<void> {
  await page.goto(`${server.url}/admin`);
  await page.getByRole('tab', { name: 'Settings' }).click();
  await page
    .getByTestId('conversion-settings')
    .getByRole('checkbox', { name: /Screenshot/ })
    .waitFor();
}

const box = (name: RegExp) => page.getByTestId('conversion-settings').getByRole('checkbox', { name });

describe('admin settings', () => {
  it('applies a conversion option at once and locks the last main option', async () => {
    await openSettings();
    const structure = box(/Structure model/);
    const compartment = box(/Compartment model/);
    expect(await structure.isChecked()).toBe(true);
    expect(await compartment.isEnabled()).toBe(true);

    await structure.uncheck();
    await page.getByTestId('toast-success').filter({ hasText: 'Conversion config updated' }).first().waitFor();
    // Compartment model is now the only main option on: it cannot be unchecked
    await page.waitForFunction(() => {
      const el = document.querySelector<HTMLInputElement>(
        '[data-testid="conversion-settings"] input[name="compartmentModel"]',
      );
      return el?.disabled === true && el.checked;
    });
    await structure.check();
    await page.waitForFunction(
      () =>
        document.querySelector<HTMLInputElement>('[data-testid="conversion-settings"] input[name="compartmentModel"]')
          ?.disabled === false,
    );

    await box(/Screenshot/).uncheck();
    await page.waitForFunction(
      () =>
        document.querySelectorAll('[data-testid="toast-success"]').length >= 1 &&
        document.querySelector<HTMLInputElement>('[data-testid="conversion-settings"] input[name="screenshot"]')
          ?.checked === false &&
        document.querySelector<HTMLInputElement>('[data-testid="conversion-settings"] input[name="screenshot"]')
          ?.disabled === false,
    );
    // the server holds it: a reload shows the stored state
    await openSettings();
    expect(await box(/Screenshot/).isChecked()).toBe(false);
    const stored = await (await apiRequest(server.url, token, 'GET', '/api/default/viewer/config/conversion')).json();
    expect(stored).toMatchObject({ screenshot: false, structureModel: true, compartmentModel: true });
  });

  it('converts the next project with the new options: no thumbnail on its card', async () => {
    await page.goto(server.url);
    await page.getByRole('button', { name: 'Add project' }).click();
    await page.locator('input[type="file"]').setInputFiles(path.join(samplesDir, 'NAPA-OCX_M1.3docx'));
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText('Project NAPA-OCX_M1 is added').waitFor({ timeout: 180_000 });
    const fresh = page.getByTestId('project-card-NAPA-OCX_M1');
    await fresh.waitFor();
    await page
      .getByTestId(`project-card-${MODEL}`)
      .getByRole('img', { name: `${MODEL} thumbnail` })
      .waitFor();
    expect(await fresh.locator('img').count()).toBe(0);
  });

  it('saves an edited object-properties header, which the properties panel then shows', async () => {
    await openSettings();
    const section = page.getByTestId('object-properties-settings');
    await section.getByRole('button', { name: /^Plates/ }).click();
    const plates = section.locator('[data-set="plateQuantities"]');
    const rows = plates.locator('[data-quantity]');
    const before = await rows.count();
    const save = section.getByRole('button', { name: 'Save changes' });
    expect(await save.isDisabled()).toBe(true);

    await plates.locator('[data-quantity="PLTH"]').getByLabel('Header').fill(HEADER);
    await plates.getByRole('button', { name: 'Add quantity' }).click();
    expect(await rows.count()).toBe(before + 1);
    expect(await save.isEnabled()).toBe(true);
    await save.click();
    // saved: the empty row is gone and there is nothing left to save
    await page.waitForFunction(
      (n) =>
        document.querySelectorAll('[data-set="plateQuantities"] [data-quantity]').length === n &&
        [...document.querySelectorAll('button')].find((b) => b.textContent === 'Save changes')?.disabled === true,
      before,
    );
    const stored = await (await apiRequest(server.url, token, 'GET', '/api/viewer/settings/object-properties')).json();
    expect(stored.plateQuantities.find((q: { name: string }) => q.name === 'PLTH').description).toBe(HEADER);
    expect(stored.plateQuantities).toHaveLength(before);

    await openViewer(page, server.url, MODEL, true);
    await waitForStillCanvas(page);
    const panel = page.getByTestId('properties-panel');
    let plate = false;
    for (const [x, y] of await modelPixels(page, 60)) {
      await clickAndWaitForSelection(page, x, y);
      if ((await engineState(page, 'selection-count')) !== '1') continue;
      await page.getByTestId('properties-title').waitFor();
      await panel.locator('[data-property]').first().waitFor();
      if ((await panel.locator('header p').first().textContent()) === 'PLATE') {
        plate = true;
        break;
      }
    }
    expect(plate).toBe(true);
    const row = panel.locator('[data-property="PLTH"]');
    await row.waitFor();
    expect(await row.locator('th').textContent()).toBe(HEADER);
    expect(await row.locator('td').textContent()).toMatch(/^\d+\.\d mm$/);
  });
});
