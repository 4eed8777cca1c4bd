import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ts as TsMorphTypeScript } from 'ts-morph';

/** The compiler API, typed as ts-morph's copy declares it (a project's own is checked for the functions used here). */
type TypeScript = typeof TsMorphTypeScript;

/** A file as the rewrite leaves it: `before` null for a file it creates (the helper module). */
export interface FileChange {
  path: string;
  before: string | null;
  after: string;
}

/**
 * Verification (on by default where a tsconfig.json applies, `--verify` everywhere, `--no-verify` never): type-checks
 * the project before and after a rewrite, with the nearest tsconfig.json (else strict defaults), and returns the
 * diagnostics the rewrite adds. The TypeScript is the project's own, as the file's directory resolves `typescript` (its
 * version, its lib declarations: what its own `tsc` will say); where it has none, the one drainguard ships with ts-morph.
 *
 * The program is the one `tsc -p` builds: the files the tsconfig lists (a new file joins them where its `include`
 * covers it, as it will once written), with its options (`composite`, `rootDir`, `outDir`, …). What is compared, before
 * and after: the changed files' own diagnostics (by code and message, not position: the rewrite moves lines), and the
 * program's diagnostics that belong to no changed file (options, global, config: by code, since their text names the
 * program's files). Only what is there after and was not before counts: a project that already has an error (TS5011,
 * `outDir` without `rootDir` under TypeScript 6; a deprecated option) never rolls back a rewrite.
 */
export class RewriteVerifier {
  private readonly checkers = new Map<string, Promise<ProjectChecker>>();
  /** The project TypeScript each tsconfig's directory resolves, resolved once (every file checked asks). */
  private readonly typeScripts = new Map<string, { ts: TypeScript; location: string } | null>();

  /**
   * The diagnostics `changes` add, in the project of `near` (the tsconfig that applies to it): the own diagnostics of
   * each file in `check` (all changed files by default), and the program's, which belong to none of them. `roots`:
   * files checked whether or not the tsconfig lists them (by default the changed files that exist already; a new file
   * nothing imports yet, the helper module checked before its importers, is named here). All changes are checked at
   * once, in one program before and one after: a run's rewrites cost two type checks of a project, not two per file.
   */
  async addedByFile(changes: readonly FileChange[], near: string, options: CheckOptions = {}): Promise<AddedDiagnostics> {
    const checker = await this.checkerFor(near);
    const roots = options.roots ?? changes.filter((change) => change.before !== null).map((change) => change.path);
    const check = options.check ?? changes.map((change) => change.path);
    try {
      const before = checker.diagnostics(new Map(changes.map((change) => [change.path, change.before])), check, roots);
      const after = checker.diagnostics(new Map(changes.map((change) => [change.path, change.after])), check, roots);
      const of = (file: string | undefined, diagnostics: readonly CheckedDiagnostic[]): CheckedDiagnostic[] => diagnostics.filter((diagnostic) => diagnostic.file === file);
      return {
        files: Object.fromEntries(check.map((file) => [file, addedDiagnostics(of(checker.nameOf(file), before), of(checker.nameOf(file), after))])),
        program: addedDiagnostics(of(undefined, before), of(undefined, after)),
      };
    } finally {
      checker.reset();
    }
  }

  private checkerFor(filePath: string): Promise<ProjectChecker> {
    const directory = path.dirname(path.resolve(filePath));
    const tsconfig = findUp(directory, 'tsconfig.json');
    const root = tsconfig ? path.dirname(tsconfig) : directory;
    let own = this.typeScripts.get(root);
    if (own === undefined) {
      own = projectTypeScript(root);
      this.typeScripts.set(root, own);
    }
    const key = `${own?.location ?? '<ts-morph>'}\0${tsconfig ?? '<defaults>'}`;
    let checker = this.checkers.get(key);
    if (!checker) {
      checker = own ? Promise.resolve(new ProjectChecker(own.ts, tsconfig, root)) : shippedChecker(tsconfig, root);
      this.checkers.set(key, checker);
    }
    return checker;
  }
}

export interface CheckOptions {
  check?: readonly string[];
  roots?: readonly string[];
}

/** What a rewrite adds: to each file checked (by its path as given), and to the program (options, global, config). */
export interface AddedDiagnostics {
  files: Record<string, string[]>;
  program: string[];
}

