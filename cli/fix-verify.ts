import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ts as TsMorphTypeScript } from 'ts-morph';

/** The compiler API, typed as ts-morph's copy declares it (a project's own is checked for the functions used here). */
type TypeScript = typeof TsMorphTypeScript;

/**
 * Verification (on by default where a tsconfig.json applies, `--verify` everywhere, `--no-verify` never): type-checks a
 * TypeScript file before and after its rewrite, with the nearest tsconfig.json (else strict defaults), and returns the
 * diagnostics the rewrite adds. The TypeScript is the project's own, as the file's directory resolves `typescript` (its
 * version, its lib declarations: what its own `tsc` will say); where it has none, the one drainguard ships with ts-morph.
 */
export class RewriteVerifier {
  private readonly checkers = new Map<string, Checker>();
  /** The project TypeScript each tsconfig's directory resolves, resolved once (every file checked asks). */
  private readonly typeScripts = new Map<string, { ts: TypeScript; location: string } | null>();

  /** `alongside`: files the rewrite adds that the rewritten file imports (the helper module), checked with it. */
  async addedDiagnostics(filePath: string, before: string, after: string, alongside: ReadonlyArray<{ path: string; text: string }> = []): Promise<string[]> {
    const checker = await this.checkerFor(filePath);
    for (const file of alongside) checker.set(file.path, file.text);
    const check = (text: string): string[] => {
      checker.set(filePath, text);
      const messages = checker.diagnostics(filePath).map((diagnostic) => diagnostic.message);
      checker.remove(filePath);
      return messages;
    };
    const old = check(before);
    const remaining = [...old];
    const diagnostics: string[] = [];
    for (const message of check(after)) {
      const index = remaining.indexOf(message);
      if (index >= 0) remaining.splice(index, 1);
      else diagnostics.push(message);
    }
    for (const file of alongside) checker.remove(file.path);
    return diagnostics;
  }

  /**
   * The diagnostics in a new file (the helper module) checked in the project of `near`. Those about the project's own
   * settings (a deprecated `moduleResolution` or `baseUrl`) are the project's, not the file's, and are left out.
   */
  async diagnosticsOf(filePath: string, text: string, near: string): Promise<string[]> {
    const checker = await this.checkerFor(near);
    checker.set(filePath, text);
    const messages = checker
      .diagnostics(filePath)
      .filter((diagnostic) => diagnostic.inFile)
      .map((diagnostic) => diagnostic.message);
    checker.remove(filePath);
    return messages;
  }

  private async checkerFor(filePath: string): Promise<Checker> {
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
      checker = own ? new ProjectChecker(own.ts, tsconfig ? optionsOf(own.ts, tsconfig) : defaultOptions(own.ts), root) : await TsMorphChecker.create(tsconfig);
      this.checkers.set(key, checker);
    }
    return checker;
  }
}

/** A diagnostic as verification compares them, and whether it is about the file checked. */
interface CheckedDiagnostic {
  message: string;
  inFile: boolean;
}

/** One project's type check: the texts set here are its root files; everything else is read from disk. */
interface Checker {
  set(filePath: string, text: string): void;
  remove(filePath: string): void;
  /** What `tsc` reports before emit for the file (its own diagnostics, the global ones and the options'). */
  diagnostics(filePath: string): CheckedDiagnostic[];
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

function optionsOf(ts: TypeScript, tsconfig: string): TsMorphTypeScript.CompilerOptions {
  const parsed = ts.getParsedCommandLineOfConfigFile(tsconfig, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  return parsed?.options ?? defaultOptions(ts);
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

/**
 * A language service over the project's options whose root files are the texts set here (the file checked and the
 * helper module it imports): everything else comes from disk through module resolution, as `tsc` would read it.
 */
class ProjectChecker implements Checker {
  private readonly texts = new Map<string, { text: string; version: number }>();
  private versions = 0;
  private readonly service: TsMorphTypeScript.LanguageService;

  constructor(
    private readonly ts: TypeScript,
    options: TsMorphTypeScript.CompilerOptions,
    directory: string,
  ) {
    const host: TsMorphTypeScript.LanguageServiceHost = {
      getCompilationSettings: () => options,
      getScriptFileNames: () => [...this.texts.keys()],
      getScriptVersion: (file) => String(this.texts.get(file)?.version ?? 0),
      getScriptSnapshot: (file) => {
        const text = this.texts.get(file)?.text ?? ts.sys.readFile(file);
        return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
      },
      getCurrentDirectory: () => directory,
      getDefaultLibFileName: (compilerOptions) => ts.getDefaultLibFilePath(compilerOptions),
      fileExists: (file) => this.texts.has(file) || ts.sys.fileExists(file),
      readFile: (file, encoding) => this.texts.get(file)?.text ?? ts.sys.readFile(file, encoding),
      readDirectory: (...args) => ts.sys.readDirectory(...args),
      directoryExists: (directoryName) => ts.sys.directoryExists(directoryName),
      getDirectories: (directoryName) => ts.sys.getDirectories(directoryName),
      realpath: ts.sys.realpath ? (file) => ts.sys.realpath!(file) : undefined,
    };
    this.service = ts.createLanguageService(host, ts.createDocumentRegistry());
  }

  set(filePath: string, text: string): void {
    // A new version each time, also for a file set again after its removal: the service keeps the old text by version.
    this.texts.set(this.nameOf(filePath), { text, version: ++this.versions });
  }

  remove(filePath: string): void {
    this.texts.delete(this.nameOf(filePath));
  }

  diagnostics(filePath: string): CheckedDiagnostic[] {
    const name = this.nameOf(filePath);
    const program = this.service.getProgram();
    const source = program?.getSourceFile(name);
    if (!program || !source) return [];
    return this.ts.getPreEmitDiagnostics(program, source).map((diagnostic) => ({
      message: `TS${diagnostic.code}: ${this.ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`,
      inFile: diagnostic.file?.fileName === name,
    }));
  }

  /** File names as TypeScript spells them (forward slashes). */
  private nameOf(filePath: string): string {
    return path.resolve(filePath).split(path.sep).join('/');
  }
}

/** Where the project has no TypeScript of its own: ts-morph's project, whose TypeScript keeps its lib files in memory. */
class TsMorphChecker implements Checker {
  private constructor(
    private readonly tsMorph: typeof import('ts-morph'),
    private readonly project: import('ts-morph').Project,
  ) {}

  static async create(tsconfig: string | undefined): Promise<TsMorphChecker> {
    const tsMorph = await import('ts-morph');
    const project = tsconfig
      ? new tsMorph.Project({ tsConfigFilePath: tsconfig, skipAddingFilesFromTsConfig: true })
      : new tsMorph.Project({ compilerOptions: defaultOptions(tsMorph.ts) });
    return new TsMorphChecker(tsMorph, project);
  }

  set(filePath: string, text: string): void {
    this.project.createSourceFile(filePath, text, { overwrite: true });
  }

  remove(filePath: string): void {
    const file = this.project.getSourceFile(filePath);
    if (file) this.project.removeSourceFile(file);
  }

  diagnostics(filePath: string): CheckedDiagnostic[] {
    const file = this.project.getSourceFileOrThrow(filePath);
    return file.getPreEmitDiagnostics().map((diagnostic) => ({
      message: `TS${diagnostic.getCode()}: ${this.tsMorph.ts.flattenDiagnosticMessageText(diagnostic.compilerObject.messageText, ' ')}`,
      inFile: diagnostic.getSourceFile()?.getFilePath() === file.getFilePath(),
    }));
  }
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
