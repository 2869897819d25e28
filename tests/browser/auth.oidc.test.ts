/**
 * Sign-in with OpenID Connect in Chromium (application.md §4 identity-provider variant, §6, §8) against
 * a real provider (npm oidc-provider, tests/support/oidcProvider.ts) and a real Keelson server with
 * AUTH_PROVIDER=oidc: the login view leaves for the provider, the user comes back signed in (created on
 * first sign-in, OIDC_ADMIN_EMAIL as administrator); registration is not offered; a refusal at the
 * provider and a provider that does not answer within the auth wait end on the error view under
 * 'Authentication Error'.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidcProvider, type TestOidcProvider } from '../support/oidcProvider';
import { launchChromium } from './support/chromium';
import { startServer, type RunningServer } from './support/keelsonServer';

let idp: TestOidcProvider;
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  idp = await startOidcProvider();
  server = await startServer({
    AUTH_PROVIDER: 'oidc',
    OIDC_ISSUER: idp.issuer,
    OIDC_CLIENT_ID: idp.clientId,
    OIDC_ADMIN_EMAIL: 'boss@yard.com',
    ORGANIZATION_DOMAIN: 'yard.com',
    // Longer than the UI's auth wait, so that the UI's own 10 s wait is what the timeout test sees.
    OIDC_TIMEOUT_MS: '60000',
  });
  idp.register([`${server.url}/login/callback`]);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await idp?.close();
});

/** A fresh browser (no Keelson token, no provider session) on Keelson's login view. */
async function freshLoginPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('[pageerror]', e.message));
  await page.goto(server.url);
  await page.waitForURL(`${server.url}/login`);
  return page;
}

/** Clicks Login and arrives at the provider's login form. */
async function toProvider(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await page.waitForURL(`${idp.issuer}/**`);
  await page.getByRole('heading', { name: 'Test identity provider' }).waitFor();
}

describe('sign-in with OpenID Connect', () => {
  it('offers no password, no registration and no admin registration on the login view', async () => {
    const page = await freshLoginPage();
    await page.getByRole('button', { name: 'Login', exact: true }).waitFor();
    expect(await page.getByLabel('Password').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Register' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Admin registration' }).count()).toBe(0);
    await page.goto(`${server.url}/register`);
    await page.getByText('Registration is not enabled on this server.').waitFor();
    await page.context().close();
  });

  it('signs in at the provider and comes back to the start view as the administrator', async () => {
    const page = await freshLoginPage();
    await toProvider(page);
    await page.getByLabel('E-mail').fill('boss@yard.com');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.url}/`);
    await page.getByRole('button', { name: 'User menu' }).click();
    expect(await page.getByTestId('user-email').textContent()).toBe('boss@yard.com');
    await page.getByRole('menuitem', { name: 'Admin', exact: true }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'Admin registration' }).count()).toBe(0);
    expect(await page.getByRole('menuitem', { name: 'Change password' }).count()).toBe(0);
    // The session survives a reload (Keelson's own token, as with a password login).
    await page.reload();
    await page.getByRole('button', { name: 'User menu' }).click();
    expect(await page.getByTestId('user-email').textContent()).toBe('boss@yard.com');
    await page.context().close();
  });

  it("shows a refusal at the provider on the error view under 'Authentication Error'", async () => {
    const page = await freshLoginPage();
    await toProvider(page);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL(`${server.url}/error`);
    await page.getByRole('heading', { name: 'Authentication Error' }).waitFor();
    expect(await page.getByTestId('error-message').textContent()).toBe('End-User aborted interaction (access_denied)');
    await page.context().close();
  });

  it("shows 'Timeout on authentication to auth0' when the provider does not answer within the auth wait", async () => {
    const page = await freshLoginPage();
    await toProvider(page);
    await page.getByLabel('E-mail').fill('late@yard.com');
    idp.stall = true;
    try {
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(`${server.url}/login/callback?**`);
      await page.getByText('Signing in…').waitFor();
      await page.waitForURL(`${server.url}/error`, { timeout: 30_000 });
      await page.getByRole('heading', { name: 'Authentication Error' }).waitFor();
      expect(await page.getByTestId('error-message').textContent()).toBe('Timeout on authentication to auth0');
    } finally {
      idp.stall = false;
    }
    await page.context().close();
  });
});
