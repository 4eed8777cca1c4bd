import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Project, ts, type SourceFile } from 'ts-morph';
import { expect } from 'vitest';

let project: Project | undefined;
/** The test file whose files the project holds (a worker runs several test files: `isolate: false`). */
let owner: string | undefined;

const NODE_MODULES = fileURLToPath(new URL('../../node_modules', import.meta.url));
/** Node's own types (and what they import), as a project that uses `node:http` has them installed. */
const TYPE_PACKAGES = ['@types/node', 'undici-types'];

function copyTypes(target: Project, dir: string, into: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const from = join(dir, entry.name);
    if (entry.isDirectory()) copyTypes(target, from, `${into}/${entry.name}`);
    else if (entry.name.endsWith('.d.ts') || entry.name === 'package.json') target.getFileSystem().writeFileSync(`${into}/${entry.name}`, readFileSync(from, 'utf8'));
  }
}

/**
 * The project of the running test file: the files an earlier test file of the same worker gave are dropped, so a test
 * file sees only its own files, as in a process of its own; the parsed libraries and Node's types are kept.
 */
function projectOfThisFile(): Project {
  if (!project) {
    project = new Project({
      useInMemoryFileSystem: true,
      compilerOptions: {
        strict: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.asynciterable.d.ts'],
        types: ['node'],
        jsx: ts.JsxEmit.Preserve,
        allowJs: true,
        noEmit: true,
        skipLibCheck: true,
      },
    });
    for (const name of TYPE_PACKAGES) copyTypes(project, join(NODE_MODULES, name), `/node_modules/${name}`);
  }
  const testFile = expect.getState().testPath;
  if (testFile !== owner) {
    for (const file of project.getSourceFiles()) if (!file.getFilePath().startsWith('/node_modules/')) project.removeSourceFile(file);
    owner = testFile;
  }
  return project;
}

function diagnosticsOf(file: SourceFile): string[] {
  return file.getPreEmitDiagnostics().map((diagnostic) => `TS${diagnostic.getCode()}: ${ts.flattenDiagnosticMessageText(diagnostic.compilerObject.messageText, ' ')}`);
}

/**
 * TypeScript diagnostics (code and text, no positions) of a file checked on its own with strict settings, the DOM lib
 * and Node's types. The files given before in the same test file stay in the project (a module the file imports).
 */
export function typeDiagnostics(fileName: string, text: string): string[] {
  return diagnosticsOf(projectOfThisFile().createSourceFile(fileName, text, { overwrite: true }));
}

/**
 * The diagnostics of many files, each as `typeDiagnostics` gives them, checked in one program: every call of
 * `typeDiagnostics` makes a new program, whose type checker resolves the DOM's and Node's types again (70 to 100 ms a
 * file), where one program checks a file in about 20 ms. The files are added together, at distinct paths: a file that
 * is not a module sees the declarations of the others, as it does in `typeDiagnostics`'s project.
 */
export function typeDiagnosticsOfFiles(files: Iterable<readonly [fileName: string, text: string]>): Map<string, string[]> {
  const target = projectOfThisFile();
  const added = new Map<string, SourceFile>();
  for (const [fileName, text] of files) {
    if (added.has(fileName)) throw new Error(`typeDiagnosticsOfFiles: ${fileName} is given twice`);
    added.set(fileName, target.createSourceFile(fileName, text, { overwrite: true }));
  }
  return new Map([...added].map(([fileName, file]) => [fileName, diagnosticsOf(file)]));
}
