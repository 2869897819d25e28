/**
 * A Vitest reporter that ends the run with the plain closing line 'N passed, N failed, N skipped'
 * (CI reads that line; Vitest's own summary has another shape).
 */
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const mod of testModules) {
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      // A module that failed to load has no tests but is a failure all the same.
      if (mod.state() === 'failed' && [...mod.children.allTests()].length === 0) failed++;
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
