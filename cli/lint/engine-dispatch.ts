import type { ESLint } from 'eslint';
import { inProcessShare, lintsInProcessOnly, oxlintIsCheaper, processesWorthStarting, type Engine } from '../engines/engine-choice.js';
import { OxlintEngine, textLength, type OxlintResults, type OxlintRun, type SourceFile } from '../engines/oxlint-engine.js';
import { TextLinter } from '../engines/text-linter.js';
import type { InProcessWork } from '../engines/v8-tiering.js';
import type { PrefilterAnswer } from '../front-ends/javascript-prefilter.js';
import { cleanResult } from '../shared/results.js';
import type { CliRuleOptions } from '../shared/rule-args.js';
import type { LintTally } from './tally.js';

export interface EngineDispatchOptions {
  /** The user's working directory. */
  cwd: string;
  /** Type-aware linting (`--types`): always through ESLint (oxlint gives JS plugins no type information). */
  types?: boolean;
  /** The rule options given on the command line (`--terminal-pattern`, `--close-method`). */
  ruleOptions?: CliRuleOptions;
  /**
   * Results exactly as ESLint gives them, suggestions included (`--format json`): oxlint's JSON has
   * no suggestions, so the plugin it runs records them (cli/engines/oxlint-plugin.ts), and a file it reports
   * on whose suggestions were not recorded is linted again by ESLint. Without it (stylish, SARIF,
   * which show no suggestions) oxlint's messages are used as they are.
   */
  suggestions?: boolean;
}

/**
 * The files of the front ends whose rule runs on the ESLint engines, handed out as they are read: with oxlint, the
 * files it can take go to it as they are found (it parses them on the other cores meanwhile), and ESLint lints the
 * others here once the reading is done; a file oxlint leaves (it does not parse there) is linted by ESLint.
 */
export class EngineDispatch {
  /** Files oxlint could take, held until there is enough text to repay starting it (engine auto). */
  private readonly held: SourceFile[] = [];
  private heldBytes = 0;
  private oxlint: OxlintRun | null = null;
  private oxlintMissing = false;
  private readonly handed: SourceFile[] = [];
  /** Files for ESLint, linted after the reading: oxlint's last batch then starts as early as it can. */
  private readonly forESLint: SourceFile[] = [];
  /** The pre-filter's parse, for files oxlint took unchecked: made only for those kept in this process after all. */
  private readonly checksWaiting = new Map<SourceFile, () => Promise<boolean>>();
  private linter: TextLinter | undefined;
  private readonly eslintResults: ESLint.LintResult[] = [];

  constructor(
    private readonly engine: Engine,
    private readonly options: EngineDispatchOptions,
    private readonly tally: LintTally,
    private readonly inProcess: InProcessWork,
  ) {}

  /** Takes a file with the pre-filter's answer (true where it is off): clean where the answer rules it out, else dispatched. */
  async take(file: SourceFile, answer: PrefilterAnswer, filesLeftToRead: number): Promise<void> {
    const { kept, waitingCheck } = await this.settle(file, answer);
    if (!kept) {
      this.tally.results.set(file.filePath, cleanResult(file.filePath));
      return;
    }
    this.tally.parsed++;
    if (waitingCheck) this.checksWaiting.set(file, waitingCheck);
    // A file whose check waits was accepted by oxlint (and oxlint runs only where not in process only).
    if (!waitingCheck && (lintsInProcessOnly(this.engine) || !OxlintEngine.accepts(file.filePath, file.text))) this.forESLint.push(file);
    else if (this.oxlint) this.handToOxlint(file, filesLeftToRead);
    else this.hold(file, filesLeftToRead);
    this.prestartOxlint();
  }

  /** Once every file is read: oxlint's last batches start, this process lints its own share, then what oxlint left. */
  async finish(): Promise<void> {
    const keptBack = this.takeBackShare();
    const oxlintDone = this.oxlint?.finish(keptBack.length > 0 ? 1 : undefined);
    const linted = [...this.forESLint, ...this.held, ...(await this.stillKept(keptBack))];
    this.inProcess.add(textLength(linted));
    for (const file of linted) await this.lintWithESLint(file);
    if (oxlintDone) await this.takeOxlintResults(await oxlintDone, keptBack);
    if (this.linter) for (const result of await this.linter.finish(this.eslintResults)) this.tally.results.set(result.filePath, result);
  }

