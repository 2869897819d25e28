/**
 * Server configuration from the environment. Every value has a default so a bare
 * `npm start` works; JWT_SECRET, when unset, is generated once and kept in DATA_DIR/jwt-secret.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  loadProjectLocations,
  loadTrustedServers,
  type ProjectLocationConfig,
  type TrustedServer,
} from './locations/locationsConfig';
import { type StorageConfig, storageConfig } from './storage/storageConfig';

/** Resolved server settings. Paths are absolute. */
export interface ServerConfig {
  port: number;
  host: string;
  /** Root of the SQLite file (when the database is SQLite), uploads and converted packages. */
  dataDir: string;
  /** Where the tables live: DATA_DIR/keelson.sqlite (default) or a PostgreSQL database (DATABASE_URL). */
  database: DatabaseConfig;
  /** Instance name used in /api/auth/viewer/{instance} (ARCHITECTURE.md "Names"). */
  instance: string;
  jwtSecret: string;
  /** Token lifetime, minutes. */
  tokenTtlMin: number;
  allowRegistration: boolean;
  organizationDomain: string;
  /** Viewer inactivity timeout given to clients, minutes (fractions allowed, > 0). */
  webViewerTimeoutMin: number;
  /** Import the demo ship on first start. */
  demoShip: boolean;
  maxUploadMb: number;
  /** Most an uploaded archive may unpack to, MB (also capped at 20 × maxUploadMb). */
  maxUnpackedMb: number;
  /** Heap limit of a conversion worker thread, MB: a file that needs more fails with a clear message. */
  convertWorkerMemoryMb: number;
  /** Built UI directory served with SPA fallback (server.ts only). */
  uiDir: string;
  /** Run conversions in worker threads (piscina); false runs them in-process (CLI, some tests). */
  useWorkerThreads: boolean;
  /**
   * Sign-in attempts allowed per minute (login and changePassword: per client IP and e-mail;
   * registration: per client IP); more get 429. 0 switches the limit off.
   */
  authRateLimitPerMin: number;
  /** Take the client IP from X-Forwarded-For (behind a reverse proxy), for the sign-in limit. */
  trustProxy: boolean;
  /** Who signs users in: Keelson's own passwords ('local') or an OpenID Connect provider ('oidc'). */
  authProvider: 'local' | 'oidc';
  /** OpenID Connect settings; used when authProvider is 'oidc'. */
  oidc: OidcConfig;
  /**
   * When the licence ends (LICENSE_EXPIRES, an ISO 8601 date or time; a bare date ends at 23:59:59.999 UTC
   * of that day); null: no expiry. Past it, model calls answer LicenseError (api/routes/license.ts).
   */
  licenseExpires: string | null;
  /** Directory of the rotating server log files (DATA_DIR/logs; api/logging.ts). */
  logDir: string;
  /** Project locations: server directories and other Keelson servers (PROJECT_LOCATIONS[_FILE]). */
  projectLocations: ProjectLocationConfig[];
  /** Other Keelson servers that may pull projects for their users (TRUSTED_SERVERS). */
  trustedServers: TrustedServer[];
  /** Time zone of scheduled project updates (IANA name; SCHEDULE_TIMEZONE, default the server's). */
  scheduleTimezone: string;
  /** The job queue of conversions (README "Running at scale"). */
  jobs: JobsConfig;
  /** Where converted revisions are kept: DATA_DIR/projects or an S3 bucket (STORAGE, S3_*). */
  storage: StorageConfig;
  /** How realtime pushes reach the other server processes (REALTIME, REDIS_URL). */
  realtime: RealtimeConfig;
}

/**
 * The socket.io adapter joining server processes (README "Running at scale"): none ('local', one process:
 * SQLite's default), the PostgreSQL adapter on the database (PostgreSQL's default) or Redis at `url`.
 */
export type RealtimeConfig = { kind: 'local' } | { kind: 'postgres' } | { kind: 'redis'; url: string };

/**
 * REALTIME (`postgres`, `redis`; unset: `postgres` on PostgreSQL, none on SQLite) and REDIS_URL.
 * @throws Error naming the variable: another value; `redis` without a redis:// or rediss:// REDIS_URL; either
 * adapter on SQLite (one process serves every client; several processes need PostgreSQL).
 */
