/**
 * One way to declare a route (ARCHITECTURE.md "Who may see what", "contract"): method, URL, the contract
 * schemas of its query / body / params, its AccessRule and a handler that receives the parsed, typed input.
 * The rule travels in the route's `config.access`, where app.ts's onRequest hook and the authorization
 * matrix test read it; a preValidation hook parses the input (400 naming the first failing field) and then
 * checks the project the rule names (404 as for a missing project), all before the handler runs.
 */
import type { RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as v from 'valibot';
import { type AccessRule, enforceProject } from '../access/rules';
import type { User } from '../auth/UserStore';
import { Errors } from '../errors';
import { formatIssue } from './validate';

type Schema = v.GenericSchema<unknown, unknown>;
type Out<S> = S extends Schema ? v.InferOutput<S> : undefined;

/** The parsed input a handler and a project rule see. */
export interface RouteInput<Q, B, P> {
  query: Out<Q>;
  body: Out<B>;
  params: Out<P>;
}

/** What a handler receives: the parsed input, the request and reply, and the signed-in user. */
export interface HandlerContext<Q, B, P> extends RouteInput<Q, B, P> {
  request: FastifyRequest;
  reply: FastifyReply;
  /** The signed-in user. @throws ApiError 401 on an anonymous route called without a token. */
  readonly user: User;
  /** The project the rule checked (normalised), or undefined when the rule names none. */
  project: string | undefined;
}

/** A route declaration. */
export interface RouteDef<Q extends Schema | undefined, B extends Schema | undefined, P extends Schema | undefined> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  access: AccessRule<RouteInput<Q, B, P>>;
  query?: Q;
  body?: B;
  params?: P;
  rateLimit?: RateLimitOptions | false;
  handler: (c: HandlerContext<Q, B, P>) => Promise<unknown>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's access rule (api/access/rules.ts); every /api route has one (app.ts refuses others). */
    access?: AccessRule<never>;
  }
}

function parsePart(
  schema: Schema | undefined,
  value: unknown,
  part: string,
): { ok: true; value: unknown } | { ok: false; message: string } {
  if (!schema) return { ok: true, value: undefined };
  const r = v.safeParse(schema, value);
  return r.success ? { ok: true, value: r.output } : { ok: false, message: formatIssue(part, r.issues) };
}

/** Registers a declared route on `app`. */
export function defineRoute<
  Q extends Schema | undefined = undefined,
  B extends Schema | undefined = undefined,
  P extends Schema | undefined = undefined,
>(app: FastifyInstance, def: RouteDef<Q, B, P>): void {
  const parsed = new WeakMap<FastifyRequest, { input: RouteInput<Q, B, P>; project: string | undefined }>();
  const rule = def.access;
  app.route({
    method: def.method,
    url: def.url,
    config: { access: rule, ...(def.rateLimit !== undefined ? { rateLimit: def.rateLimit } : {}) },
    preValidation: async (request, reply) => {
      const parts: Record<'query' | 'body' | 'params', unknown> = {
        query: undefined,
        body: undefined,
        params: undefined,
      };
      for (const part of ['params', 'query', 'body'] as const) {
        const r = parsePart(def[part], request[part] ?? (part === 'body' ? undefined : {}), part);
        if (!r.ok) {
          await reply.code(400).send({ error: 'BadRequest', message: r.message, type: 'validation' });
          return;
        }
        parts[part] = r.value;
      }
      // The schemas above produced these values, so their types are the schemas' outputs.
      const input = parts as RouteInput<Q, B, P>;
      let project: string | undefined;
      if (rule.kind === 'project') {
        const raw = rule.project(input);
        if (raw !== undefined) {
          if (!request.user) throw Errors.authRequired();
          project = await enforceProject(app.ctx, request.user, raw, rule);
        }
      }
      parsed.set(request, { input, project });
    },
    handler: async (request, reply) => {
      const p = parsed.get(request);
      if (!p) throw Errors.internal();
      return def.handler({
        ...p.input,
        project: p.project,
        request,
        reply,
        get user(): User {
          if (!request.user) throw Errors.authRequired();
          return request.user;
        },
      });
    },
  });
}
