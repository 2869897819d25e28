/**
 * Which revision store the server uses (README "Configuration" and "Running at scale"): STORAGE=directory
 * (default; DATA_DIR/projects) or STORAGE=s3 with the S3_* variables, and opening it at start.
 */
import { DirectoryStorage } from './DirectoryStorage';
import type { RevisionStorage } from './RevisionStorage';
import type { S3Settings } from './S3Storage';

/** The revision store setting. */
export type StorageConfig = { kind: 'directory' } | ({ kind: 's3' } & S3Settings);

/**
 * STORAGE and the S3_* variables of `env`.
 * @throws Error naming the variable: STORAGE other than `directory`/`s3`; S3 without S3_BUCKET; an access key
 * without its secret (or the reverse); S3_ENDPOINT not an http(s) URL; S3_FORCE_PATH_STYLE not a boolean.
 */
export function storageConfig(env: NodeJS.ProcessEnv): StorageConfig {
  const kind = (env.STORAGE ?? '').trim().toLowerCase();
  if (kind === '' || kind === 'directory') return { kind: 'directory' };
  if (kind !== 's3') throw new Error(`Environment variable STORAGE="${env.STORAGE}" is not 'directory' or 's3'`);
  const bucket = (env.S3_BUCKET ?? '').trim();
  if (!bucket) throw new Error('STORAGE=s3 needs S3_BUCKET (the bucket that keeps the revisions)');
  const endpoint = (env.S3_ENDPOINT ?? '').trim();
  if (endpoint && !/^https?:\/\/[^/]/i.test(endpoint))
    throw new Error(`Environment variable S3_ENDPOINT="${endpoint}" is not an http:// or https:// URL`);
  const accessKeyId = env.S3_ACCESS_KEY_ID ?? '';
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY ?? '';
  if (!accessKeyId !== !secretAccessKey)
    throw new Error(
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set together (or neither: the AWS credential chain)',
    );
  const pathStyle = (env.S3_FORCE_PATH_STYLE ?? '').trim();
  if (pathStyle && !/^(true|false|1|0|yes|no|on|off)$/i.test(pathStyle))
    throw new Error(`Environment variable S3_FORCE_PATH_STYLE="${pathStyle}" is not a boolean (use true or false)`);
  return {
    kind: 's3',
    bucket,
    endpoint,
    region: (env.S3_REGION ?? '').trim() || 'us-east-1',
    accessKeyId,
    secretAccessKey,
    // Path style by default with an own endpoint (MinIO, Ceph, s3rver answer on one host name).
    forcePathStyle: pathStyle ? /^(true|1|yes|on)$/i.test(pathStyle) : endpoint !== '',
  };
}

/**
 * The revision store of `config` for DATA_DIR `dataDir`; an S3 store is checked first (HeadBucket).
 * @throws StorageUnavailable naming the bucket and endpoint when the bucket cannot be reached.
 */
export async function openRevisionStorage(config: StorageConfig, dataDir: string): Promise<RevisionStorage> {
  if (config.kind === 'directory') return new DirectoryStorage(dataDir);
  const { kind: _kind, ...settings } = config;
  // Loaded only when configured: the SDK adds about a second to every start otherwise.
  const { S3Storage } = await import('./S3Storage');
  const store = new S3Storage(settings, dataDir);
  await store.check();
  return store;
}
