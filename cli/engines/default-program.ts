import type { CompilerOptions, Program } from 'typescript';

/**
 * A TypeScript program over files no tsconfig includes, with default compiler options
 * (default lib, so `fetch`, `Response` and `ReadableStream` are typed). It parses the given
 * texts instead of reading the files again.
 */
export async function createDefaultProgram(texts: ReadonlyMap<string, string>): Promise<Program> {
  const ts = (await import('typescript')).default;
  const options: CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    jsx: ts.JsxEmit.Preserve,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
  };
  const host = ts.createCompilerHost(options, true);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, ...rest) => {
    const text = texts.get(fileName);
    return text === undefined ? getSourceFile(fileName, languageVersion, ...rest) : ts.createSourceFile(fileName, text, languageVersion, true);
  };
  return ts.createProgram([...texts.keys()], options, host);
}
