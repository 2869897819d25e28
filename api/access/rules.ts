/**
 * The access layer (ARCHITECTURE.md "Who may see what"; application.md §6): every route declares one
 * AccessRule next to its schemas (api/routes/define.ts), and the hooks here enforce it before the
 * handler runs.
 *
 * - onRequest (app.ts): `authenticate` resolves the bearer token to a user (401 without one on any rule
 *   but anonymous; revoked tokens fail), refuses everything but the password change while the user must
 *   reset the password (403), and checks a rule's fixed permission (403 'Missing permission X').
 * - preValidation (after the schemas parsed the input): `enforceProject` checks the project named in the
 *   input: a project the user may not see answers 404 'Project X not found', exactly as a missing one.
 */
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import type { FixedPermission } from '../contract/auth';
import type { User } from '../auth/UserStore';
import { Errors } from '../errors';
import { normaliseProjectName } from '../projects/ProjectStore';
import { isPeerToken, verifyPeerToken } from '../locations/peerTokens';

/**
 * Who may call a route.
 * - anonymous: anyone (a valid bearer token still sets request.user).
 * - signedIn: any signed-in user; `duringPasswordReset` lets a user who must change the password call it.
 * - permission: a signed-in user holding a fixed permission (administrators hold all).
 * - project: read or write access to the project `project(input)` names; `permission` is checked first
 *   (so it answers the same whether the project exists or not). When `project` returns undefined the
 *   handler learns the name later and calls enforceProject itself (uploads name the project by file).
 *   `starterMayRemove`: the starter of a failed or cancelled first conversion needs no `permission`.
 */
export type AccessRule<I = unknown> =
  | { kind: 'anonymous' }
  | { kind: 'signedIn'; duringPasswordReset?: boolean }
  | { kind: 'permission'; permission: FixedPermission }
  | {
      kind: 'project';
      mode: 'read' | 'write';
      permission?: FixedPermission;
      project: (input: I) => string | undefined;
      starterMayRemove?: boolean;
    };

/** Rule constructors, so declarations read as sentences. */
export const Access = {
  anonymous: { kind: 'anonymous' } as const,
  signedIn: { kind: 'signedIn' } as const,
  passwordChange: { kind: 'signedIn', duringPasswordReset: true } as const,
  permission: (permission: FixedPermission) => ({ kind: 'permission', permission }) as const,
  read: <I>(project: (input: I) => string | undefined): AccessRule<I> => ({ kind: 'project', mode: 'read', project }),
  write: <I>(
    project: (input: I) => string | undefined,
    permission: FixedPermission,
    opts: { starterMayRemove?: boolean } = {},
  ): AccessRule<I> => ({ kind: 'project', mode: 'write', project, permission, ...opts }),
  /** Read access to the project a query's `modelName` names (the instance calls). */
  byModel: {
    kind: 'project',
    mode: 'read',
    project: (i: { query: { modelName: string } }) => i.query.modelName,
  } as const,
  /** Read access to the project a query's `projectName` names. */
  byProject: {
    kind: 'project',
    mode: 'read',
    project: (i: { query: { projectName: string } }) => i.query.projectName,
  } as const,
};

/** True when `user` holds a fixed permission (administrators hold all). */
export function hasPermission(user: User, permission: FixedPermission): boolean {
  return user.userType === 'administrator' || user.permissions.includes(permission);
}

/**
 * The user of a bearer token: valid signature, not expired, user still there, token version current.
 * @throws ApiError 401 'Authentication required' | 'Token expired' | 'Invalid token' | 'User not found' |
 *   'The session has ended; sign in again' (revoked by logout, password or permission change).
 */
export async function userOfToken(ctx: AppContext, token: string | undefined): Promise<User> {
  if (!token) throw Errors.authRequired();
  // Another Keelson server acting for its user of the same e-mail (README "Project locations").
  if (isPeerToken(token)) {
    const peerUser = await ctx.users.find(await verifyPeerToken(ctx.config.trustedServers, token));
    if (!peerUser) throw Errors.userNotFound();
    return peerUser;
  }
  const { email, version } = await ctx.tokens.verifyClaims(token);
  const user = await ctx.users.find(email);
  if (!user) throw Errors.userNotFound();
  if (version !== user.tokenVersion) throw Errors.tokenRevoked();
  return user;
}

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const h = request.headers.authorization;
  const m = typeof h === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(h.trim()) : null;
  return m ? m[1] : undefined;
}

/**
 * onRequest part of a rule: sets request.user; 401 / 403 as described in the module comment. An
 * anonymous route gets the user when a valid token is sent and null otherwise (never an error).
 */
export async function authenticate(ctx: AppContext, request: FastifyRequest, rule: AccessRule<never>): Promise<void> {
  if (rule.kind === 'anonymous') {
    request.user = await userOfToken(ctx, bearerToken(request)).catch(() => null);
    return;
  }
  const token = bearerToken(request);
  const user = await userOfToken(ctx, token);
  if (request.method !== 'GET' && isPeerToken(token)) throw Errors.peerTokenReadOnly();
  // A password set by an administrator must be changed before anything else (application.md §4).
  if (user.requirePasswordReset && !(rule.kind === 'signedIn' && rule.duringPasswordReset))
    throw Errors.passwordChangeRequired();
  request.user = user;
  if (
    (rule.kind === 'permission' || rule.kind === 'project') &&
    rule.permission &&
    !hasPermission(user, rule.permission)
  ) {
    if (!(rule.kind === 'project' && rule.starterMayRemove)) throw Errors.missingPermission(rule.permission);
  }
}

/**
 * True when `user` may see project `name`: an administrator, a current access row, or the starter of a
 * first conversion of that name (the project has no revision yet, so nobody else holds access to it).
 */
export async function maySee(ctx: AppContext, user: User, name: string): Promise<boolean> {
  if (await ctx.access.canSee(user, name)) return true;
  if (await ctx.projects.exists(name)) return false;
  const running = ctx.conversions.running(name);
  return starterMaySee(user, running?.startedBy ?? (await ctx.conversions.latest(name))?.started_by);
}

/**
 * The last step of maySee for a project the user holds no access row to and that has no revision: the
 * starter of its running (or else its latest) conversion, `startedBy`, may see it. Lists that have read
 * every project's conversions already (the model list) decide with this instead of one maySee per name.
 */
export function starterMaySee(user: User, startedBy: string | undefined): boolean {
  return startedBy !== undefined && startedBy === user.email;
}

/**
 * preValidation part of a project rule (and the late check of routes that learn the name in the handler).
 * @throws ApiError 404 'Project {name} not found' when the user may not see it; 403 'Missing permission X'
 *   when `starterMayRemove` waived the permission but the user is not the starter of a revision-less project.
 */
export async function enforceProject(
  ctx: AppContext,
  user: User,
  rawName: string,
  rule: Extract<AccessRule<never>, { kind: 'project' }>,
): Promise<string> {
  const name = normaliseProjectName(rawName);
  const exists = (await ctx.projects.exists(name)) || ctx.conversions.running(name) !== null;
  if (rule.mode === 'read' || exists) {
    if (!(await maySee(ctx, user, name))) throw Errors.projectNotFound(name);
  }
  if (rule.permission && !hasPermission(user, rule.permission)) {
    // Only reached with starterMayRemove: the card of one's own failed first conversion.
    const last = await ctx.conversions.latest(name);
    const ownCard = !(await ctx.projects.exists(name)) && last?.started_by === user.email;
    if (!ownCard) throw Errors.missingPermission(rule.permission);
  }
  return name;
}
