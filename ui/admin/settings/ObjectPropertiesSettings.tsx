/**
 * Admin Settings, section 2 "Object properties" (application.md §2 "Settings tab" (2), §4 "saved as a
 * whole"): an accordion of the sets Compartments, Main objects, Plates, Stiffeners, Brackets, Openings and
 * Seams; each row a quantity selector (the property catalogue of viewer.md §3), an optional qualifier
 * multi-select, an editable header and a remove button; 'Add quantity' per set; 'Save changes' enabled only
 * with changes. Rows left without a quantity are dropped on save (the server drops them). The properties
 * panel shows the saved lists (ui/logic/propertyRows.ts configuredProperties).
 */
import {
  Disclosure,
  DisclosureButton,
  DisclosurePanel,
  Listbox,
  ListboxButton,
  ListboxOption,
  ListboxOptions,
} from '@headlessui/react';
import { useEffect, useState } from 'react';
import {
  type ObjectPropertiesConfig,
  type ObjectPropertySet,
  type ObjectQuantity,
  MAX_QUANTITIES_PER_SET,
  MAX_QUANTITY_HEADER,
  QUANTITY_QUALIFIERS,
} from '../../../api/contract';
import { PROPERTY_BY_NAME, PROPERTY_CATALOGUE } from '../../../engine/model/properties';
import { getObjectProperties, saveObjectProperties } from '../../api/settings';
import { setObjectProperties } from '../../stores/objectProperties';

/** The sets the accordion offers, in the spec's order. */
const SETS: { key: ObjectPropertySet; title: string }[] = [
  { key: 'compartmentQuantities', title: 'Compartments' },
  { key: 'mainObjectQuantities', title: 'Main objects' },
  { key: 'plateQuantities', title: 'Plates' },
  { key: 'stiffenerQuantities', title: 'Stiffeners' },
  { key: 'bracketQuantities', title: 'Brackets' },
  { key: 'openingQuantities', title: 'Openings' },
  { key: 'seamQuantities', title: 'Seams' },
];

export function ObjectPropertiesSettings() {
  const [saved, setSaved] = useState<ObjectPropertiesConfig | null>(null);
  const [draft, setDraft] = useState<ObjectPropertiesConfig | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let live = true;
    getObjectProperties()
      .then((c) => {
        if (!live) return;
        setSaved(c);
        setDraft(c);
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, []);

  const changed = !!draft && JSON.stringify(draft) !== JSON.stringify(saved);

  function update(set: ObjectPropertySet, fn: (rows: ObjectQuantity[]) => ObjectQuantity[]) {
    setDraft((d) => (d ? { ...d, [set]: fn(d[set]) } : d));
  }

  async function save() {
    if (!draft) return;
    setSaving(true);
    try {
      const stored = await saveObjectProperties(draft);
      setSaved(stored);
      setDraft(stored);
      setObjectProperties(stored);
    } catch {
      // the client showed the error; the draft stays for another try
    } finally {
      setSaving(false);
    }
  }

  return (
    <section className="panel p-6" aria-labelledby="object-properties-title" data-testid="object-properties-settings">
      <h2 id="object-properties-title" className="text-lg font-semibold text-ink">
        Object properties
      </h2>
      <p className="mt-1 text-sm text-slate-500">The quantities the properties panel shows per object type.</p>
      {!draft ? (
        <p className="mt-4 text-sm text-slate-500">Loading...</p>
      ) : (
        <>
          <div className="mt-4 divide-y divide-slate-200 rounded-md border border-slate-200">
            {SETS.map(({ key, title }) => (
              <Disclosure key={key} as="div" data-set={key}>
                <DisclosureButton className="flex w-full items-center justify-between px-4 py-2.5 text-left text-sm font-medium text-slate-800 hover:bg-slate-50">
                  <span>{title}</span>
                  <span className="text-xs text-slate-500">{draft[key].length}</span>
                </DisclosureButton>
                <DisclosurePanel className="space-y-2 px-4 pt-1 pb-4">
                  {draft[key].map((q, i) => (
                    <QuantityRow
                      // rows have no identity of their own; the position is theirs while editing
                      key={i}
                      row={q}
                      onChange={(next) => update(key, (rows) => rows.map((r, j) => (j === i ? next : r)))}
                      onRemove={() => update(key, (rows) => rows.filter((_, j) => j !== i))}
                    />
                  ))}
                  <button
                    type="button"
                    className="btn-ghost text-sm"
                    disabled={draft[key].length >= MAX_QUANTITIES_PER_SET}
                    onClick={() => update(key, (rows) => [...rows, { name: '', description: '' }])}
                  >
                    Add quantity
                  </button>
                </DisclosurePanel>
              </Disclosure>
            ))}
          </div>
          <div className="mt-4 flex justify-end">
            <button type="button" className="btn-primary" disabled={!changed || saving} onClick={() => void save()}>
              Save changes
            </button>
          </div>
        </>
      )}
    </section>
  );
}

/** One quantity: selector, qualifiers, header, remove. Choosing a quantity puts its meaning into an untouched header. */
function QuantityRow({
  row,
  onChange,
  onRemove,
}: {
  row: ObjectQuantity;
  onChange: (q: ObjectQuantity) => void;
  onRemove: () => void;
}) {
  const qualifiers = row.qualifiers ?? [];
  return (
    <div className="flex items-center gap-2" data-quantity={row.name}>
      <select
        aria-label="Quantity"
        className="field-input w-56"
        value={row.name}
        onChange={(e) => {
          const name = e.target.value;
          const oldMeaning = PROPERTY_BY_NAME.get(row.name)?.description ?? '';
          const header = !row.description || row.description === oldMeaning;
          onChange({
            ...row,
            name,
            description: header ? (PROPERTY_BY_NAME.get(name)?.description ?? '') : row.description,
          });
        }}
      >
        <option value="">Select quantity</option>
        {PROPERTY_CATALOGUE.map((d) => (
          <option key={d.name} value={d.name}>
            {d.name} – {d.description}
          </option>
        ))}
      </select>
      <Listbox
        multiple
        value={qualifiers}
        onChange={(next: string[]) => {
          const { qualifiers: _old, ...rest } = row;
          onChange(next.length ? { ...rest, qualifiers: next } : rest);
        }}
      >
        <div className="relative">
          <ListboxButton aria-label="Qualifiers" className="field-input w-28 text-left">
            {qualifiers.length ? qualifiers.join(', ') : <span className="text-slate-400">Qualifiers</span>}
          </ListboxButton>
          <ListboxOptions
            anchor="bottom start"
            className="z-50 w-52 rounded-md border border-slate-200 bg-white py-1 shadow-lg"
          >
            {Object.entries(QUANTITY_QUALIFIERS).map(([letter, meaning]) => (
              <ListboxOption
                key={letter}
                value={letter}
                className="flex cursor-pointer gap-2 px-3 py-1 text-sm data-focus:bg-slate-100 data-selected:font-semibold"
              >
                <span className="w-4">{letter}</span>
                <span>{meaning}</span>
              </ListboxOption>
            ))}
          </ListboxOptions>
        </div>
      </Listbox>
      <input
        aria-label="Header"
        className="field-input flex-1"
        maxLength={MAX_QUANTITY_HEADER}
        value={row.description}
        onChange={(e) => onChange({ ...row, description: e.target.value })}
      />
      <button type="button" aria-label="Remove quantity" className="btn-ghost px-2" onClick={onRemove}>
        ×
      </button>
    </div>
  );
}
