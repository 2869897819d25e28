/** Authorization-matrix sample requests: the instance calls (model data, quantities, tables, blocks, reference system, sections). */
import { model, type Sample, SHIP } from './context';

/** Sample request per route ('METHOD /url'). */
export const INSTANCE_ROWS: Record<string, Sample> = {
  'GET /api/keelson-instance/model/objects': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-instance/model/objects?${model()}` }),
  },
  'GET /api/keelson-instance/model/properties': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-instance/model/properties?${model({ index: '0' })}` }),
  },
  'GET /api/keelson-instance/model/property-columns': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-instance/model/property-columns?${model({ codes: 'NAME' })}` }),
  },
  'GET /api/keelson-instance/ship-model/purpose-colors': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-instance/ship-model/purpose-colors?${model()}` }),
  },
  'GET /api/keelson-instance/table/types': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-instance/table/types?${model()}` }),
  },
  'GET /api/keelson-instance/table/names': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-instance/table/names?${model({ type: 'Weights' })}` }),
  },
  'GET /api/keelson-instance/table/read': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-instance/table/read?${model({ name: 'Plates' })}` }),
  },
  'POST /api/keelson-instance/steel/quantities': {
    who: 'read',
    project: SHIP,
    req: () => ({
      method: 'POST',
      url: `/api/keelson-instance/steel/quantities?${model({ qnts: 'W' })}`,
      payload: ['x'],
    }),
  },
  'POST /api/keelson-instance/ship-model/quantities': {
    who: 'read',
    project: SHIP,
    req: () => ({
      method: 'POST',
      url: `/api/keelson-instance/ship-model/quantities?${model({ qnts: 'VOLM' })}`,
      payload: ['x'],
    }),
  },
  'POST /api/keelson-instance/steel/stiffener-web-flange-directions': {
    who: 'read',
    project: SHIP,
    req: () => ({
      method: 'POST',
      url: `/api/keelson-instance/steel/stiffener-web-flange-directions?${model()}`,
      payload: [{ id: 'x' }],
    }),
  },
  'POST /api/keelson-instance/steel/bracket-material-directions': {
    who: 'read',
    project: SHIP,
    req: () => ({
      method: 'POST',
      url: `/api/keelson-instance/steel/bracket-material-directions?${model()}`,
      payload: ['x'],
    }),
  },
  'POST /api/keelson-instance/maintenance/shutdown': {
    who: 'read',
    project: SHIP,
    req: () => ({ method: 'POST', url: `/api/keelson-instance/maintenance/shutdown?${model()}` }),
  },
  'GET /api/keelson-instance/maintenance/status': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-instance/maintenance/status?${model()}` }),
  },
  'GET /api/keelson-instance/reference-system/coordinate': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-instance/reference-system/coordinate?${model({ value: '1.5' })}` }),
  },
  // M1 has few numbered planes: the handler may answer 400 naming that; access was granted either way.
  'GET /api/keelson-instance/reference-system/frame-number': {
    who: 'read',
    project: SHIP,
    req: () => ({
      url: `/api/keelson-instance/reference-system/frame-number?${model({ type: 'frame', coordinate: '1' })}`,
    }),
    ok: [200, 400],
  },
  'GET /api/keelson-instance/reference-system/frame-coordinates': {
    who: 'read',
    project: SHIP,
    req: () => ({
      url: `/api/keelson-instance/reference-system/frame-coordinates?${model({ type: 'frame', startFrame: '0', endFrame: '2' })}`,
    }),
    ok: [200, 400],
  },
  'GET /api/keelson-instance/reference-system/frame': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-instance/reference-system/frame?${model({ type: 'frame', coordinate: '1' })}` }),
    ok: [200, 400],
  },
  'POST /api/keelson-instance/reference-system/frames': {
    who: 'read',
    project: SHIP,
    req: () => ({ method: 'POST', url: `/api/keelson-instance/reference-system/frames?${model()}`, payload: {} }),
  },
  'GET /api/keelson-instance/steel/block-system': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-instance/steel/block-system?${model()}` }),
  },
  // M1 has no blocks: the handler answers 404 naming the block; access was granted either way.
  'POST /api/keelson-instance/steel/blocks': {
    who: 'read',
    project: SHIP,
    req: () => ({ method: 'POST', url: `/api/keelson-instance/steel/blocks?${model()}`, payload: ['B1'] }),
    ok: [404],
  },
  'GET /api/keelson-instance/steel/arrangement': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-instance/steel/arrangement?${model()}` }),
  },
  'GET /api/keelson-instance/ship-model/arrangement': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-instance/ship-model/arrangement?${model()}` }),
  },
  'GET /api/keelson-instance/steel/section': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-instance/steel/section?${model({ axis: 'X', coordinate: '1' })}` }),
  },
  'GET /api/keelson-instance/ship-model/section': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-instance/ship-model/section?${model({ axis: 'X', coordinate: '1' })}` }),
  },
  'GET /api/keelson-instance/cad-components/section': {
    who: 'read',
    project: SHIP,
    req: () => ({ url: `/api/keelson-instance/cad-components/section?${model({ axis: 'X', coordinate: '1' })}` }),
  },
};
