/**
 * Public entry of the ship generator (ARCHITECTURE.md "bench/"): generateShipOcx streams OCX 3.1.0
 * text, writeShipOcx writes a file and returns counts per type, countShipParts sizes a ship without
 * writing it; ShipOptions.edits makes a later revision with known edits (shipEdits.ts).
 */
export { countShipParts, framesForTarget, generateShipOcx, writeShipOcx } from './generateShip';
export type { ShipOptions, ShipStats } from './generateShip';
export { editPanel } from './shipEdits';
export type { ShipEdit } from './shipEdits';