  /**
   * The pre-filter's answer, where only a parse can tell: oxlint, chosen but not yet at work, would wait for the check,
   * so it takes the file unchecked (it parses it anyway) and the check is made only if the file is kept in this process
   * after all. Else the check is made now (the reading waits for these files alone), while any oxlint process at work
   * goes on.
   */
  private async settle(file: SourceFile, answer: PrefilterAnswer): Promise<{ kept: boolean; waitingCheck?: () => Promise<boolean> }> {
    if (typeof answer === 'boolean') return { kept: answer };
    if (this.oxlint !== null && this.oxlint.batchesStarted === 0 && OxlintEngine.accepts(file.filePath, file.text)) return { kept: true, waitingCheck: answer };
    return { kept: await answer() };
  }

  private handToOxlint(file: SourceFile, filesLeftToRead: number): void {
    this.oxlint!.add(file, filesLeftToRead);
    this.handed.push(file);
  }

  /** Holds a file oxlint could take until the text held repays starting oxlint (at once with DRAINGUARD_ENGINE=oxlint). */
  private hold(file: SourceFile, filesLeftToRead: number): void {
    this.held.push(file);
    this.heldBytes += file.text.length;
    if (!this.oxlintMissing && (this.engine === 'oxlint' || oxlintIsCheaper(this.heldBytes, this.forESLint.length > 0))) this.startOxlint(filesLeftToRead);
  }

  /** Starts an oxlint run, where oxlint is installed, and hands it the files held so far. */
  private startOxlint(filesLeftToRead: number): void {
    this.oxlint = OxlintEngine.find()?.start(this.options.cwd, this.options.ruleOptions) ?? null;
    this.oxlintMissing = this.oxlint === null;
    for (const waiting of this.oxlint ? this.held.splice(0) : []) this.handToOxlint(waiting, filesLeftToRead);
  }

  private prestartOxlint(): void {
    this.oxlint?.prestart(this.engine === 'auto' ? processesWorthStarting(this.oxlint, this.forESLint.length > 0) : this.oxlint.processesToFinish());
  }

  /** Everything still waits for oxlint (no batch went early): this process, idle from here, takes a share of it. */
  private takeBackShare(): SourceFile[] {
    const oxlint = this.oxlint;
    if (!oxlint || this.engine !== 'auto' || oxlint.batchesStarted !== 0) return [];
    return oxlint.takeBack(inProcessShare(oxlint.waitingBytes, this.forESLint.length > 0, oxlint.processesToFinish()));
  }

  /** The files taken back from oxlint that the pre-filter's waiting check keeps; the others are clean, and not parsed. */
  private async stillKept(keptBack: readonly SourceFile[]): Promise<SourceFile[]> {
    const kept: SourceFile[] = [];
    for (const file of keptBack) {
      const check = this.checksWaiting.get(file);
      if (!check || (await check())) kept.push(file);
      else {
        this.tally.results.set(file.filePath, cleanResult(file.filePath));
        this.tally.parsed--;
      }
    }
    return kept;
  }

  /** oxlint's results; a file it left (it does not parse there), or one whose suggestions are asked for but were not recorded, goes to ESLint. */
  private async takeOxlintResults(fromOxlint: OxlintResults, keptBack: readonly SourceFile[]): Promise<void> {
    const kept = new Set(keptBack);
    for (const file of this.handed.filter((file) => !kept.has(file))) {
      const result = fromOxlint.results.get(file.filePath);
      if (result && !(this.options.suggestions && fromOxlint.unsuggested.has(file.filePath))) this.tally.results.set(file.filePath, result);
      else {
        this.inProcess.add(file.text.length);
        await this.lintWithESLint(file);
      }
    }
  }

  private async lintWithESLint({ filePath, text }: SourceFile): Promise<void> {
    this.linter ??= new TextLinter({ cwd: this.options.cwd, types: this.options.types, ruleOptions: this.options.ruleOptions, native: this.engine !== 'eslint' });
    this.eslintResults.push(await this.linter.lint(text, filePath));
  }
}
