/**
 * The services one server instance holds (built by app.ts, reached by route plugins as `app.ctx`),
 * and the request helpers every route group shares: the signed-in user and permission checks
 * (application.md §6 "Roles and permissions").
 */
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { ProjectAccess } from './access/ProjectAccess';
import type { UserNotification } from './contract/common';
import type { User, UserStore } from './auth/UserStore';
import type { TokenService } from './auth/tokens';
import type { CommentStore } from './comments/CommentStore';
import type { CommentEvents } from './comments/events';
import type { CompareService } from './compare/CompareService';
import { Fanout } from './events';
import type { ServerConfig } from './config';
import type { ConversionManager } from './conversion/ConversionManager';
import type { CadWaits } from './conversion/CadWaits';
import type { DB } from './db/database';
import { Errors } from './errors';
import type { ProjectLocations } from './locations/ProjectLocations';
import type { ProjectStore } from './projects/ProjectStore';
import type { RevisionCache } from './projects/RevisionCache';
import type { AdminSettings } from './settings/AdminSettings';
import type { BcfImportRunner } from './comments/bcf/bcfImportRunner';
import type { ReadinessProbes } from './readinessProbes';
import type { ProjectUpdateScheduler } from './scheduling/ProjectUpdateScheduler';
import type { TagEvents } from './tags/events';
import type { TagStore } from './tags/TagStore';

/** Everything a route needs. */
export interface AppContext {
  config: ServerConfig;
  db: Kysely<DB>;
  users: UserStore;
  tokens: TokenService;
  projects: ProjectStore;
  conversions: ConversionManager;
  /** Conversions paused for their CAD files (the CAD upload dialog; api/realtime.ts sends 'cadfiles'). */
  cadWaits: CadWaits;
  revisionCache: RevisionCache;
  access: ProjectAccess;
  /** Notices to a user's realtime room (api/realtime.ts subscribes). */
  notices: UserNotices;
  /** Review comments and their attachment files. */
  comments: CommentStore;
  /** Comment changes to the projects' realtime rooms (api/realtime.ts subscribes). */
  commentEvents: CommentEvents;
  /** Revision comparisons, computed in a worker and cached per pair. */
  compare: CompareService;
  /** BCF packages read for import, in a worker thread. */
  bcfImport: BcfImportRunner;
  /** The admin settings: conversion config and object-properties config. */
  settings: AdminSettings;
  /** The configured project locations (directories, other Keelson servers). */
  locations: ProjectLocations;
  /** Scheduled project updates (admin Scheduling tab). */
  scheduler: ProjectUpdateScheduler;
  /** Custom model tree tags and tagging of the projects. */
  tags: TagStore;
  /** Tag changes to the projects' realtime rooms (api/realtime.ts subscribes). */
  tagEvents: TagEvents;
  /** Whether this process is stopping (SIGTERM): GET /api/ready then answers 503. */
  lifecycle: { stopping: boolean };
  /** Readiness probes of the S3 bucket and Redis when configured (GET /api/ready). */
  readiness: ReadinessProbes;
}

/** Fan-out of user notifications (application.md §4 "Realtime user notification") to subscribers. */
export class UserNotices extends Fanout<UserNotification> {}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
  interface FastifyRequest {
    /** The signed-in user (set by the bearer check in app.ts); null on public routes. */
    user: User | null;
  }
}

/** The signed-in user. @throws ApiError 401 'Authentication required' when there is none. */
export function requireUser(request: FastifyRequest): User {
  if (!request.user) throw Errors.authRequired();
  return request.user;
}
