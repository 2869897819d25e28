/**
 * The admin settings of application.md §2 "Settings tab" (1) and (2), kept in the admin_settings table
 * (migration 007): the conversion config that the next conversion uses, and the object-properties config
 * that the properties panel shows. A setting never saved answers its defaults.
 */
import type { Kysely } from 'kysely';
import * as v from 'valibot';
import { PROPERTY_BY_NAME } from '../../engine/model/properties';
import {
  type ConversionConfig,
  ConversionConfigSchema,
  type ConversionConfigPatch,
  DEFAULT_CONVERSION_CONFIG,
  MAIN_OPTION_LOCKED,
  OBJECT_PROPERTY_SETS,
  type ObjectPropertiesConfig,
  ObjectPropertiesConfigSchema,
} from '../contract/settings';
import type { DB } from '../db/database';
import { Errors } from '../errors';
import { defaultObjectProperties } from './objectPropertyDefaults';

const CONVERSION_KEY = 'conversion';
const OBJECT_PROPERTIES_KEY = 'object-properties';

/** Reads and writes the admin settings. */
export class AdminSettings {
  constructor(private readonly db: Kysely<DB>) {}

  /** The conversion config in force (defaults for options never saved). */
  async conversion(): Promise<ConversionConfig> {
    const stored = await this.read(CONVERSION_KEY);
    const merged = { ...DEFAULT_CONVERSION_CONFIG, ...(stored && typeof stored === 'object' ? stored : {}) };
    const parsed = v.safeParse(ConversionConfigSchema, merged);
    return parsed.success ? parsed.output : { ...DEFAULT_CONVERSION_CONFIG };
  }

  /**
   * Changes the named options and keeps the others.
   * @throws ApiError 400 MAIN_OPTION_LOCKED when neither Structure model nor Compartment model would stay on.
   */
  async patchConversion(patch: ConversionConfigPatch, by: string): Promise<ConversionConfig> {
    const next: ConversionConfig = { ...(await this.conversion()) };
    for (const [k, val] of Object.entries(patch)) if (val !== undefined) next[k as keyof ConversionConfig] = val;
    if (!next.structureModel && !next.compartmentModel) throw Errors.badRequest(MAIN_OPTION_LOCKED);
    await this.write(CONVERSION_KEY, next, by);
    return next;
  }

  /** The object-properties config (the defaults when never saved, or a list missing from the stored one). */
  async objectProperties(): Promise<ObjectPropertiesConfig> {
    const stored = await this.read(OBJECT_PROPERTIES_KEY);
    const merged = { ...defaultObjectProperties(), ...(stored && typeof stored === 'object' ? stored : {}) };
    const parsed = v.safeParse(ObjectPropertiesConfigSchema, merged);
    return parsed.success ? parsed.output : defaultObjectProperties();
  }

  /**
   * Saves the whole object-properties config (application.md §4 "saved as a whole"): rows with an empty
   * quantity name are dropped, an empty header becomes the catalogue's meaning, qualifiers are de-duplicated.
   * @throws ApiError 400 "Invalid field '{list}[{i}].name': Unknown quantity {code}" for a code outside the catalogue.
   */
  async saveObjectProperties(config: ObjectPropertiesConfig, by: string): Promise<ObjectPropertiesConfig> {
    const out = {} as ObjectPropertiesConfig;
    for (const set of OBJECT_PROPERTY_SETS) {
      out[set] = [];
      config[set].forEach((q, i) => {
        if (!q.name) return;
        const def = PROPERTY_BY_NAME.get(q.name);
        if (!def) throw Errors.badRequest(`Invalid field '${set}[${i}].name': Unknown quantity ${q.name}`);
        const qualifiers = q.qualifiers?.length ? [...new Set(q.qualifiers)] : undefined;
        out[set].push({
          name: q.name,
          description: q.description || def.description,
          ...(qualifiers ? { qualifiers } : {}),
        });
      });
    }
    await this.write(OBJECT_PROPERTIES_KEY, out, by);
    return out;
  }

  private async read(key: string): Promise<unknown> {
    const row = await this.db.selectFrom('admin_settings').select('value').where('key', '=', key).executeTakeFirst();
    if (!row) return null;
    try {
      return JSON.parse(row.value);
    } catch {
      return null;
    }
  }

  private async write(key: string, value: unknown, by: string): Promise<void> {
    const row = { key, value: JSON.stringify(value), updated_at: new Date().toISOString(), updated_by: by };
    await this.db
      .insertInto('admin_settings')
      .values(row)
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({ value: row.value, updated_at: row.updated_at, updated_by: by }),
      )
      .execute();
  }
}
