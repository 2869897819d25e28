/**
 * Fastify glue for the valibot contract: the 400 message naming the first failing field, "Invalid field
 * 'email': Input a valid email" (application.md §5; ARCHITECTURE.md "contract"). api/routes/define.ts
 * parses body / query / params with the route's schemas and answers `{ error: 'BadRequest', message, type:
 * 'validation' }` with it. Server-only; the UI imports api/contract instead.
 */
import * as v from 'valibot';

/** Formats the first issue as "Invalid field 'a.b': message" (field = dot path, else the part name). */
export function formatIssue(part: string, issues: readonly v.BaseIssue<unknown>[]): string {
  const issue = issues[0];
  const path = issue ? v.getDotPath(issue) : null;
  // valibot reports an absent key on the object ("Invalid key: ..."); the spec's text is 'Field is required'.
  const missing = issue?.kind === 'schema' && issue.type === 'object' && issue.received === 'undefined' && path;
  const required = path === 'password' ? 'Password is required' : 'Field is required';
  return `Invalid field '${path || part}': ${missing ? required : (issue?.message ?? 'Invalid value')}`;
}
