/**
 * Vitest globalSetup of the 'api-pg' project: one throwaway PostgreSQL cluster for the run, its URL given
 * to the test files as inject('pgUrl') (tests/support/pgSetup.ts points every test server at it).
 */
import type { TestProject } from 'vitest/node';
import { type PgCluster, startPgCluster } from './pgCluster';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of the test cluster's maintenance database (superuser, trust auth). */
    pgUrl: string;
  }
}

let cluster: PgCluster | undefined;

export async function setup(project: TestProject): Promise<void> {
  cluster = await startPgCluster();
  project.provide('pgUrl', cluster.url);
}

export async function teardown(): Promise<void> {
  cluster?.stop();
}
