/**
 * The tree of project locations (application.md §2 "Scheduling tab" project-file picker, "Dialogs of the
 * start page" server location source; §3 "Available project location"): each configured directory or
 * Keelson server with its directories and projects. Projects are checkboxes (`multiple`, the scheduler)
 * or radio buttons (one project, the Add project dialog); the value of a project is its filePath.
 */
import { useId, useState } from 'react';
import type { AvailableProjectLocation, LocationNode } from '../../api/contract';

/** The text shown while the locations load (application.md §2). */
export const LOADING_LOCATIONS_TEXT = 'Loading project locations...';

export interface LocationTreeProps {
  /** null while loading. */
  locations: readonly AvailableProjectLocation[] | null;
  selected: readonly string[];
  onChange: (selected: string[]) => void;
  multiple: boolean;
  /** Shown when no location holds a project. */
  emptyText: string;
}

/** True when some location lists at least one project. */
export function hasProjects(locations: readonly AvailableProjectLocation[]): boolean {
  return locations.some((l) => l.projects.length > 0);
}

function Node({
  node,
  depth,
  props,
  group,
}: {
  node: LocationNode;
  depth: number;
  props: LocationTreeProps;
  group: string;
}) {
  const [open, setOpen] = useState(true);
  const pad = { paddingLeft: `${depth * 16}px` };
  if (node.children.length > 0)
    return (
      <li>
        <button
          type="button"
          className="flex items-center gap-1 py-0.5 text-sm text-slate-700 hover:text-ink"
          style={pad}
          aria-expanded={open}
          onClick={() => setOpen(!open)}
        >
          <span aria-hidden="true">{open ? '▾' : '▸'}</span>
          {node.name}
        </button>
        {open && (
          <ul>
            {node.children.map((c) => (
              <Node key={c.id} node={c} depth={depth + 1} props={props} group={group} />
            ))}
          </ul>
        )}
      </li>
    );
  const checked = props.selected.includes(node.filePath);
  return (
    <li>
      <label className="flex items-center gap-2 py-0.5 text-sm text-slate-700" style={pad} title={node.filePath}>
        <input
          type={props.multiple ? 'checkbox' : 'radio'}
          name={group}
          checked={checked}
          onChange={(e) => {
            if (!props.multiple) props.onChange([node.filePath]);
            else if (e.target.checked) props.onChange([...props.selected, node.filePath]);
            else props.onChange(props.selected.filter((s) => s !== node.filePath));
          }}
        />
        {node.name}
      </label>
    </li>
  );
}

export function LocationTree(props: LocationTreeProps) {
  const group = useId();
  if (!props.locations) return <p className="text-sm text-slate-500">{LOADING_LOCATIONS_TEXT}</p>;
  if (!hasProjects(props.locations)) return <p className="text-sm text-slate-500">{props.emptyText}</p>;
  return (
    <ul className="max-h-64 space-y-2 overflow-auto rounded-md border border-slate-200 p-2">
      {props.locations.map((loc) => (
        <li key={loc.location}>
          <p className="text-xs font-semibold uppercase tracking-wide text-slate-500">
            {loc.locationType}: {loc.location}
          </p>
          {loc.error && <p className="text-xs text-rose-600">{loc.error}</p>}
          <ul>
            {loc.projects.map((n) => (
              <Node key={n.id} node={n} depth={0} props={props} group={group} />
            ))}
          </ul>
        </li>
      ))}
    </ul>
  );
}
