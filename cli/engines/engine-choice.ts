import type { OxlintRun } from './oxlint-engine.js';

/**
 * `native`: ESLint in this process, parsing with oxc-parser (cli/engines/native-parser.ts); `eslint`: ESLint in this
 * process with the usual parsers (espree, typescript-eslint's); `oxlint`: the rule through oxlint's JS plugin host, and
 * natively in process for the files oxlint leaves (see OxlintEngine); `auto` (default): oxlint when it is installed and
 * costs less than linting in process (oxlintIsCheaper), else native. The reports are the same.
 */
export type Engine = 'auto' | 'native' | 'eslint' | 'oxlint';
export const ENGINES: readonly Engine[] = ['auto', 'native', 'eslint', 'oxlint'];

export function isEngine(name: string): name is Engine {
  return ENGINES.some((engine) => engine === name);
}

/** Whether an engine lints every file in this process (no oxlint process is started). */
export function lintsInProcessOnly(engine: Engine): boolean {
  return engine === 'eslint' || engine === 'native';
}

/**
 * What each engine costs, in CPU milliseconds on a 2-core machine (docs/engines.md has the measurements): in
 * process, loading ESLint's Linter, the parser and the plugin's first run, then per KB of text; through oxlint,
 * starting a process (Node, oxlint, its plugin host and drainguard's plugin), then per KB, shared between two
 * processes that run beside this one.
 */
const IN_PROCESS_START_MS = 150;
const IN_PROCESS_MS_PER_KB = 2.4;
const OXLINT_START_MS = 300;
const ONE_OXLINT_PROCESS_MS_PER_KB = 1.6;
const OXLINT_MS_PER_KB = ONE_OXLINT_PROCESS_MS_PER_KB / 2;

/**
 * Whether oxlint lints `bytes` of text sooner than this process would: by what each costs, not by bytes
 * alone. In process, ESLint's start is paid only once: not at all when some file needs ESLint anyway.
 */
export function oxlintIsCheaper(bytes: number, eslintLoadedAnyway: boolean): boolean {
  const kb = bytes / 1024;
  const inProcess = (eslintLoadedAnyway ? 0 : IN_PROCESS_START_MS) + IN_PROCESS_MS_PER_KB * kb;
  return OXLINT_START_MS + OXLINT_MS_PER_KB * kb < inProcess;
}

/**
 * How much of `bytes` this process lints itself while one oxlint process lints the rest, so that both end at about
 * the same time: this process is idle once it has read every file. None when `oxlintProcesses` processes alone (each
 * on a part, each on its own core) would end sooner: this process lints a KB at half as much again as oxlint, so a
 * share pays only while oxlint's start weighs (docs/engines.md has the runs that bear it out).
 */
export function inProcessShare(bytes: number, eslintLoadedAnyway: boolean, oxlintProcesses = 1): number {
  const kb = bytes / 1024;
  const inProcessStart = eslintLoadedAnyway ? 0 : IN_PROCESS_START_MS;
  const shareKb = Math.max(0, Math.min(kb, (OXLINT_START_MS - inProcessStart + ONE_OXLINT_PROCESS_MS_PER_KB * kb) / (IN_PROCESS_MS_PER_KB + ONE_OXLINT_PROCESS_MS_PER_KB)));
  const withShare = Math.max(inProcessStart + IN_PROCESS_MS_PER_KB * shareKb, OXLINT_START_MS + ONE_OXLINT_PROCESS_MS_PER_KB * (kb - shareKb));
  const oxlintAlone = OXLINT_START_MS + (ONE_OXLINT_PROCESS_MS_PER_KB * kb) / oxlintProcesses;
  return oxlintAlone < withShare ? 0 : shareKb * 1024;
}

/**
 * How many oxlint processes the text waiting so far will take (engine auto): one beside this process's share, or as
 * many as finish() starts once they alone end sooner (see inProcessShare).
 */
export function processesWorthStarting(oxlint: OxlintRun, eslintLoadedAnyway: boolean): number {
  const processes = oxlint.processesToFinish();
  return processes > 1 && inProcessShare(oxlint.waitingBytes, eslintLoadedAnyway, processes) > 0 ? 1 : processes;
}