export function realtimeConfig(env: NodeJS.ProcessEnv, database: DatabaseConfig): RealtimeConfig {
  const v = (env.REALTIME ?? '').trim().toLowerCase();
  if (v === '') return database.kind === 'postgres' ? { kind: 'postgres' } : { kind: 'local' };
  if (v !== 'postgres' && v !== 'redis')
    throw new Error(`Environment variable REALTIME="${env.REALTIME}" is not 'postgres' or 'redis'`);
  if (database.kind !== 'postgres')
    throw new Error(
      `REALTIME=${v} joins several server processes, which need PostgreSQL (DATABASE_URL=postgres://...); on SQLite one process serves every client: unset REALTIME`,
    );
  if (v === 'postgres') return { kind: 'postgres' };
  const url = (env.REDIS_URL ?? '').trim();
  if (!/^rediss?:\/\/./i.test(url))
    throw new Error('REALTIME=redis needs REDIS_URL=redis://host:port (or rediss:// for TLS)');
  return { kind: 'redis', url };
}

/** How conversions are queued and how a server process stops (README "Running at scale"). */
export interface JobsConfig {
  /** A process silent this long holding a conversion is dead: its job is retried or failed, s (JOB_TIMEOUT_SEC). */
  timeoutSec: number;
  /** How many processes may take one conversion job before it fails (JOB_ATTEMPTS, ≥ 1). */
  attempts: number;
  /** Conversion jobs one process runs at once from the shared PostgreSQL queue (JOB_CONCURRENCY, ≥ 1). */
  concurrency: number;
  /** How long SIGTERM/SIGINT lets running conversions finish before handing them back, s (SHUTDOWN_GRACE_SEC). */
  shutdownGraceSec: number;
}

/**
 * The database: the embedded SQLite file DATA_DIR/keelson.sqlite, or a PostgreSQL server reached with a
 * libpq connection URL (`postgres://user:password@host:port/database`, also `?host=/socket/dir`).
 */
export type DatabaseConfig = { kind: 'sqlite' } | { kind: 'postgres'; url: string };

/**
 * DATABASE_URL: unset or empty selects SQLite; a postgres:// or postgresql:// URL selects PostgreSQL;
 * `sqlite` names the default explicitly.
 * @throws Error naming DATABASE_URL for any other value.
 */
