/**
 * The text of the test `drainguard fix` writes with a helper module, per framework and language, compared with the
 * literal files in test/rules/fixtures/helper-tests/*.txt (reviewed snapshots: after an intended change of the test's text,
 * record them again with `UPDATE_HELPER_TESTS=1 npx vitest run test/rules/fix/helper-test.test.ts` and read the diff
 * before committing; checking never writes them).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HELPER_TEST_MARK, TESTED_PIECES, helperTestText, isHelperTest, type HelperTestOptions } from '../../../rules/fix/helper-test.js';
import { helperModuleText } from '../../../rules/fix/helper-module.js';
import { withDependencies, type PieceName } from '../../../rules/fix/helpers.js';
import { detectStyle } from '../../../rules/fix/style.js';
import { drainBounds } from '../../../rules/contract/drain-options.js';
import { typeDiagnostics } from '../../support/type-diagnostics.js';

const recording = process.env.UPDATE_HELPER_TESTS === '1';
const ALL: PieceName[] = ['drainReader', 'drainIterator', 'drainBodyChunks', 'drainMessages', 'drainable', 'tapBody', 'tapResponse', 'drainableBody', 'drainNodeStream'];

interface Case {
  /** The fixture file: test/rules/fixtures/helper-tests/<name>. */
  name: string;
  /** What the rewritten sites used: the module holds them and what they use, and the test tests every piece it exports. */
  pieces: PieceName[];
  /** A file of the repository, the example of its style. */
  sample: string;
  typescript: boolean;
  options: Omit<HelperTestOptions, 'style'>;
}

const CASES: Case[] = [
  {
    name: 'vitest-typescript-every-piece.test.ts',
    pieces: ALL,
    sample: "import { a } from './a.js';\nexport const b = 'b';\n",
    typescript: true,
    options: { framework: 'vitest', importGlobals: true, testFunction: 'it', moduleSpecifier: '../src/drain-body.js', nodeEnvironment: false },
  },
  {
    name: 'jest-typescript-tap-response.test.ts',
    pieces: ['tapResponse', 'drainable', 'drainIterator'],
    sample: 'import { a } from "./a";\n\nexport function b(): string {\n    return "b";\n}\n',
    typescript: true,
    options: {
      framework: 'jest',
      importGlobals: false,
      testFunction: 'test',
      moduleSpecifier: '../../src/lib/drain-body',
      nodeEnvironment: true,
      referenceNodeTypes: true,
      typeImports: 'inline',
    },
  },
  {
    name: 'mocha-javascript-node-stream.test.js',
    pieces: ['drainNodeStream', 'drainReader'],
    sample: "import { a } from './a.js'\n\nexport function b() {\n\treturn 'b'\n}\n",
    typescript: false,
    options: { framework: 'mocha', importGlobals: false, testFunction: 'it', moduleSpecifier: '../lib/drain-body.js', nodeEnvironment: false },
  },
  {
    name: 'node-test-javascript-drainable-body.test.mjs',
    pieces: ['drainableBody'],
    sample: "import { a } from './a.mjs';\nexport const b = 'b';\n",
    typescript: false,
    options: { framework: 'node:test', importGlobals: true, testFunction: 'test', moduleSpecifier: './drain-body.mjs', nodeEnvironment: false },
  },
  {
    name: 'node-test-typescript-reader.test.ts',
    pieces: ['drainReader'],
    sample: "export const b = 'b';\n",
    typescript: true,
    options: { framework: 'node:test', importGlobals: true, testFunction: 'it', moduleSpecifier: './drain-body.js', nodeEnvironment: false },
  },
];

const fixture = (name: string): URL => new URL(`../fixtures/helper-tests/${name}.txt`, import.meta.url);
const textOf = (testCase: Case): string =>
  helperTestText(withDependencies(testCase.pieces), { ...testCase.options, style: detectStyle(testCase.sample, testCase.typescript) });

describe('the test written with the helper module', () => {
  it.each(CASES)('$name is the text of its fixture', (testCase) => {
    const text = textOf(testCase);
    if (recording) {
      mkdirSync(new URL('../fixtures/helper-tests/', import.meta.url), { recursive: true });
      writeFileSync(fixture(testCase.name), text);
    }
    expect(existsSync(fixture(testCase.name)), `record it: UPDATE_HELPER_TESTS=1 npx vitest run ${import.meta.url}`).toBe(true);
    expect(text).toBe(readFileSync(fixture(testCase.name), 'utf8'));
  });

  it('tests exactly the pieces the module exports: one suite each', () => {
    const suites = (text: string) => [...text.matchAll(/^describe\(['"](\w+)['"]/gm)].map((match) => match[1]);
    expect(suites(readFileSync(fixture(CASES[0].name), 'utf8'))).toEqual(['drainReader', 'drainIterator', 'drainBodyChunks', 'drainMessages', 'drainable', 'tapBody', 'tapResponse', 'drainableBody', 'drainNodeStream']);
    expect(suites(readFileSync(fixture(CASES[1].name), 'utf8'))).toEqual(['drainReader', 'drainIterator', 'drainable', 'tapBody', 'tapResponse']);
    expect(suites(readFileSync(fixture(CASES[2].name), 'utf8'))).toEqual(['drainReader', 'drainNodeStream']);
    expect(TESTED_PIECES).toEqual(['drainReader', 'drainIterator', 'drainBodyChunks', 'drainMessages', 'drainable', 'tapBody', 'tapResponse', 'drainableBody', 'drainNodeStream']);
  });

  it('starts with the mark a later run knows it by (after a pragma), which a file of the user does not have', () => {
    for (const testCase of CASES) expect(isHelperTest(readFileSync(fixture(testCase.name), 'utf8')), testCase.name).toBe(true);
    expect(readFileSync(fixture(CASES[1].name), 'utf8').split('\n').slice(0, 5)).toEqual(['/**', ' * @jest-environment node', ' */', '/// <reference types="node" />', HELPER_TEST_MARK]);
    expect(isHelperTest("import { test } from 'vitest';\n// Tests of the drain helpers\n")).toBe(false);
  });

  it('is empty for a module that exports no piece a test covers', () => {
    expect(helperTestText(['bounds', 'chunkSize'], { ...CASES[0].options, style: detectStyle('', true) })).toBe('');
  });

  it.each(CASES.filter((testCase) => testCase.typescript))('$name adds no TypeScript diagnostic beside its module (strict, DOM and Node types)', (testCase) => {
    const module = helperModuleText(testCase.pieces, detectStyle(testCase.sample, true), drainBounds());
    const dir = `/helper-tests/${testCase.name.replace(/\W/g, '-')}/test`;
    expect(typeDiagnostics(`${posix.join(dir, testCase.options.moduleSpecifier.replace(/\.js$/, ''))}.ts`, module)).toEqual([]);
    // The framework's describe and it (or test), as its types declare them, where the in-memory project has none.
    const frameworkless = textOf(testCase).replace(/^import \{ describe, (it|test) \} from '[^']+';$/m, '');
    const globals = 'declare function describe(name: string, ...body: unknown[]): void;\ndeclare function it(name: string, body: () => Promise<void>): void;\ndeclare function test(name: string, body: () => Promise<void>): void;\n';
    expect(typeDiagnostics(`${dir}/drain-body.test.ts`, `${frameworkless}${globals}`)).toEqual([]);
  });
});