/** Every diagnostic a check found added, the files' first. */
export function allAdded(added: AddedDiagnostics): string[] {
  return [...Object.values(added.files).flat(), ...added.program];
}

/** A diagnostic as verification compares them: `file` is one of the changed files, or undefined for the program's. */
export interface CheckedDiagnostic {
  file: string | undefined;
  code: number;
  message: string;
}

/** What is in `after` and not in `before` (as many times as it is there more often), as `TS<code>: <message>`. */
export function addedDiagnostics(before: readonly CheckedDiagnostic[], after: readonly CheckedDiagnostic[]): string[] {
  const key = (diagnostic: CheckedDiagnostic): string => (diagnostic.file === undefined ? `\0${diagnostic.code}` : `${diagnostic.file}\0${diagnostic.code}\0${diagnostic.message}`);
  const remaining = new Map<string, number>();
  for (const diagnostic of before) remaining.set(key(diagnostic), (remaining.get(key(diagnostic)) ?? 0) + 1);
  const added: string[] = [];
  for (const diagnostic of after) {
    const count = remaining.get(key(diagnostic)) ?? 0;
    if (count > 0) remaining.set(key(diagnostic), count - 1);
    else added.push(`TS${diagnostic.code}: ${diagnostic.message}`);
  }
  return added;
}

/** The project's TypeScript, where `directory` resolves one with the compiler API used here. */
function projectTypeScript(directory: string): { ts: TypeScript; location: string } | null {
  try {
    const requireHere = createRequire(path.join(directory, 'package.json'));
    const location = requireHere.resolve('typescript');
    const ts = requireHere('typescript') as Partial<TypeScript>;
    return hasCompilerApi(ts) ? { ts, location } : null;
  } catch {
    return null;
  }
}

function hasCompilerApi(ts: Partial<TypeScript>): ts is TypeScript {
  return typeof ts.createLanguageService === 'function' && typeof ts.getPreEmitDiagnostics === 'function' && typeof ts.getParsedCommandLineOfConfigFile === 'function';
}

/**
 * Where the project has no TypeScript of its own: ts-morph's, whose lib declarations are held in memory by its
 * companion package (@ts-morph/common, found from ts-morph's own location).
 */
async function shippedChecker(tsconfig: string | undefined, root: string): Promise<ProjectChecker> {
  const tsMorph = await import('ts-morph');
  const requireCommon = createRequire(createRequire(import.meta.url).resolve('ts-morph'));
  const common = requireCommon('@ts-morph/common') as { getLibFiles(): Array<{ fileName: string; text: string }> };
  const libFolder = path.dirname(tsMorph.ts.getDefaultLibFilePath({})).split(path.sep).join('/');
  const libFiles = new Map(common.getLibFiles().map((file) => [`${libFolder}/${file.fileName}`, file.text]));
  return new ProjectChecker(tsMorph.ts, tsconfig, root, libFiles);
}

function defaultOptions(ts: TypeScript): TsMorphTypeScript.CompilerOptions {
  return {
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.asynciterable.d.ts'],
    jsx: ts.JsxEmit.Preserve,
    skipLibCheck: true,
    noEmit: true,
  };
}

/** `matchFiles`, the function behind `sys.readDirectory`: internal to TypeScript, but on its object since 2.x. */
type MatchFiles = (
  path: string,
  extensions: readonly string[] | undefined,
  excludes: readonly string[] | undefined,
  includes: readonly string[] | undefined,
  useCaseSensitiveFileNames: boolean,
  currentDirectory: string,
  depth: number | undefined,
  getFileSystemEntries: (path: string) => { files: readonly string[]; directories: readonly string[] },
  realpath: (path: string) => string,
) => string[];

/**
 * One project's type check, as `tsc -p <tsconfig>` sees it: a language service over the tsconfig's options and file
 * list, with some files' texts overlaid on the disk (a rewrite, or a file removed or not yet written); everything else
 * is read from disk.
 */
class ProjectChecker {
  /** The overlaid texts (null: the file does not exist), with a version for each text the service has seen. */
  private readonly overlay = new Map<string, { text: string | null; version: number }>();
  private versions = 0;
  private roots: string[] = [];
  private readonly service: TsMorphTypeScript.LanguageService;
  private readonly options: TsMorphTypeScript.CompilerOptions;
  private readonly references: readonly TsMorphTypeScript.ProjectReference[] | undefined;
  /** The tsconfig's file list, by the new files that were overlaid when it was computed. */
  private readonly listed = new Map<string, ReadonlySet<string>>();

