/**
 * Fastify glue for the valibot contract: a preValidation hook that parses body / query / params and
 * answers 400 `{ error: 'BadRequest', message: "Invalid field 'email': Input a valid email", type:
 * 'validation' }` naming the first failing field (application.md §5; ARCHITECTURE.md "contract").
 * Server-only (type imports of fastify); the UI imports ./index instead.
 */
import * as v from 'valibot';
import type { FastifyReply, FastifyRequest } from 'fastify';

type AnySchema = v.GenericSchema<unknown, unknown>;

/** Schemas per request part. */
export interface RequestSchemas {
  body?: AnySchema;
  query?: AnySchema;
  params?: AnySchema;
}

/** Formats the first issue as "Invalid field 'a.b': message" (field = dot path, else the part name). */
export function formatIssue(part: string, issues: readonly v.BaseIssue<unknown>[]): string {
  const issue = issues[0];
  const path = issue ? v.getDotPath(issue) : null;
  // valibot reports an absent key on the object ("Invalid key: ..."); the spec's text is 'Field is required'.
  const missing = issue?.kind === 'schema' && issue.type === 'object' && issue.received === 'undefined' && path;
  const required = path === 'password' ? 'Password is required' : 'Field is required';
  return `Invalid field '${path || part}': ${missing ? required : (issue?.message ?? 'Invalid value')}`;
}

/**
 * Parses `value` with `schema`; throws an Error with statusCode 400 naming the field on failure.
 * @returns the schema's output (trimmed, coerced).
 */
export function parseOrThrow<S extends AnySchema>(schema: S, value: unknown, part = 'body'): v.InferOutput<S> {
  const r = v.safeParse(schema, value);
  if (r.success) return r.output;
  throw Object.assign(new Error(formatIssue(part, r.issues)), {
    statusCode: 400,
    code: 'BadRequest',
    type: 'validation',
  });
}

/**
 * preValidation hook replacing request.body/query/params by the parsed outputs.
 * Usage: `app.post(url, { preValidation: validate({ body: LoginBodySchema }) }, handler)`.
 */
export function validate(schemas: RequestSchemas) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    for (const part of ['params', 'query', 'body'] as const) {
      const schema = schemas[part];
      if (!schema) continue;
      const r = v.safeParse(schema, request[part] ?? (part === 'body' ? undefined : {}));
      if (!r.success) {
        await reply.code(400).send({ error: 'BadRequest', message: formatIssue(part, r.issues), type: 'validation' });
        return;
      }
      (request as unknown as Record<string, unknown>)[part] = r.output;
    }
  };
}
