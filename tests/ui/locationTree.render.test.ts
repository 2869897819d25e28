/**
 * The location tree's texts and choices (application.md §2 "Scheduling tab" picker texts, "Dialogs of the
 * start page" 'No remote projects found...'; §3 "Available project location"), rendered to markup.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { AvailableProjectLocation } from '../../api/contract';
import { NO_LOCATIONS_TEXT } from '../../ui/admin/SchedulingTab';
import { NO_REMOTE_PROJECTS_TEXT } from '../../ui/components/AddProjectDialog';
import { LocationTree, type LocationTreeProps } from '../../ui/components/LocationTree';

const render = (p: Partial<LocationTreeProps>) =>
  renderToStaticMarkup(
    createElement(LocationTree, {
      locations: [],
      selected: [],
      onChange: () => {},
      multiple: true,
      emptyText: NO_LOCATIONS_TEXT,
      ...p,
    }),
  );

const TREE: AvailableProjectLocation[] = [
  {
    location: '/srv/ocx',
    locationType: 'Directory',
    projects: [
      {
        id: '/srv/ocx/yard',
        name: 'yard',
        filePath: '/srv/ocx/yard',
        children: [{ id: '/srv/ocx/yard/a.3docx', name: 'a.3docx', filePath: '/srv/ocx/yard/a.3docx', children: [] }],
      },
    ],
  },
  {
    location: 'http://b:8080',
    locationType: 'Server',
    projects: [{ id: 'http://b:8080->SHIP', name: 'SHIP', filePath: 'http://b:8080->SHIP', children: [] }],
    error: undefined,
  },
];

describe('location tree', () => {
  it('says it is loading, and that there are no locations, in the spec words', () => {
    expect(render({ locations: null })).toContain('Loading project locations...');
    expect(render({})).toContain(
      'No projects were found, because project locations have not been defined. Enter project locations in the server configuration.',
    );
    expect(render({ emptyText: NO_REMOTE_PROJECTS_TEXT, multiple: false })).toContain(
      'No remote projects found. Configure project locations in the server application.',
    );
  });

  it('shows directories and servers with their projects as checkboxes or radio buttons', () => {
    const many = render({ locations: TREE, selected: ['http://b:8080->SHIP'] });
    expect(many).toContain('Directory: /srv/ocx');
    expect(many).toContain('Server: http://b:8080');
    expect(many.match(/type="checkbox"/g)).toHaveLength(2);
    expect(many).toMatch(/type="checkbox" name="[^"]*" checked=""\/>SHIP/);
    expect(many).toMatch(/type="checkbox" name="[^"]*"\/>a\.3docx/);
    expect(many).toContain('>yard</button>');
    const one = render({ locations: TREE, multiple: false, selected: [] });
    expect(one.match(/type="radio"/g)).toHaveLength(2);
  });

  it("names a server's listing failure", () => {
    const failing = render({
      locations: [{ location: 'http://b:8080', locationType: 'Server', projects: [], error: 'unreachable' }, TREE[0]],
    });
    expect(failing).toContain('unreachable');
  });
});
