/**
 * A report at the end of `npm test`: the test files that took longest, to keep the suite under a minute on 2 cores
 * (CONTRIBUTING.md#tests). It lists every file over SLOW_FILE_SECONDS (5 s; DRAINGUARD_SLOW_FILE_SECONDS=0 lists them
 * all) with its time (importing it and running its tests and hooks, in its worker), its number of tests and its
 * slowest test, and the load average at the start and at the end, since times on a shared machine follow its load.
 * It reports and never fails the run: wall-clock time is no assertion.
 */
import { availableParallelism, loadavg } from 'node:os';
import type { Reporter, TestModule } from 'vitest/node';

const SLOW_FILE_SECONDS = Number(process.env.DRAINGUARD_SLOW_FILE_SECONDS ?? 5);

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** What a file cost in its worker: importing it (with what it imports first) and its tests and hooks. */
function fileTime(module: TestModule): number {
  const diagnostic = module.diagnostic();
  return diagnostic.collectDuration + diagnostic.duration;
}

function slowestTest(module: TestModule): string {
  let slowest: { name: string; ms: number } | undefined;
  for (const test of module.children.allTests()) {
    const ms = test.diagnostic()?.duration ?? 0;
    if (!slowest || ms > slowest.ms) slowest = { name: test.fullName, ms };
  }
  return slowest ? `slowest ${seconds(slowest.ms)}: ${slowest.name.length > 100 ? `${slowest.name.slice(0, 99)}…` : slowest.name}` : 'no test';
}

export default class SlowFilesReporter implements Reporter {
  private startLoad = loadavg()[0];
  private started = Date.now();

  onTestRunStart(): void {
    this.startLoad = loadavg()[0];
    this.started = Date.now();
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const slow = testModules
      .map((module) => ({ module, ms: fileTime(module) }))
      .filter(({ ms }) => ms >= SLOW_FILE_SECONDS * 1000)
      .sort((a, b) => b.ms - a.ms);
    const context = `${testModules.length} files in ${seconds(Date.now() - this.started)}, load average ${this.startLoad.toFixed(1)} -> ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores`;
    const out = process.stdout;
    if (slow.length === 0) {
      out.write(`\nNo test file took ${SLOW_FILE_SECONDS} s or more (${context}).\n`);
      return;
    }
    out.write(`\nTest files that took ${SLOW_FILE_SECONDS} s or more, import and tests in their worker (${context}):\n`);
    for (const { module, ms } of slow) {
      const tests = [...module.children.allTests()].length;
      out.write(`  ${seconds(ms).padStart(8)}  ${module.relativeModuleId}  (${tests} test${tests === 1 ? '' : 's'}; ${slowestTest(module)})\n`);
    }
    out.write('npm test stays in process and under a minute on 2 cores: a file that stays at the top is a candidate for test/integration/ or a lighter test (CONTRIBUTING.md#tests).\n');
  }
}
