/**
 * The admin settings calls (application.md §7 Admin; viewer.md §7 "Object properties config"), typed by
 * api/contract/settings: the conversion config and the object-properties config.
 */
import {
  type ConversionConfigPatch,
  ConversionConfigSchema,
  type ObjectPropertiesConfig,
  ObjectPropertiesConfigSchema,
} from '../../api/contract';
import { authStore } from '../stores/auth';
import { request } from './client';

const conversionPath = () =>
  `/api/${encodeURIComponent(authStore.config?.instance || 'default')}/viewer/config/conversion`;
const OBJECT_PROPERTIES = '/api/viewer/settings/object-properties';

/** GET .../viewer/config/conversion (admin:view). */
export const getConversionConfig = () => request('GET', conversionPath(), ConversionConfigSchema);

/** PATCH .../viewer/config/conversion: changes the named options; answers the whole config. */
export const patchConversionConfig = (patch: ConversionConfigPatch) =>
  request('PATCH', conversionPath(), ConversionConfigSchema, { body: patch });

/** GET /api/viewer/settings/object-properties (any signed-in user); `silent`: no error toast. */
export const getObjectProperties = (opts: { signal?: AbortSignal; silent?: boolean } = {}) =>
  request('GET', OBJECT_PROPERTIES, ObjectPropertiesConfigSchema, opts);

/** POST /api/viewer/settings/object-properties: saves the whole config (admin:view); answers what was stored. */
export const saveObjectProperties = (config: ObjectPropertiesConfig) =>
  request('POST', OBJECT_PROPERTIES, ObjectPropertiesConfigSchema, { body: config });
