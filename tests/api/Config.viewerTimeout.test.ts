/**
 * WEB_VIEWER_TIMEOUT_MIN (application.md §3 client config webViewerTimeoutInMin, §9 default 15 minutes):
 * minutes with fractions, reaching clients through GET /api/config; a value that is not a positive number
 * stops the server with the variable's name.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../api/config';
import { makeApp, type TestApp } from './helpers';

let t: TestApp | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

const env = (value: string | undefined) => ({
  WEB_VIEWER_TIMEOUT_MIN: value,
  JWT_SECRET: 'x',
  DATA_DIR: '/nonexistent',
});

describe('viewer inactivity timeout setting', () => {
  it('defaults to 15 minutes and accepts fractions', () => {
    expect(loadConfig(env(undefined)).webViewerTimeoutMin).toBe(15);
    expect(loadConfig(env('0.05')).webViewerTimeoutMin).toBe(0.05);
    expect(loadConfig(env('30')).webViewerTimeoutMin).toBe(30);
  });

  it('refuses zero, negative and non-numbers with the variable name', () => {
    for (const bad of ['0', '-1', 'abc', 'Infinity'])
      expect(() => loadConfig(env(bad))).toThrow(`WEB_VIEWER_TIMEOUT_MIN="${bad}" is not a positive number`);
  });

  it('reaches clients as webViewerTimeoutInMin', async () => {
    t = await makeApp({ webViewerTimeoutMin: 0.05 });
    const r = await t.app.inject({ url: '/api/config' });
    expect(r.json()).toMatchObject({ webViewerTimeoutInMin: 0.05 });
  });
});
