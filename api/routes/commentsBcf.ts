/**
 * BCF export and import of a project's review threads (GET / POST /api/keelson-static/comments/bcf;
 * api/comments/bcf/). Access as every comment call: the project named in the query.
 */
import type { FastifyInstance } from 'fastify';
import type { Comment, THREAD_CHANGES } from '../contract/comments';
import type { User } from '../auth/UserStore';

/** What the comment routes lend the BCF routes. */
export interface BcfRouteDeps {
  push(change: (typeof THREAD_CHANGES)[number], thread: Comment, commentId: string, by: User): void;
}

/** Registers the BCF calls (none until the BCF module lands). */
export function registerBcfRoutes(_app: FastifyInstance, _deps: BcfRouteDeps): void {}
