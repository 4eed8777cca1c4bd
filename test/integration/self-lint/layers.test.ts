/**
 * Imports run one way (docs/architecture.md): eslint.config.js forbids a wrong-way import with import-x's
 * no-restricted-paths, and madge finds no import circle (`npm run lint:circles`).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const run = promisify(execFile);

/** The layer rule's reports on `source`, linted as if it were the file at `path`. */
async function layerReports(path: string, source: string): Promise<string[]> {
  const [result] = await new ESLint({ cwd: root }).lintText(source, { filePath: join(root, path) });
  return result.messages.filter((message) => message.ruleId === 'import-x/no-restricted-paths').map((message) => `${message.line}:${message.column} ${message.message}`);
}

describe('one direction of imports', () => {
  it('reports an import from a layer above, type-only imports included', async () => {
    expect(await layerReports('rules/javascript/wrong-way-example.ts', "import { planSites } from '../fix/plan.js';\nimport type { Plan } from '../fix/plan.js';\nexport { planSites, type Plan };\n")).toEqual([
      '1:27 Unexpected path "../fix/plan.js" imported in restricted zone. the language front ends may import only the layers below it (docs/architecture.md).',
      '2:27 Unexpected path "../fix/plan.js" imported in restricted zone. the language front ends may import only the layers below it (docs/architecture.md).',
    ]);
    expect(await layerReports('rules/core/wrong-way-example.ts', "export { solve } from '../python/cfg.js';\nexport { PathFacts } from '../javascript/flow.js';\n")).toEqual([
      '1:23 Unexpected path "../python/cfg.js" imported in restricted zone. the analysis core may import only the layers below it (docs/architecture.md).',
      '2:27 Unexpected path "../javascript/flow.js" imported in restricted zone. the analysis core may import only the layers below it (docs/architecture.md).',
    ]);
    expect(await layerReports('rules/fix/wrong-way-example.ts', "export { default } from '../no-early-stream-close.js';\n")).toEqual([
      '1:25 Unexpected path "../no-early-stream-close.js" imported in restricted zone. fix planning may import only the layers below it (docs/architecture.md).',
    ]);
    expect(await layerReports('rules/wrong-way-example.ts', "export { rewrite } from '../codemods/rewrite.js';\n")).toEqual([
      '1:25 Unexpected path "../codemods/rewrite.js" imported in restricted zone. the rule may import only the layers below it (docs/architecture.md).',
    ]);
    expect(await layerReports('rules/contract/wrong-way-example.ts', "export { words } from '../javascript/words.js';\n")).toEqual([
      '1:23 Unexpected path "../javascript/words.js" imported in restricted zone. the shared contract may import only the layers below it (docs/architecture.md).',
    ]);
    expect(await layerReports('codemods/wrong-way-example.ts', "export { main } from '../cli/main.js';\n")).toEqual([
      '1:22 Unexpected path "../cli/main.js" imported in restricted zone. the codemod may import only the layers below it (docs/architecture.md).',
    ]);
  });

  it('inside the CLI, keeps the commands apart and the engines, the front ends and shared/ below them', async () => {
    expect(await layerReports('cli/engines/wrong-way-example.ts', "export { runLint } from '../lint/lint.js';\nexport { FRONT_ENDS } from '../front-ends/registry.js';\n")).toEqual([
      '1:25 Unexpected path "../lint/lint.js" imported in restricted zone. the engines import no command and no front end (docs/architecture.md).',
      '2:28 Unexpected path "../front-ends/registry.js" imported in restricted zone. the engines import no command and no front end (docs/architecture.md).',
    ]);
    expect(await layerReports('cli/fix/wrong-way-example.ts', "export { formatResults } from '../lint/format.js';\n")).toEqual([
      '1:31 Unexpected path "../lint/format.js" imported in restricted zone. a command imports no other command (docs/architecture.md).',
    ]);
    expect(await layerReports('cli/shared/wrong-way-example.ts', "export { TextLinter } from '../engines/text-linter.js';\n")).toEqual([
      '1:28 Unexpected path "../engines/text-linter.js" imported in restricted zone. the CLI\'s shared modules import no command, engine or front end (docs/architecture.md).',
    ]);
    expect(await layerReports('cli/lint/wrong-way-example.ts', "export { TextLinter } from '../engines/text-linter.js';\nexport { collectFiles } from '../shared/files.js';\n")).toEqual([]);
  });

  it('keeps the transport (drainguard/undici) apart from the rest of the project, both ways', async () => {
    expect(await layerReports('transport/wrong-way-example.ts', "export { startStreamServer } from '../testing/stream-server.js';\nexport { drainBounds } from '../rules/contract/drain-options.js';\n")).toEqual([
      '1:35 Unexpected path "../testing/stream-server.js" imported in restricted zone. drainguard/undici imports nothing of the project (Node built-ins and undici only).',
      '2:29 Unexpected path "../rules/contract/drain-options.js" imported in restricted zone. drainguard/undici imports nothing of the project (Node built-ins and undici only).',
    ]);
    expect(await layerReports('testing/wrong-way-example.ts', "export { drainOnAbort } from '../transport/undici.js';\n")).toEqual([
      '1:30 Unexpected path "../transport/undici.js" imported in restricted zone. drainguard/testing uses Node built-ins only.',
    ]);
    expect(await layerReports('transport/wrong-way-example.ts', "export { Agent } from 'undici';\nexport { drainBounds } from './options.js';\n")).toEqual([]);
  });

  it('keeps the two language front ends apart: they meet in the core and the contract', async () => {
    expect(await layerReports('rules/javascript/wrong-way-example.ts', "export { solve } from '../python/cfg.js';\n")).toEqual([
      '1:23 Unexpected path "../python/cfg.js" imported in restricted zone. the JavaScript front end imports nothing of the Python one (docs/architecture.md).',
    ]);
    expect(await layerReports('rules/python/wrong-way-example.ts', "export { words } from '../javascript/words.js';\n")).toEqual([
      '1:23 Unexpected path "../javascript/words.js" imported in restricted zone. the Python front end imports nothing of the JavaScript one (docs/architecture.md).',
    ]);
    expect(await layerReports('rules/python/wrong-way-example.ts', "export { solveFlow } from '../core/solve.js';\nexport { words } from '../contract/vocabulary.js';\n")).toEqual([]);
  });

  it('lets a layer import the layers below it and the shared adapters beside the rule', async () => {
    expect(await layerReports('rules/fix/wrong-way-example.ts', "export { walk } from '../javascript/ast.js';\nexport { isTypeScriptPath } from '../parser-options.js';\nexport { drainBounds } from '../contract/drain-options.js';\n")).toEqual([]);
    expect(await layerReports('rules/wrong-way-example.ts', "export { planSites } from './fix/plan.js';\nexport { asESLintRule } from './eslint-types.js';\n")).toEqual([]);
    expect(await layerReports('codemods/wrong-way-example.ts', "export { default } from '../rules/no-early-stream-close.js';\n")).toEqual([]);
  });

  it('the sources have no import circle (madge), and madge finds one where there is', { timeout: 120_000 }, async () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const [command, ...args] = manifest.scripts['lint:circles'].split(' ');
    expect(command).toBe('madge');
    const madge = join(root, 'node_modules/madge/bin/cli.js');
    const sources = await run(process.execPath, [madge, '--json', ...args], { cwd: root });
    expect(JSON.parse(sources.stdout)).toEqual([]);

    const circle = mkdtempSync(join(tmpdir(), 'drainguard-circle-'));
    writeFileSync(join(circle, 'a.ts'), "import { b } from './b.js';\nexport const a = (): number => b;\n");
    writeFileSync(join(circle, 'b.ts'), "import type { a } from './a.js';\nexport const b = 1;\nexport type A = typeof a;\n");
    const found = await run(process.execPath, [madge, '--circular', '--json', '--extensions', 'ts', '--ts-config', 'tsconfig.json', circle], { cwd: root }).then(
      () => ({ code: 0, stdout: '' }),
      (error: { code: number; stdout: string }) => error,
    );
    expect(found.code).toBe(1);
    expect(JSON.parse(found.stdout)).toEqual([['a.ts', 'b.ts']]);
  });
});
