// Where the test of a helper module goes and in which framework: read from small projects written here (testLayoutFor
// asks git which files it keeps). The glob patterns of test configs, in process: test/cli/test-layout.test.ts.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testLayoutFor } from '../../../../cli/fix/test-layout.js';
import { isHelperTest } from '../../../../rules/fix/helper-test.js';

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'drainguard-test-layout-'));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

const manifest = (extra: Record<string, unknown>): string => `${JSON.stringify({ name: 'sdk', version: '1.0.0', ...extra }, null, 2)}\n`;

async function layout(dir: string, module: string) {
  const found = await testLayoutFor(path.join(dir, module), isHelperTest);
  return { ...found, path: path.relative(dir, found.path), sample: found.sample === null ? null : 'a test' };
}

describe('testLayoutFor', () => {
  it('with no test and no framework: node:test, beside the module', async () => {
    const dir = project({ 'package.json': manifest({}), 'src/client.ts': 'export const a = 1;\n', 'src/drain-body.ts': '' });
    expect(await layout(dir, 'src/drain-body.ts')).toEqual({
      framework: 'node:test',
      path: 'src/drain-body.test.ts',
      importGlobals: true,
      testFunction: 'it',
      importExtension: null,
      sample: null,
      nodeEnvironment: false,
      notPickedUpBy: null,
      referenceNodeTypes: false,
      typeImports: 'separate',
    });
  });

  it('a tests folder mirroring the source tree, in the framework whose config includes it, with its import style', async () => {
    const dir = project({
      'package.json': manifest({ scripts: { test: 'vitest run' }, devDependencies: { vitest: '4.0.0', jest: '30.0.0' } }),
      'vitest.config.ts': "import { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: { include: ['tests/**/*.test.ts'], environment: 'jsdom' } });\n",
      'src/core/client.ts': "import { a, type B } from './a';\n",
      'src/core/drain-body.ts': '',
      'tests/other/thing.test.ts': "import { describe, test } from 'vitest';\nimport { thing } from '../../src/other/thing';\n\ndescribe('thing', () => {\n  test('is', () => {});\n  test('is too', () => {});\n});\n",
    });
    expect(await layout(dir, 'src/core/drain-body.ts')).toEqual({
      framework: 'vitest',
      path: 'tests/core/drain-body.test.ts',
      importGlobals: true,
      testFunction: 'test',
      importExtension: '',
      sample: 'a test',
      nodeEnvironment: true,
      notPickedUpBy: null,
      referenceNodeTypes: false,
      typeImports: 'inline',
    });
  });

  it('beside the tests of the files next to the module (tests/unit/stream for src/core/stream/Stream.ts)', async () => {
    const dir = project({
      'package.json': manifest({ devDependencies: { vitest: '4.0.0' } }),
      'src/core/stream/Stream.ts': '',
      'src/core/stream/drain-body.ts': '',
      'tests/unit/stream/Stream.test.ts': "describe('Stream', () => {\n  it('streams', () => {});\n});\n",
      'tests/unit/fetcher/Fetcher.test.ts': "describe('Fetcher', () => {\n  it('fetches', () => {});\n});\n",
      'tests/tsconfig.json': '{ "compilerOptions": { "types": ["vitest/globals"] } }\n',
    });
    const found = await layout(dir, 'src/core/stream/drain-body.ts');
    expect([found.framework, found.path, found.importGlobals, found.referenceNodeTypes]).toEqual(['vitest', 'tests/unit/stream/drain-body.test.ts', false, true]);
  });

  it('next to the code where the tests are, named as they are (.spec), in jest where the test script runs it', async () => {
    const dir = project({
      'package.json': manifest({ scripts: { test: 'jest --ci' }, devDependencies: { jest: '30.0.0' } }),
      'lib/a.js': '',
      'lib/a.spec.js': "test('a', () => {});\ntest('b', () => {});\n",
      'lib/b.js': '',
      'lib/b.spec.js': "test('b', () => {});\n",
      'lib/drain-body.js': '',
    });
    const found = await layout(dir, 'lib/drain-body.js');
    expect([found.framework, found.path, found.importGlobals, found.testFunction]).toEqual(['jest', 'lib/drain-body.spec.js', false, 'test']);
  });

  it('in a __tests__ folder beside the module where the tests are kept so', async () => {
    const dir = project({
      'package.json': manifest({ devDependencies: { jest: '30.0.0' } }),
      'src/api/client.ts': '',
      'src/api/__tests__/x.test.ts': "it('x', () => {});\n",
      'src/util/__tests__/y.test.ts': "it('y', () => {});\n",
      'src/stream/drain-body.ts': '',
    });
    expect((await layout(dir, 'src/stream/drain-body.ts')).path).toBe('src/stream/__tests__/drain-body.test.ts');
  });

  it('mocha: its spec pattern and the tests folder it reads', async () => {
    const dir = project({
      'package.json': manifest({ type: 'module', scripts: { test: 'mocha' }, devDependencies: { mocha: '11.0.0' } }),
      '.mocharc.json': '{ "spec": "test/**/*.spec.js" }\n',
      'lib/drain-body.js': '',
      'test/client.spec.js': "import assert from 'node:assert';\n\ndescribe('client', () => {\n  it('works', () => {});\n});\n",
    });
    const found = await layout(dir, 'lib/drain-body.js');
    expect([found.framework, found.path, found.notPickedUpBy]).toEqual(['mocha', 'test/drain-body.spec.js', null]);
  });

  it('moves beside the module where the config would not pick the mirrored place up', async () => {
    const dir = project({
      'package.json': manifest({ devDependencies: { vitest: '4.0.0' } }),
      'vitest.config.ts': "export default { test: { include: ['src/**/*.test.ts', 'tests/unit/**/*.test.ts'] } };\n",
      'src/core/drain-body.ts': '',
      'tests/e2e/flow.test.ts': "it('flows', () => {});\n",
      'tests/e2e/more.test.ts': "it('flows', () => {});\n",
    });
    const found = await layout(dir, 'src/core/drain-body.ts');
    expect([found.framework, found.path, found.notPickedUpBy]).toEqual(['vitest', 'src/core/drain-body.test.ts', null]);
  });

  it('names a config whose literal patterns pick no place up', async () => {
    const dir = project({
      'package.json': manifest({ devDependencies: { vitest: '4.0.0' } }),
      'vitest.config.ts': "export default { test: { include: ['e2e/**/*.e2e.ts'] } };\n",
      'src/drain-body.ts': '',
    });
    const found = await layout(dir, 'src/drain-body.ts');
    expect([found.framework, found.path, found.notPickedUpBy && path.basename(found.notPickedUpBy)]).toEqual(['vitest', 'src/drain-body.test.ts', 'vitest.config.ts']);
  });

  it("stays in the module's git work tree, even where a package.json above it holds other tests", async () => {
    const dir = project({
      'package.json': manifest({ devDependencies: { jest: '30.0.0' } }),
      'other/tests/a.test.ts': "it('a', () => {});\n",
      'fork/.git/HEAD': 'ref: refs/heads/main\n',
      'fork/src/drain-body.ts': '',
    });
    const found = await layout(dir, 'fork/src/drain-body.ts');
    expect([found.framework, found.path]).toEqual(['node:test', 'fork/src/drain-body.test.ts']);
  });

  it('finds the test an earlier run wrote, wherever it is', async () => {
    const dir = project({
      'package.json': manifest({ devDependencies: { vitest: '4.0.0' } }),
      'src/drain-body.ts': '',
      'src/a.test.ts': "it('a', () => {});\n",
      'spec/drain.test.ts': "// Tests of the drain helpers, written by drainguard fix with the module (and\nimport { drainReader } from '../src/drain-body';\n",
    });
    expect((await layout(dir, 'src/drain-body.ts')).path).toBe('spec/drain.test.ts');
  });
});
