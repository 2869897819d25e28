/**
 * The render worker (ARCHITECTURE.md "workers/"): creates the engine and exposes its EngineApi facade
 * with Comlink. No logic of its own; the UI reaches it through ui/engine/EngineClient.ts.
 */
import * as Comlink from 'comlink';
import { Engine } from '../engine/Engine';

Comlink.expose(new Engine());