  constructor(
    private readonly ts: TypeScript,
    private readonly tsconfig: string | undefined,
    directory: string,
    /** Lib declarations held in memory (ts-morph's TypeScript), by file name. */
    private readonly libFiles: ReadonlyMap<string, string> = new Map(),
  ) {
    const parsed = tsconfig ? this.parse([]) : undefined;
    this.options = parsed?.options ?? defaultOptions(ts);
    this.references = parsed?.projectReferences;
    if (parsed) this.listed.set('', new Set(parsed.fileNames.map((file) => this.nameOf(file))));
    const host: TsMorphTypeScript.LanguageServiceHost = {
      getCompilationSettings: () => this.options,
      getProjectReferences: () => this.references,
      getScriptFileNames: () => this.roots,
      getScriptVersion: (file) => String(this.overlay.get(file)?.version ?? 0),
      getScriptSnapshot: (file) => this.snapshot(file),
      getCurrentDirectory: () => directory,
      getDefaultLibFileName: (compilerOptions) => ts.getDefaultLibFilePath(compilerOptions),
      fileExists: (file) => this.exists(file),
      readFile: (file) => this.read(file),
      readDirectory: (...args) => ts.sys.readDirectory(...args),
      directoryExists: (directoryName) => ts.sys.directoryExists(directoryName),
      getDirectories: (directoryName) => ts.sys.getDirectories(directoryName),
      realpath: ts.sys.realpath ? (file) => ts.sys.realpath!(file) : undefined,
    };
    this.service = ts.createLanguageService(host, ts.createDocumentRegistry());
  }

  /**
   * The diagnostics `tsc` reports before emit with `texts` overlaid: the own ones of `files`, and the program's
   * (options, global, config) that belong to none of them. `roots`: files that are root files whether or not the
   * tsconfig lists them (a file it does not include is still checked, with its options).
   */
  diagnostics(texts: ReadonlyMap<string, string | null>, files: readonly string[], roots: readonly string[]): CheckedDiagnostic[] {
    for (const [file, text] of texts) this.set(file, text);
    const newFiles = [...texts].filter(([file, text]) => text !== null && !this.onDisk(file)).map(([file]) => this.nameOf(file));
    const listed = this.listedWith(newFiles);
    const forced = roots.map((file) => this.nameOf(file)).filter((file) => !listed.has(file));
    this.roots = [...listed, ...forced].filter((file) => this.exists(file));
    const program = this.service.getProgram();
    if (!program) return [];
    const names = new Set(files.map((file) => this.nameOf(file)));
    const sources = [...names].map((name) => program.getSourceFile(name)).filter((source) => source !== undefined);
    // What `tsc` reports before emit for each file: the program's diagnostics (config, options, global) and the
    // file's own. Where none of the files is in the program (a new file, before), the program's alone.
    const all =
      sources.length > 0
        ? sources.flatMap((source) => this.ts.getPreEmitDiagnostics(program, source))
        : [...program.getConfigFileParsingDiagnostics(), ...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()];
    const seen = new Set<string>();
    const result: CheckedDiagnostic[] = [];
    for (const diagnostic of all) {
      const message = this.ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
      // Each file's list repeats the program's diagnostics: counted once.
      const identity = `${diagnostic.file?.fileName ?? ''}\0${diagnostic.start ?? ''}\0${diagnostic.code}\0${message}`;
      if (seen.has(identity)) continue;
      seen.add(identity);
      result.push({ file: diagnostic.file !== undefined && names.has(diagnostic.file.fileName) ? diagnostic.file.fileName : undefined, code: diagnostic.code, message });
    }
    return result;
  }

  /** Back to the disk's files (the service keeps what it parsed, by version). */
  reset(): void {
    this.overlay.clear();
  }

  private set(filePath: string, text: string | null): void {
    const name = this.nameOf(filePath);
    const previous = this.overlay.get(name);
    if (previous && previous.text === text) return;
    // A new version for each text, also for a file set again after a reset: the service keeps old texts by version.
    this.overlay.set(name, { text, version: ++this.versions });
  }

  private exists(file: string): boolean {
    const entry = this.overlay.get(file);
    if (entry) return entry.text !== null;
    return this.libFiles.has(file) || this.onDisk(file);
  }

