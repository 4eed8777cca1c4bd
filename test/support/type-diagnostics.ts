import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Project, ts } from 'ts-morph';

let project: Project | undefined;

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
 * TypeScript diagnostics (code and text, no positions) of a file checked on its own with strict settings, the DOM lib
 * and Node's types.
 */
export function typeDiagnostics(fileName: string, text: string): string[] {
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
  const file = project.createSourceFile(fileName, text, { overwrite: true });
  return file.getPreEmitDiagnostics().map((diagnostic) => `TS${diagnostic.getCode()}: ${ts.flattenDiagnosticMessageText(diagnostic.compilerObject.messageText, ' ')}`);
}
