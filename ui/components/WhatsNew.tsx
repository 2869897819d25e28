/**
 * The start page's 'What's new' list (application.md §1, §2 "Start view"): versions and their items from the
 * changelog shipped with Keelson (GET /api/keelson-static/whats-new), and the licence banner for internal
 * users and administrators (external users see none, §6).
 */
import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import type { WhatsNew as WhatsNewList } from '../../api/contract';
import { getWhatsNew } from '../api/admin';
import { authStore } from '../stores/auth';
import { licenseExpiryText, licenseStore, seesLicenseNotices } from '../stores/license';
import { LICENSE_WARNING_DAYS } from '../../api/contract';

export function WhatsNew() {
  const [list, setList] = useState<WhatsNewList | null>(null);
  useEffect(() => {
    getWhatsNew().then(setList, () => setList([]));
  }, []);
  return (
    <aside className="w-72 shrink-0 space-y-4" data-testid="whats-new">
      <LicenseBanner />
      <div className="panel p-4">
        <h2 className="mb-2 text-sm font-semibold text-ink">What's new</h2>
        {list === null && <p className="text-xs text-slate-500">Loading…</p>}
        {list?.map((v) => (
          <section key={v.version} className="mb-3">
            <h3 className="text-xs font-semibold text-slate-600">{v.version}</h3>
            <ul className="mt-1 list-disc space-y-1 pl-4 text-xs text-slate-600">
              {v.items.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </aside>
  );
}

/** The licence banner: an expired licence, or an expiry within LICENSE_WARNING_DAYS days. */
function LicenseBanner() {
  const { state, unlicensed, message } = useSnapshot(licenseStore);
  useSnapshot(authStore);
  if (!seesLicenseNotices()) return null;
  let text: string | null = null;
  if (unlicensed) text = message ?? 'Keelson is not licensed.';
  else if (state?.daysRemaining != null && state.expirationTime && state.daysRemaining <= LICENSE_WARNING_DAYS)
    text = licenseExpiryText(state.daysRemaining, state.expirationTime);
  if (!text) return null;
  return (
    <div role="status" data-testid="license-banner" className="rounded-md bg-amber-50 px-3 py-2 text-xs text-amber-900">
      {text}
    </div>
  );
}
