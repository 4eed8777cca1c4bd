import { Project, ts } from 'ts-morph';

let project: Project | undefined;

/** TypeScript diagnostics (code and text, no positions) of a file checked on its own with strict settings and the DOM lib. */
export function typeDiagnostics(fileName: string, text: string): string[] {
  project ??= new Project({
    useInMemoryFileSystem: true,
    compilerOptions: {
      strict: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.asynciterable.d.ts'],
      jsx: ts.JsxEmit.Preserve,
      allowJs: true,
      noEmit: true,
      skipLibCheck: true,
    },
  });
  const file = project.createSourceFile(fileName, text, { overwrite: true });
  return file.getPreEmitDiagnostics().map((diagnostic) => `TS${diagnostic.getCode()}: ${ts.flattenDiagnosticMessageText(diagnostic.compilerObject.messageText, ' ')}`);
}