  private read(file: string): string | undefined {
    const entry = this.overlay.get(file);
    if (entry) return entry.text ?? undefined;
    return this.libFiles.get(file) ?? this.fromDisk(file)?.text;
  }

  /**
   * A file's snapshot. The service asks for every file of the program each time the program changes (each check makes
   * two), and the files on disk do not change during a run: each is read once.
   */
  private snapshot(file: string): TsMorphTypeScript.IScriptSnapshot | undefined {
    const entry = this.overlay.get(file);
    if (entry) return entry.text === null ? undefined : this.ts.ScriptSnapshot.fromString(entry.text);
    const lib = this.libFiles.get(file);
    if (lib !== undefined) return this.ts.ScriptSnapshot.fromString(lib);
    return this.fromDisk(file)?.snapshot;
  }

  private readonly disk = new Map<string, { text: string; snapshot: TsMorphTypeScript.IScriptSnapshot } | null>();

  private fromDisk(file: string): { text: string; snapshot: TsMorphTypeScript.IScriptSnapshot } | null {
    let cached = this.disk.get(file);
    if (cached === undefined) {
      const text = this.ts.sys.readFile(file);
      cached = text === undefined ? null : { text, snapshot: this.ts.ScriptSnapshot.fromString(text) };
      this.disk.set(file, cached);
    }
    return cached;
  }

  private readonly existing = new Map<string, boolean>();

  private onDisk(filePath: string): boolean {
    const file = this.nameOf(filePath);
    let exists = this.existing.get(file);
    if (exists === undefined) {
      exists = this.ts.sys.fileExists(file);
      this.existing.set(file, exists);
    }
    return exists;
  }

  /** The tsconfig's file list with `newFiles` present: a new file in a folder its `include` covers is one of them. */
  private listedWith(newFiles: readonly string[]): ReadonlySet<string> {
    if (!this.tsconfig) return new Set();
    const key = [...newFiles].sort().join('\0');
    let listed = this.listed.get(key);
    if (!listed) {
      listed = new Set((this.parse(newFiles)?.fileNames ?? []).map((file) => this.nameOf(file)));
      this.listed.set(key, listed);
    }
    return listed;
  }

  /** The tsconfig parsed as `tsc` parses it, its directories read with `newFiles` in them. */
  private parse(newFiles: readonly string[]): TsMorphTypeScript.ParsedCommandLine | undefined {
    const { ts } = this;
    // matchFiles is internal (typed here); a TypeScript without it lists the files on disk only.
    const { matchFiles } = ts as unknown as { matchFiles?: MatchFiles };
    const readDirectory =
      newFiles.length > 0 && typeof matchFiles === 'function'
        ? (root: string, extensions: readonly string[], excludes: readonly string[] | undefined, includes: readonly string[], depth?: number): string[] =>
            matchFiles(root, extensions, excludes, includes, ts.sys.useCaseSensitiveFileNames, ts.sys.getCurrentDirectory(), depth, (dir) => entriesWith(dir, newFiles), (file) => ts.sys.realpath?.(file) ?? file)
        : (root: string, extensions?: readonly string[], excludes?: readonly string[], includes?: readonly string[], depth?: number): string[] => ts.sys.readDirectory(root, extensions, excludes, includes, depth);
    return ts.getParsedCommandLineOfConfigFile(this.tsconfig!, {}, { ...ts.sys, readDirectory, onUnRecoverableConfigFileDiagnostic: () => {} });
  }

  /** File names as TypeScript spells them (forward slashes). */
  nameOf(filePath: string): string {
    return path.resolve(filePath).split(path.sep).join('/');
  }
}

/** A directory's files and subdirectories, with the new files that are to be in it. */
function entriesWith(dir: string, newFiles: readonly string[]): { files: string[]; directories: string[] } {
  const files: string[] = [];
  const directories: string[] = [];
  try {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      let kind: 'file' | 'directory' | undefined = entry.isFile() ? 'file' : entry.isDirectory() ? 'directory' : undefined;
      if (entry.isSymbolicLink()) {
        try {
          const stat = statSync(path.join(dir, entry.name));
          kind = stat.isFile() ? 'file' : stat.isDirectory() ? 'directory' : undefined;
        } catch {
          kind = undefined;
        }
      }
      if (kind === 'file') files.push(entry.name);
      else if (kind === 'directory') directories.push(entry.name);
    }
  } catch {
    // A directory that cannot be read lists nothing, as in TypeScript's own sys.
  }
  const here = path.resolve(dir).split(path.sep).join('/');
  for (const file of newFiles) {
    if (path.posix.dirname(file) === here && !files.includes(path.posix.basename(file))) files.push(path.posix.basename(file));
  }
  files.sort();
  directories.sort();
  return { files, directories };
}

