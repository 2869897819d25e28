/**
 * The licence as the UI knows it (application.md §1 "license banner", §3 "License state", §6 "Licence
 * notices", §8 LicenseError, §9 "Licence warning: under 8 days remaining, once per day"): the server's
 * state, whether a call was refused with LicenseError, and the expiry notice for internal users and
 * administrators (external users see no licence notices and only the default message of a LicenseError).
 */
import dayjs from 'dayjs';
import { proxy } from 'valtio';
import { LICENSE_WARNING_DAYS, type LicenseState } from '../../api/contract';
import { getLicenseState } from '../api/admin';
import { setLicenseErrorHandler } from '../api/client';
import { licenseErrorMessage } from '../logic/errorMessage';
import { authStore } from './auth';
import { showToast } from './toasts';

/** Local storage key of the day the expiry notice was last shown (YYYY-MM-DD). */
export const LICENSE_NOTICE_KEY = 'keelson.licenseNotice';

export const licenseStore = proxy({
  state: null as LicenseState | null,
  /** Set once a call was refused with LicenseError (the product is unlicensed). */
  unlicensed: false,
  /** The LicenseError message (shown to internal users and administrators only). */
  message: null as string | null,
});

setLicenseErrorHandler((message) => {
  licenseStore.unlicensed = true;
  licenseStore.message = message;
  return licenseErrorMessage(message, authStore.user?.userType);
});

/** True when the signed-in user gets licence notices (internal users and administrators). */
export function seesLicenseNotices(): boolean {
  const t = authStore.user?.userType;
  return t === 'internal' || t === 'administrator';
}

/** The expiry notice's text for `days` remaining and the expiry time. */
export function licenseExpiryText(days: number, expires: string): string {
  const when = days === 0 ? 'today' : days === 1 ? 'in 1 day' : `in ${days} days`;
  return `The Keelson licence expires ${when} (${dayjs(expires).format('DD.MM.YYYY')}). Contact your administrator to renew it.`;
}

/**
 * Reads the licence and, for internal users and administrators with 0–7 days remaining, shows the expiry
 * notice (info toast) once per day.
 */
export async function checkLicense(storage: Storage = localStorage): Promise<void> {
  let state: LicenseState;
  try {
    state = await getLicenseState();
  } catch {
    return;
  }
  licenseStore.state = state;
  if (!state.hasLicense) {
    licenseStore.unlicensed = true;
    licenseStore.message = state.licenseError;
  }
  const days = state.daysRemaining;
  if (!seesLicenseNotices() || days === null || state.expirationTime === null) return;
  if (days < 0 || days > LICENSE_WARNING_DAYS) return;
  const today = dayjs().format('YYYY-MM-DD');
  if (storage.getItem(LICENSE_NOTICE_KEY) === today) return;
  storage.setItem(LICENSE_NOTICE_KEY, today);
  showToast('info', licenseExpiryText(days, state.expirationTime));
}
