/**
 * Public entry of the ship generator (ARCHITECTURE.md "bench/"): generateShipOcx streams OCX 3.1.0
 * text, writeShipOcx writes a file and returns counts per type, countShipParts sizes a ship without
 * writing it.
 */
export { countShipParts, framesForTarget, generateShipOcx, writeShipOcx } from './generateShip';
export type { ShipOptions, ShipStats } from './generateShip';
