/**
 * Admin settings calls (application.md §7 Admin, §2 "Settings tab" (1)(2); viewer.md §7 "Object
 * properties config"): the conversion config (admin:view), and the object-properties config that every
 * signed-in user's properties panel reads and administrators save as a whole.
 */
import type { FastifyInstance } from 'fastify';
import { Access } from '../access/rules';
import {
  type ConversionConfig,
  ConversionConfigPatchSchema,
  type ObjectPropertiesConfig,
  ObjectPropertiesConfigSchema,
} from '../contract/settings';
import { defineRoute } from './define';

export default async function settingsRoutes(app: FastifyInstance): Promise<void> {
  const { config, settings } = app.ctx;
  const adminOnly = Access.permission('admin:view');
  const conversionUrl = `/api/${config.instance}/viewer/config/conversion`;
  const objectPropertiesUrl = '/api/viewer/settings/object-properties';

  defineRoute(app, {
    method: 'GET',
    url: conversionUrl,
    access: adminOnly,
    handler: async (): Promise<ConversionConfig> => settings.conversion(),
  });

  defineRoute(app, {
    method: 'PATCH',
    url: conversionUrl,
    access: adminOnly,
    body: ConversionConfigPatchSchema,
    handler: async ({ body, user }): Promise<ConversionConfig> => settings.patchConversion(body, user.email),
  });

  defineRoute(app, {
    method: 'GET',
    url: objectPropertiesUrl,
    access: Access.signedIn,
    handler: async (): Promise<ObjectPropertiesConfig> => settings.objectProperties(),
  });

  defineRoute(app, {
    method: 'POST',
    url: objectPropertiesUrl,
    access: adminOnly,
    body: ObjectPropertiesConfigSchema,
    handler: async ({ body, user }): Promise<ObjectPropertiesConfig> => settings.saveObjectProperties(body, user.email),
  });
}
