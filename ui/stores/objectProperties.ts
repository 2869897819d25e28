/**
 * The object-properties config the properties panel follows (viewer.md §7 "Object properties config"):
 * read once per session from the server, replaced when an administrator saves a new one.
 */
import { proxy, ref } from 'valtio';
import type { ObjectPropertiesConfig } from '../../api/contract';
import { getObjectProperties } from '../api/settings';

export const objectPropertiesStore = proxy({
  /** The config in force, or null until read (the panel then shows every property). */
  config: null as ObjectPropertiesConfig | null,
});

let loading: Promise<void> | null = null;

/** Reads the config unless it is read or being read; a failure leaves it null (retried on the next call). */
export function loadObjectProperties(): Promise<void> {
  if (objectPropertiesStore.config || loading) return loading ?? Promise.resolve();
  loading = getObjectProperties({ silent: true })
    .then((c) => {
      objectPropertiesStore.config = ref(c);
    })
    .catch(() => {})
    .finally(() => {
      loading = null;
    });
  return loading;
}

/** Sets the config in force (after a save). */
export function setObjectProperties(config: ObjectPropertiesConfig): void {
  objectPropertiesStore.config = ref(config);
}
