/**
 * The Scheduling tab and projects from locations in Chromium against a real server whose project location
 * is the shared sample directory (application.md §2 "Scheduling tab", "Dialogs of the start page"): an
 * administrator adds a job, picks a project file in the location tree, adds a time a minute or two ahead
 * (the same time cannot be added twice), saves; the server runs the job at that time and the open start
 * page shows the new revision live. The Add project dialog adds a project from the server location and from a
 * directory on the user's computer.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/chromium';
import { samplesDir, startServer, type RunningServer } from './support/keelsonServer';
import { apiRequest, newLoggedInPage, seedSample, shutDown } from './support/seed';

const MODEL = 'NAPA-OCX_M1';
let server: RunningServer;
let browser: Browser;
let token: string;
let page: Page;

async function revisionCount(name: string): Promise<number> {
  const r = await apiRequest(server.url, token, 'GET', '/api/viewer/project/models');
  const models = (await r.json()) as Array<{ name: string; revisions: unknown[] }>;
  return models.find((m) => m.name === name)?.revisions.length ?? 0;
}

beforeAll(async () => {
  server = await startServer({
    ORGANIZATION_DOMAIN: 'yard.com',
    SCHEDULE_TIMEZONE: 'UTC',
    PROJECT_LOCATIONS: JSON.stringify([{ type: 'directory', path: samplesDir, name: 'ocx' }]),
  });
  token = await seedSample(
    server,
    { email: 'admin@yard.com', fullName: 'Ada Admin', password: 'admin-password-1' },
    MODEL,
  );
  browser = await launchChromium();
  page = await newLoggedInPage(browser, token);
}, 240_000);

afterAll(async () => {
  await shutDown(server, browser);
});

describe('admin scheduling', () => {
  it('schedules a job a minute ahead and the start page shows the revision it made', async () => {
    await page.goto(`${server.url}/admin`);
    await page.getByRole('tab', { name: 'Scheduling' }).click();
    await page.getByText('No scheduled project update jobs').waitFor();
    const save = page.getByRole('button', { name: 'Save changes' });
    expect(await save.isDisabled()).toBe(true);

    await page.getByRole('button', { name: 'Add job' }).click();
    const job = page.getByRole('region', { name: 'Project update job 1' });
    await job.waitFor();
    expect(await save.isEnabled()).toBe(true);
    expect(await job.getByText('Select Keelson project file(s)').count()).toBe(1);
    await job.getByRole('checkbox', { name: `${MODEL}.3docx` }).check();

    // A minute ahead in the schedule's time zone (UTC), two when the next minute is too close.
    const now = new Date();
    const at = new Date(now.getTime() + (now.getUTCSeconds() > 30 ? 120_000 : 60_000));
    const hh = String(at.getUTCHours()).padStart(2, '0');
    const mm = String(at.getUTCMinutes()).padStart(2, '0');
    await job.getByRole('button', { name: 'Add time(s)' }).click();
    await job.getByRole('combobox', { name: 'Hour' }).selectOption(hh);
    await job.getByRole('combobox', { name: 'Minute' }).selectOption(mm);
    const addTime = job.getByRole('button', { name: 'Add time', exact: true });
    await addTime.click();
    await job.getByText(`${hh}:${mm}`).waitFor();
    expect(await addTime.isDisabled()).toBe(true);
    await job.getByRole('button', { name: 'Cancel' }).click();

    await save.click();
    await page.waitForFunction(
      () =>
        ([...document.querySelectorAll('button')].find((b) => b.textContent === 'Save changes') as HTMLButtonElement)
          ?.disabled === true,
    );
    const saved = (await (
      await apiRequest(server.url, token, 'GET', '/api/default/scheduling/project-update-schedule')
    ).json()) as unknown[];
    expect(saved).toEqual([
      {
        id: 1,
        sources: [`${samplesDir}/${MODEL}.3docx`],
        timesOfDay: [`${hh}:${mm}`],
        keelsonId: 'admin@yard.com',
        overwriteIfExists: false,
      },
    ]);

    // The start page is opened well before the job's time: the revision appears there live, with no reload.
    await page.goto(server.url);
    await page.getByRole('tab', { name: 'Browse' }).click();
    await page.getByText('Rev. 1').first().waitFor();
    await page.getByText('Rev. 2').first().waitFor({ timeout: 200_000 });
    expect(await page.getByText('Scheduled project update').count()).toBeGreaterThan(0);
    expect(await revisionCount(MODEL)).toBe(2);

    // The saved job is there after a reload of the tab, unchanged until the user changes it.
    await page.goto(`${server.url}/admin`);
    await page.getByRole('tab', { name: 'Scheduling' }).click();
    const again = page.getByRole('region', { name: 'Project update job 1' });
    const file = again.getByRole('checkbox', { name: `${MODEL}.3docx` });
    await file.waitFor();
    expect(await file.isChecked()).toBe(true);
    expect(await again.getByRole('button', { name: `Remove time ${hh}:${mm}` }).count()).toBe(1);
    expect(await save.isDisabled()).toBe(true);
    await again.getByRole('checkbox', { name: 'Overwrite latest revision if exists' }).check();
    expect(await save.isEnabled()).toBe(true);
    await again.getByRole('button', { name: 'Remove Project update job 1' }).click();
    await page.getByText('No scheduled project update jobs').waitFor();
    await save.click();
    await page.waitForFunction(
      () =>
        ([...document.querySelectorAll('button')].find((b) => b.textContent === 'Save changes') as HTMLButtonElement)
          ?.disabled === true,
    );
    const emptied = await apiRequest(server.url, token, 'GET', '/api/default/scheduling/project-update-schedule');
    expect(await emptied.json()).toEqual([]);
  }, 300_000);

  it('adds a project from the server location in the Add project dialog', async () => {
    await page.goto(server.url);
    await page.getByRole('button', { name: 'Add project' }).click();
    await page.getByRole('radio', { name: 'Server location' }).check();
    await page.getByRole('radio', { name: 'NAPA-OCX_M3.3docx' }).check();
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('tab', { name: 'Browse' }).click();
    await page.getByText('Project NAPA-OCX_M3 is added').waitFor({ timeout: 120_000 });
    expect(await revisionCount('NAPA-OCX_M3')).toBe(1);
  }, 180_000);

  it('adds a project from a directory on the user computer in the Add project dialog', async () => {
    await page.goto(server.url);
    await page.getByRole('button', { name: 'Add project' }).click();
    await page.getByRole('radio', { name: 'Local directory' }).check();
    await page.getByLabel('Directory', { exact: true }).setInputFiles(samplesDir);
    // Only project files are offered (the schema files of the directory are not).
    await page.getByRole('radio', { name: /NAPA-OCX_M6\.3docx$/ }).check();
    expect(await page.getByRole('radio', { name: /\.xsd$/ }).count()).toBe(0);
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText('Project NAPA-OCX_M6 is added').waitFor({ timeout: 120_000 });
    expect(await revisionCount('NAPA-OCX_M6')).toBe(1);
  }, 180_000);
});
