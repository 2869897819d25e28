/**
 * Admin Settings, section 1 "Project conversion" (application.md §2 "Settings tab" (1), §4 "Other admin
 * state"): one checkbox per conversion option, each applied at once (PATCH .../viewer/config/conversion,
 * toast 'Conversion config updated'). Of Structure model and Compartment model the last one checked is
 * locked, so at least one stays on (the server refuses it too). What each option does: README
 * "Conversion options".
 */
import { useEffect, useState } from 'react';
import type { ConversionConfig, ConversionOption } from '../../../api/contract';
import { getConversionConfig, patchConversionConfig } from '../../api/settings';
import { showToast } from '../../stores/toasts';

/** The checkboxes in the spec's order, with the spec's notes. */
const OPTIONS: { key: ConversionOption; label: string; note?: string }[] = [
  { key: 'structureModel', label: 'Structure model' },
  { key: 'compartmentModel', label: 'Compartment model' },
  { key: 'cadComponents', label: 'CAD components', note: 'CAD files must be uploaded to the server' },
  { key: 'buildingBlocks', label: 'Blocks' },
  { key: 'geometryDetails', label: 'Geometry details' },
  { key: 'geometryHealing', label: 'Geometry healing', note: 'Better geometry; conversion time may rise 50-100 %' },
  { key: 'screenshot', label: 'Screenshot', note: 'For the project list; may raise conversion time and memory use' },
];

const MAIN: ConversionOption[] = ['structureModel', 'compartmentModel'];

/** True when `key` is the only main option still checked (it cannot be unchecked). */
export function isLockedOption(config: ConversionConfig, key: ConversionOption): boolean {
  return MAIN.includes(key) && config[key] && MAIN.filter((k) => config[k]).length === 1;
}

export function ConversionSettings() {
  const [config, setConfig] = useState<ConversionConfig | null>(null);
  const [busy, setBusy] = useState<ConversionOption | null>(null);

  useEffect(() => {
    let live = true;
    getConversionConfig()
      .then((c) => live && setConfig(c))
      .catch(() => {});
    return () => {
      live = false;
    };
  }, []);

  async function toggle(key: ConversionOption, value: boolean) {
    if (!config) return;
    setBusy(key);
    setConfig({ ...config, [key]: value });
    try {
      setConfig(await patchConversionConfig({ [key]: value }));
      showToast('success', 'Conversion config updated');
    } catch {
      setConfig(config); // the client showed the error; the box shows the stored value again
    } finally {
      setBusy(null);
    }
  }

  return (
    <section className="panel p-6" aria-labelledby="conversion-settings-title" data-testid="conversion-settings">
      <h2 id="conversion-settings-title" className="text-lg font-semibold text-ink">
        Project conversion
      </h2>
      <p className="mt-1 text-sm text-slate-500">Options for the next conversion of a project.</p>
      {!config ? (
        <p className="mt-4 text-sm text-slate-500">Loading...</p>
      ) : (
        <ul className="mt-4 space-y-2">
          {OPTIONS.map(({ key, label, note }) => {
            const locked = isLockedOption(config, key);
            return (
              <li key={key}>
                <label
                  className="flex items-start gap-3 text-sm"
                  title={locked ? 'At least one main option stays on' : undefined}
                >
                  <input
                    type="checkbox"
                    className="mt-0.5 size-4"
                    name={key}
                    checked={config[key]}
                    disabled={locked || busy !== null}
                    onChange={(e) => void toggle(key, e.target.checked)}
                  />
                  <span>
                    <span className="font-medium text-slate-800">{label}</span>
                    {note && <span className="block text-xs text-slate-500">{note}</span>}
                  </span>
                </label>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
