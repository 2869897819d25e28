/**
 * A real local S3-compatible server for the tests of the S3 revision store (api/storage/S3Storage.ts):
 * npm's s3rver (objects on disk in a temporary directory) on a free local port, with one bucket, and the
 * S3 settings that reach it (s3rver's fixed credentials S3RVER/S3RVER, path-style addressing).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { S3Settings } from '../../api/storage/S3Storage';
import { freePort } from './serverProcess';

/** A running s3rver. */
export interface TestS3Server {
  /** Settings of a store in `bucket` (created at start). */
  settings: S3Settings;
  /** The same settings as the server's environment (STORAGE=s3 and S3_*). */
  env: Record<string, string>;
  /** Stops the server and removes its directory. */
  close(): Promise<void>;
}

/** Starts s3rver with bucket `bucket` (default 'keelson-revisions'). */
export async function startS3Server(bucket = 'keelson-revisions'): Promise<TestS3Server> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'keelson-s3-'));
  const server = new S3rver({
    port: await freePort(),
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const settings: S3Settings = {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  };
  return {
    settings,
    env: {
      STORAGE: 's3',
      S3_ENDPOINT: settings.endpoint,
      S3_BUCKET: bucket,
      S3_REGION: settings.region,
      S3_ACCESS_KEY_ID: settings.accessKeyId,
      S3_SECRET_ACCESS_KEY: settings.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    },
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
