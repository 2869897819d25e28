/**
 * Scheduled project updates (application.md §7 "Admin": GET and POST
 * /api/{instance}/scheduling/project-update-schedule; §4 "Scheduling changes are saved as a whole list").
 * Both need admin:view. POST checks every source against the configured locations (400 naming the job and
 * source otherwise), makes the saving administrator the user every job runs as, saves and re-arms.
 */
import type { FastifyInstance } from 'fastify';
import { Access } from '../access/rules';
import { type ProjectUpdateJob, ProjectUpdateScheduleSchema } from '../contract/scheduling';
import { ApiError, Errors } from '../errors';
import { defineRoute } from './define';

export default async function schedulingRoutes(app: FastifyInstance): Promise<void> {
  const { config, scheduler, locations } = app.ctx;
  const url = `/api/${config.instance}/scheduling/project-update-schedule`;
  const adminOnly = Access.permission('admin:view');

  defineRoute(app, {
    method: 'GET',
    url,
    access: adminOnly,
    handler: async (): Promise<ProjectUpdateJob[]> => scheduler.list(),
  });

  defineRoute(app, {
    method: 'POST',
    url,
    access: adminOnly,
    body: ProjectUpdateScheduleSchema,
    handler: async ({ body, user }): Promise<ProjectUpdateJob[]> => {
      for (const job of body)
        for (const source of job.sources) {
          try {
            locations.checkSource(source);
          } catch (e) {
            if (e instanceof ApiError) throw Errors.badRequest(`Project update job ${job.id}: ${source}: ${e.message}`);
            throw e;
          }
        }
      return scheduler.save(body.map((j) => ({ ...j, keelsonId: user.email })));
    },
  });
}