/** The project a file is checked in: the nearest tsconfig.json up from it, else its directory (strict defaults). */
export function projectOf(filePath: string): string {
  const directory = path.dirname(path.resolve(filePath));
  return findUp(directory, 'tsconfig.json') ?? directory;
}

/** Whether a tsconfig.json applies to the file (the nearest one up from its directory). */
export function hasTsconfig(filePath: string): boolean {
  return findUp(path.dirname(path.resolve(filePath)), 'tsconfig.json') !== undefined;
}

function findUp(start: string, name: string): string | undefined {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, name);
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** Thrown by a verifier's check that Ctrl-C stopped. */
export class VerificationInterrupted extends Error {
  constructor() {
    super('interrupted');
    this.name = 'VerificationInterrupted';
  }
}

/** The verification `fix` runs: checks that `signal` stops (Ctrl-C), and a close once they are done. */
export interface Verifier {
  addedByFile(changes: readonly FileChange[], near: string, options?: CheckOptions): Promise<AddedDiagnostics>;
  close(): Promise<void>;
}

/** A request to the worker (cli/fix/verify-worker.ts) and its answer. */
export interface VerifyRequest {
  id: number;
  changes: FileChange[];
  near: string;
  options: CheckOptions;
}
export type VerifyAnswer = { id: number; added: AddedDiagnostics } | { id: number; error: string };

/**
 * The verification of a `fix` run. A type check is synchronous and takes from milliseconds to seconds (the first one
 * of a project builds its program), and Ctrl-C reaches the process only between two turns of its event loop: the
 * checks run in a worker thread (dist/fix-verify-worker.js), which `signal` terminates in the middle of a check. Where
 * that file is not there (the sources run by the tests), in this thread, the event loop turning before each check.
 */
export function startVerifier(signal: AbortSignal): Verifier {
  const script = workerScript();
  return script ? new WorkerVerifier(script, signal) : new InlineVerifier(signal);
}

function workerScript(): string | null {
  try {
    // dist/fix-verify-worker.js, next to the package's entry (dist/index.js), as oxlint-engine finds its launcher.
    const file = path.join(path.dirname(fileURLToPath(import.meta.resolve('drainguard'))), 'fix-verify-worker.js');
    return import.meta.url.endsWith('.js') && existsSync(file) ? file : null;
  } catch {
    return null;
  }
}

class InlineVerifier implements Verifier {
  private readonly verifier = new RewriteVerifier();

  constructor(private readonly signal: AbortSignal) {}

  async addedByFile(changes: readonly FileChange[], near: string, options: CheckOptions = {}): Promise<AddedDiagnostics> {
    await new Promise((resolve) => setImmediate(resolve));
    if (this.signal.aborted) throw new VerificationInterrupted();
    return this.verifier.addedByFile(changes, near, options);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

class WorkerVerifier implements Verifier {
  private worker: Worker | undefined;
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (added: AddedDiagnostics) => void; reject: (error: Error) => void }>();

  constructor(
    private readonly script: string,
    private readonly signal: AbortSignal,
  ) {
    signal.addEventListener('abort', () => this.stop(new VerificationInterrupted()), { once: true });
  }

  addedByFile(changes: readonly FileChange[], near: string, options: CheckOptions = {}): Promise<AddedDiagnostics> {
    if (this.signal.aborted) return Promise.reject(new VerificationInterrupted());
    const worker = this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      const request: VerifyRequest = { id, changes: [...changes], near, options };
      worker.postMessage(request);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.script);
    worker.on('message', (answer: VerifyAnswer) => {
      const waiting = this.pending.get(answer.id);
      this.pending.delete(answer.id);
      if ('error' in answer) waiting?.reject(new Error(answer.error));
      else waiting?.resolve(answer.added);
    });
    worker.on('error', (error) => this.stop(error));
    worker.on('exit', () => this.stop(new Error('the type-check worker exited')));
    this.worker = worker;
    return worker;
  }

  /** Terminates the worker (a check in the middle ends there) and fails what waits for it. */
  private stop(error: Error): void {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) void worker.terminate();
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }
}
