/**
 * The admin panel's Users and Projects tabs in Chromium against a real server (application.md §2 "Admin
 * panel", §5 "User form (admin)", §8 toasts): the form's validation texts, adding a user, the admin:view
 * acknowledgement, granting project access in 'Edit project access' — and the new user signing in (forced
 * to change the password first) and seeing the granted project on the start page.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/chromium';
import { startServer, type RunningServer } from './support/keelsonServer';
import { apiRequest, newLoggedInPage, seedSample, shutDown } from './support/seed';

const MODEL = 'NAPA-OCX_M1';
const NEW = { email: 'welder@other.org', name: 'Wendy Welder', password: 'first-password' };

let server: RunningServer;
let browser: Browser;
let adminToken: string;
let page: Page;

const dialog = () => page.getByTestId('user-dialog');

async function adminUsers(): Promise<Array<{ email: string; permissions: string[]; requirePasswordReset: boolean }>> {
  return (await apiRequest(server.url, adminToken, 'GET', '/api/default/viewer/users/all')).json();
}

beforeAll(async () => {
  server = await startServer({ ORGANIZATION_DOMAIN: 'yard.com' });
  adminToken = await seedSample(
    server,
    { email: 'admin@yard.com', fullName: 'Ada Admin', password: 'admin-pw-12' },
    MODEL,
  );
  browser = await launchChromium();
  page = await newLoggedInPage(browser, adminToken);
  await page.goto(`${server.url}/admin`);
  await page.getByTestId('users-table').waitFor();
});

afterAll(async () => {
  await shutDown(server, browser);
});

describe('Users tab', () => {
  it('lists the users with initials, type and project count; an administrator cannot be deleted', async () => {
    const row = page.getByTestId('user-row-admin@yard.com');
    await row.waitFor();
    expect(await row.textContent()).toContain('AA');
    expect(await row.textContent()).toContain('administrator');
    expect(await row.getByTestId('project-count').textContent()).toBe('1');
    await row.getByRole('button', { name: 'Expand admin@yard.com' }).click();
    await page.getByRole('button', { name: 'Edit', exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Delete', exact: true }).count()).toBe(0);
  });

  it("shows the user form's texts and the warning toast for an empty form", async () => {
    await page.getByRole('button', { name: 'Add user' }).click();
    await dialog().getByRole('button', { name: 'Save' }).click();
    for (const text of ['Name is required', 'Email is required', 'Password is required'])
      await dialog().getByText(text, { exact: true }).waitFor();
    await page.getByTestId('toast-warning').getByText('Missing or invalid user data, please check input').waitFor();
    await dialog().getByLabel('Email').fill('not-an-email');
    await dialog().getByLabel('Password').fill('short');
    await dialog().getByRole('button', { name: 'Save' }).click();
    await dialog().getByText('A valid email address is required').waitFor();
    await dialog().getByText('Password needs to be at least 8 characters long').waitFor();
  });

  it('applies the organisation-domain rule to a new e-mail', async () => {
    const projectBox = dialog().getByRole('checkbox', { name: MODEL.toUpperCase() });
    await dialog().getByLabel('Email').fill('fitter@yard.com');
    expect(await projectBox.isChecked()).toBe(true);
    expect(
      await dialog()
        .getByRole('checkbox', { name: /^Add projects/ })
        .isChecked(),
    ).toBe(true);
    await dialog().getByLabel('Email').fill(NEW.email);
    expect(await projectBox.isChecked()).toBe(false);
  });

  it('asks for acknowledgement before granting admin:view', async () => {
    const adminBox = dialog().getByRole('checkbox', { name: /^Administration/ });
    await adminBox.click();
    const confirm = page.getByTestId('confirm-dialog');
    await confirm
      .getByText(`This will grant ${NEW.email} unlimited privileges to view, edit and delete all resources.`)
      .waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await adminBox.isChecked()).toBe(false);
  });

  it('adds the user; the list shows it with a forced password change', async () => {
    await dialog().getByLabel('Name').fill(NEW.name);
    await dialog().getByLabel('Password').fill(NEW.password);
    await dialog().getByRole('button', { name: 'Save' }).click();
    await page.getByText(`User ${NEW.email} updated`).waitFor();
    await dialog().waitFor({ state: 'detached' });
    await page.getByTestId(`user-row-${NEW.email}`).waitFor();
    const added = (await adminUsers()).find((u) => u.email === NEW.email);
    expect(added).toMatchObject({ permissions: [], requirePasswordReset: true });
  });
});

describe('Projects tab', () => {
  it('lists the project with its date and users; the expanded row shows Permanent access', async () => {
    await page.getByRole('tab', { name: 'Projects' }).click();
    const row = page.getByTestId(`project-row-${MODEL.toUpperCase()}`);
    await row.waitFor();
    expect(await row.textContent()).toMatch(/\w{3} \d{2}\.\d{2}\.\d{4} \d{1,2}:\d{2}:\d{2}/);
    expect(await row.getByTestId('user-count').textContent()).toBe('1');
    await row.click();
    const users = page.getByTestId(`project-users-${MODEL.toUpperCase()}`);
    await users.getByText('Permanent').waitFor();
    expect(await users.textContent()).toContain('admin@yard.com');
  });

  it("grants access in 'Edit project access' (administrators locked)", async () => {
    await page.getByRole('button', { name: 'Edit user access' }).click();
    const d = page.getByTestId('project-access-dialog');
    await d.getByText('Edit project access').waitFor();
    const adminBox = d.getByRole('checkbox', { name: /admin@yard\.com/ });
    expect(await adminBox.isChecked()).toBe(true);
    expect(await adminBox.isDisabled()).toBe(true);
    await d.getByRole('group', { name: 'Users without access' }).getByRole('checkbox', { name: NEW.email }).check();
    await d.getByRole('button', { name: 'Save' }).click();
    await page.getByText(`User ${NEW.email} updated`).first().waitFor();
    await d.waitFor({ state: 'detached' });
    await page.getByTestId(`project-row-${MODEL.toUpperCase()}`).getByTestId('user-count').getByText('2').waitFor();
  });
});

describe('the new user', () => {
  it('must change the password first and then sees the granted project', async () => {
    const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    const p = await context.newPage();
    await p.goto(`${server.url}/login`);
    await p.getByLabel('E-mail').fill(NEW.email);
    await p.getByLabel('Password', { exact: true }).fill(NEW.password);
    await p.getByRole('button', { name: 'Login' }).click();
    await p.waitForURL(`${server.url}/changePassword`);
    await p.getByLabel('Current password').fill(NEW.password);
    await p.getByLabel('New password').fill('my-own-password');
    await p.getByLabel('Confirm password').fill('my-own-password');
    await p.getByRole('button', { name: 'Change password' }).click();
    await p.waitForURL(`${server.url}/`);
    await p.getByRole('tab', { name: 'Browse' }).click();
    await p.getByTestId(`project-card-${MODEL.toUpperCase()}`).waitFor();
    await context.close();
  });
});
