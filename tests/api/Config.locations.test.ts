/**
 * PROJECT_LOCATIONS / PROJECT_LOCATIONS_FILE and TRUSTED_SERVERS (README "Project locations"): defaults
 * (a directory's name is its last segment, a server's issuer is INSTANCE, no trailing slash) and errors
 * that name the variable and the entry.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadProjectLocations, loadTrustedServers } from '../../api/locations/locationsConfig';

describe('project locations configuration', () => {
  it('reads directories and servers with their defaults', () => {
    const env = {
      PROJECT_LOCATIONS: JSON.stringify([
        { type: 'directory', path: '/srv/ocx/' },
        { type: 'server', url: 'https://b.example/', secret: 'sixteen-chars-ok' },
        { type: 'server', url: 'http://c:8080', name: 'Yard C', issuer: 'yard-a', secret: 'sixteen-chars-ok' },
      ]),
    };
    expect(loadProjectLocations(env, 'north')).toEqual([
      { type: 'directory', path: '/srv/ocx', name: 'ocx' },
      {
        type: 'server',
        url: 'https://b.example',
        name: 'https://b.example',
        issuer: 'north',
        secret: 'sixteen-chars-ok',
      },
      { type: 'server', url: 'http://c:8080', name: 'Yard C', issuer: 'yard-a', secret: 'sixteen-chars-ok' },
    ]);
    expect(loadProjectLocations({}, 'north')).toEqual([]);
  });

  it('reads the file when PROJECT_LOCATIONS is empty', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'keelson-locs-'));
    try {
      const file = path.join(dir, 'locations.json');
      writeFileSync(file, JSON.stringify([{ type: 'directory', path: dir, name: 'Share' }]));
      expect(loadProjectLocations({ PROJECT_LOCATIONS_FILE: file }, 'default')).toEqual([
        { type: 'directory', path: dir, name: 'Share' },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names the variable and the entry that is wrong', () => {
    expect(() => loadProjectLocations({ PROJECT_LOCATIONS: '[{' }, 'd')).toThrow(
      /^PROJECT_LOCATIONS is not valid JSON/,
    );
    expect(() =>
      loadProjectLocations({ PROJECT_LOCATIONS: '[{"type":"server","url":"http://b","secret":"short"}]' }, 'd'),
    ).toThrow('PROJECT_LOCATIONS at 0.secret: secret: at least 16 characters');
    expect(() => loadProjectLocations({ PROJECT_LOCATIONS: '[{"type":"ftp","path":"/x"}]' }, 'd')).toThrow(
      /^PROJECT_LOCATIONS/,
    );
    expect(() => loadTrustedServers({ TRUSTED_SERVERS: '[{"issuer":"a b","secret":"sixteen-chars-ok"}]' })).toThrow(
      /^TRUSTED_SERVERS at 0.issuer/,
    );
    expect(loadTrustedServers({ TRUSTED_SERVERS: '[{"issuer":"yard-a","secret":"sixteen-chars-ok"}]' })).toEqual([
      { issuer: 'yard-a', secret: 'sixteen-chars-ok' },
    ]);
  });
});