export function databaseConfig(value: string | undefined): DatabaseConfig {
  const v = (value ?? '').trim();
  if (v === '' || v === 'sqlite') return { kind: 'sqlite' };
  if (/^postgres(ql)?:\/\//i.test(v)) return { kind: 'postgres', url: v };
  throw new Error('Environment variable DATABASE_URL is not a postgres:// URL (unset it to use SQLite)');
}

/** The OpenID Connect provider Keelson signs users in with (authorization code + PKCE). */
export interface OidcConfig {
  /** Issuer URL; discovery reads `{issuer}/.well-known/openid-configuration`. */
  issuer: string;
  clientId: string;
  /** Client secret for a confidential client (client_secret_basic); empty for a public client. */
  clientSecret: string;
  /** Scopes asked for; must yield the `email` claim in the ID token. */
  scopes: string;
  /** Redirect URI registered at the provider; empty: the UI's origin + '/login/callback'. */
  redirectUri: string;
  /** E-mail that becomes the administrator on its first sign-in while no administrator exists. */
  adminEmail: string;
  /** How long the server waits for the provider (discovery, keys, token exchange), ms. */
  timeoutMs: number;
}

function provider(value: string | undefined): 'local' | 'oidc' {
  if (value === undefined || value === '' || value === 'local') return 'local';
  if (value === 'oidc') return 'oidc';
  throw new Error(`Environment variable AUTH_PROVIDER="${value}" is not 'local' or 'oidc'`);
}

/** LICENSE_EXPIRES as an ISO time, or null when unset. */
function licenseExpiry(value: string | undefined): string | null {
  if (value === undefined || value.trim() === '') return null;
  const v = value.trim();
  const t = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T23:59:59.999Z` : v);
  if (Number.isNaN(t)) throw new Error(`Environment variable LICENSE_EXPIRES="${value}" is not an ISO 8601 date`);
  return new Date(t).toISOString();
}

function bool(value: string | undefined, fallback: boolean, name: string): boolean {
  if (value === undefined || value === '') return fallback;
  if (/^(true|1|yes|on)$/i.test(value)) return true;
  if (/^(false|0|no|off)$/i.test(value)) return false;
  throw new Error(`Environment variable ${name}="${value}" is not a boolean (use true or false)`);
}

function int(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new Error(`Environment variable ${name}="${value}" is not a non-negative integer`);
  return n;
}

function positive(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0)
    throw new Error(`Environment variable ${name}="${value}" is not a positive number`);
  return n;
}

/** Reads DATA_DIR/jwt-secret, creating it (64 random bytes, hex, mode 600) on first use. */
export function loadOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(64).toString('hex');
  // Written whole under a private name, then linked into place: several processes starting at once on one
  // DATA_DIR (npm run start:cluster) all end up with the one secret that won, never a half-written file.
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(tmp, secret, { mode: 0o600 });
  try {
    linkSync(tmp, file);
    return secret;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    return readFileSync(file, 'utf8').trim();
  } finally {
    rmSync(tmp, { force: true });
  }
}

/**
 * Builds the configuration from `env` (default process.env); `overrides` win (tests).
 * @throws Error naming the variable when a value cannot be parsed.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<ServerConfig> = {}): ServerConfig {
  const dataDir = path.resolve(overrides.dataDir ?? env.DATA_DIR ?? './data');
  const cfg: ServerConfig = {
    port: int(env.PORT, 8080, 'PORT'),
    host: env.HOST || '0.0.0.0',
    dataDir,
    database: databaseConfig(env.DATABASE_URL),
    instance: env.INSTANCE || 'default',
    jwtSecret: env.JWT_SECRET || '',
    tokenTtlMin: int(env.TOKEN_TTL_MIN, 720, 'TOKEN_TTL_MIN'),
    allowRegistration: bool(env.ALLOW_REGISTRATION, true, 'ALLOW_REGISTRATION'),
    organizationDomain: env.ORGANIZATION_DOMAIN ?? '',
    webViewerTimeoutMin: positive(env.WEB_VIEWER_TIMEOUT_MIN, 15, 'WEB_VIEWER_TIMEOUT_MIN'),
    demoShip: bool(env.DEMO_SHIP, true, 'DEMO_SHIP'),
    maxUploadMb: int(env.MAX_UPLOAD_MB, 2048, 'MAX_UPLOAD_MB'),
    maxUnpackedMb: int(env.MAX_UNPACKED_MB, 4096, 'MAX_UNPACKED_MB'),
    convertWorkerMemoryMb: int(env.CONVERT_WORKER_MEMORY_MB, 4096, 'CONVERT_WORKER_MEMORY_MB'),
    uiDir: path.resolve(env.UI_DIR ?? 'dist/ui'),
    useWorkerThreads: bool(env.CONVERT_IN_WORKERS, true, 'CONVERT_IN_WORKERS'),
    authRateLimitPerMin: int(env.AUTH_RATE_LIMIT_PER_MIN, 10, 'AUTH_RATE_LIMIT_PER_MIN'),
    trustProxy: bool(env.TRUST_PROXY, false, 'TRUST_PROXY'),
    authProvider: provider(env.AUTH_PROVIDER),
    oidc: {
      issuer: (env.OIDC_ISSUER ?? '').replace(/\/+$/, ''),
      clientId: env.OIDC_CLIENT_ID ?? '',
      clientSecret: env.OIDC_CLIENT_SECRET ?? '',
      scopes: env.OIDC_SCOPES || 'openid email profile',
      redirectUri: env.OIDC_REDIRECT_URI ?? '',
      adminEmail: (env.OIDC_ADMIN_EMAIL ?? '').trim().toLowerCase(),
      timeoutMs: int(env.OIDC_TIMEOUT_MS, 10_000, 'OIDC_TIMEOUT_MS'),
    },
    licenseExpires: licenseExpiry(env.LICENSE_EXPIRES),
    logDir: path.join(dataDir, 'logs'),
    projectLocations: loadProjectLocations(env, env.INSTANCE || 'default'),
    trustedServers: loadTrustedServers(env),
    scheduleTimezone: env.SCHEDULE_TIMEZONE || Intl.DateTimeFormat().resolvedOptions().timeZone,
    jobs: {
      timeoutSec: positive(env.JOB_TIMEOUT_SEC, 60, 'JOB_TIMEOUT_SEC'),
      attempts: Math.max(1, int(env.JOB_ATTEMPTS, 2, 'JOB_ATTEMPTS')),
      concurrency: Math.max(1, int(env.JOB_CONCURRENCY, 2, 'JOB_CONCURRENCY')),
      shutdownGraceSec: int(env.SHUTDOWN_GRACE_SEC, 30, 'SHUTDOWN_GRACE_SEC'),
    },
    storage: storageConfig(env),
    realtime: { kind: 'local' },
    ...overrides,
  };
  if (!overrides.realtime) cfg.realtime = realtimeConfig(env, cfg.database);
  if (cfg.authProvider === 'oidc' && (!cfg.oidc.issuer || !cfg.oidc.clientId))
    throw new Error('AUTH_PROVIDER=oidc needs OIDC_ISSUER and OIDC_CLIENT_ID');
  if (!cfg.jwtSecret) cfg.jwtSecret = loadOrCreateSecret(cfg.dataDir);
  return cfg;
}
