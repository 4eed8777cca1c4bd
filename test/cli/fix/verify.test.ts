import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RewriteVerifier, addedDiagnostics, allAdded, type FileChange } from '../../../cli/fix/verify.js';

// Verification compares the project's own diagnostics before and after a rewrite. These projects live outside any
// node_modules, so they are checked with the TypeScript drainguard ships (ts-morph's, TypeScript 6).

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'drainguard-fix-verify-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

const tsconfig = (compilerOptions: Record<string, unknown>, rest: Record<string, unknown> = { include: ['src'] }): string =>
  JSON.stringify({ compilerOptions: { strict: true, target: 'es2022', module: 'nodenext', types: [], ...compilerOptions }, ...rest });
const original = ['export function run(value: number): number {', '  return value;', '}', ''].join('\n');
const rewritten = ["import { helper } from '../drain-body.js';", '', 'export function run(value: number): number {', '  return helper(value);', '}', ''].join('\n');
const helper = ['export function helper(value: number): number {', '  return value + 1;', '}', ''].join('\n');

async function added(verifier: RewriteVerifier, changes: FileChange[], near: string, options?: { check?: string[]; roots?: string[] }): Promise<string[]> {
  return allAdded(await verifier.addedByFile(changes, near, options));
}

/** The check `fix` makes of a rewritten file: its own diagnostics and the program's, the helper module as it will be. */
function checkRewrite(dir: string, helperBefore: string | null): Promise<string[]> {
  const file = join(dir, 'src/a/client.ts');
  const changes = [
    { path: file, before: original, after: rewritten },
    ...(helperBefore === helper ? [] : [{ path: join(dir, 'src/drain-body.ts'), before: helperBefore, after: helper }]),
  ];
  return added(new RewriteVerifier(), changes, file, { check: [file] });
}

describe('RewriteVerifier', () => {
  it("never counts an error the project had before: TypeScript 6's TS5011 (outDir without rootDir), with the helper module new or already there", async () => {
    const files = { 'tsconfig.json': tsconfig({ outDir: 'dist' }), 'src/a/client.ts': original, 'src/b/other.ts': 'export const other = 1;\n' };
    // The first run: the module is new. A second run (resumed after Ctrl-C): it is on disk and the rewrite imports it.
    expect(await checkRewrite(project(files), null)).toEqual([]);
    expect(await checkRewrite(project({ ...files, 'src/drain-body.ts': helper }), helper)).toEqual([]);
  });

  it('checks a composite project as tsc --build does: a new helper module its include covers is one of its files (no TS6307)', async () => {
    const files = { 'tsconfig.json': tsconfig({ composite: true, rootDir: 'src', outDir: 'dist' }), 'src/a/client.ts': original };
    expect(await checkRewrite(project(files), null)).toEqual([]);
    expect(await checkRewrite(project({ ...files, 'src/drain-body.ts': helper }), helper)).toEqual([]);
  });

  it('reports TS6307 where the composite project lists its files by name: the new module is not one of them, tsc --build would fail', async () => {
    const dir = project({
      'tsconfig.json': tsconfig({ composite: true, rootDir: 'src', outDir: 'dist' }, { files: ['src/a/client.ts'] }),
      'package.json': '{ "type": "module" }\n',
      'src/a/client.ts': original,
    });
    expect(await checkRewrite(dir, null)).toEqual([
      `TS6307: File '${dir}/src/drain-body.ts' is not listed within the file list of project '${dir}/tsconfig.json'. Projects must list all files or use an 'include' pattern.` +
        `   File is ECMAScript module because '${dir}/package.json' has field "type" with value "module"`,
    ]);
  });

  it("reports an error the rewrite adds, and not the file's own errors from before", async () => {
    const withError = `${original}export const wrong: string = 1;\n`;
    const dir = project({ 'tsconfig.json': tsconfig({ noEmit: true }), 'src/a/client.ts': withError });
    const file = join(dir, 'src/a/client.ts');
    const verifier = new RewriteVerifier();
    expect(await added(verifier, [{ path: file, before: withError, after: `// moved\n${withError}` }], file)).toEqual([]);
    expect(await added(verifier, [{ path: file, before: withError, after: `${withError}export const worse: number = 'a';\n` }], file)).toEqual([
      "TS2322: Type 'string' is not assignable to type 'number'.",
    ]);
  });

  it('checks all of a run\'s rewrites in one program, and says which file each added diagnostic is in', async () => {
    const dir = project({ 'tsconfig.json': tsconfig({ noEmit: true }), 'src/a/client.ts': original, 'src/b/client.ts': original, 'src/c/client.ts': original });
    const [a, b, c] = ['a', 'b', 'c'].map((name) => join(dir, `src/${name}/client.ts`));
    const changes = [
      { path: a, before: original, after: rewritten },
      { path: b, before: original, after: `${rewritten}export const wrong: number = 'b';\n` },
      { path: c, before: original, after: rewritten },
      { path: join(dir, 'src/drain-body.ts'), before: null, after: helper },
    ];
    expect(await new RewriteVerifier().addedByFile(changes, a, { check: [a, b, c] })).toEqual({
      files: { [a]: [], [b]: ["TS2322: Type 'string' is not assignable to type 'number'."], [c]: [] },
      program: [],
    });
  });

  it("checks a new helper module on its own: its errors count, the project's deprecated options do not", async () => {
    const dir = project({ 'tsconfig.json': tsconfig({ module: 'commonjs', moduleResolution: 'node10', lib: ['es2022'], noEmit: true }), 'src/a/client.ts': original });
    const path = join(dir, 'src/drain-body.ts');
    const verifier = new RewriteVerifier();
    expect(await added(verifier, [{ path, before: null, after: helper }], join(dir, 'src/a/client.ts'), { roots: [path] })).toEqual([]);
    expect(await added(verifier, [{ path, before: null, after: `${helper}setTimeout(() => {}, 1);\n` }], join(dir, 'src/a/client.ts'), { roots: [path] })).toEqual([
      "TS2304: Cannot find name 'setTimeout'.",
    ]);
  });
});

describe('addedDiagnostics', () => {
  it("counts what is there after and not before: a changed file's by code and message, the program's by code", () => {
    const file = '/p/src/a.ts';
    const before = [
      { file, code: 2322, message: "Type 'string' is not assignable to type 'number'." },
      { file: undefined, code: 5011, message: "The common source directory of 'tsconfig.json' is './src/a'." },
    ];
    const after = [
      { file, code: 2322, message: "Type 'string' is not assignable to type 'number'." },
      { file, code: 2322, message: "Type 'string' is not assignable to type 'number'." },
      { file: undefined, code: 5011, message: "The common source directory of 'tsconfig.json' is './src'." },
      { file: undefined, code: 6307, message: "File '/p/src/drain-body.ts' is not listed within the file list of project '/p/tsconfig.json'." },
    ];
    expect(addedDiagnostics(before, after)).toEqual([
      "TS2322: Type 'string' is not assignable to type 'number'.",
      "TS6307: File '/p/src/drain-body.ts' is not listed within the file list of project '/p/tsconfig.json'.",
    ]);
  });
});
