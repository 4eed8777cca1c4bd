/**
 * OxlintRun starts an oxlint process the moment an early batch is full, inside `add()`: the CLI's
 * read-and-test loop is synchronous, so a start left to the event loop would wait for the whole walk,
 * and the biggest file (read first) would start last instead of first. At the end, what is left is
 * shared out among the free processes. Processes started ahead (prestart) take the batches; one not
 * needed exits without running oxlint.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OxlintEngine } from '../../../../cli/engines/oxlint-engine.js';
import { EARLY_CANCEL_JS, EARLY_CANCEL_POSITION } from '../../../cli/sources.js';
import { ROOT } from '../../../cli/helpers.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('OxlintRun', () => {
  it('spawns oxlint within add() once a batch is full, and its result holds the report', async () => {
    const engine = OxlintEngine.find();
    expect(engine, 'oxlint and dist/oxlint-plugin.js are installed (npm run build)').not.toBeNull();
    dir = mkdtempSync(path.join(tmpdir(), 'drainguard-oxlint-run-'));
    // Over the first batch's 1 MB: the early close, then a long tail of plain code.
    const tail = Array.from({ length: 25_000 }, (_, index) => `export const doubled${index} = [1, 2, 3].map((x) => x * 2);\n`);
    const text = `${EARLY_CANCEL_JS}${tail.join('')}`;
    const filePath = path.join(dir, 'big.js');
    writeFileSync(filePath, text);

    const run = engine!.start(dir);
    const small = { filePath: path.join(dir, 'small.js'), text: 'export const a = 1;\n' };
    writeFileSync(small.filePath, small.text);
    run.add(small, 5000);
    expect(run.batchesStarted).toBe(0);
    run.add({ filePath, text }, 5000);
    expect(run.batchesStarted).toBe(1);

    const { results } = await run.finish();
    expect(results.get(small.filePath)?.messages).toEqual([]);
    expect(results.get(filePath)?.messages.map(({ line, column, endLine, endColumn }) => ({ line, column, endLine, endColumn }))).toEqual([EARLY_CANCEL_POSITION]);
  });

  it('starts no early batch when few files are left to read, and shares the last batch between two processes', async () => {
    const engine = OxlintEngine.find();
    dir = mkdtempSync(path.join(tmpdir(), 'drainguard-oxlint-run-'));
    const tail = Array.from({ length: 9_000 }, (_, index) => `export const doubled${index} = [1, 2, 3].map((x) => x * 2);\n`).join('');
    const run = engine!.start(dir);
    const files = ['a.js', 'b.js', 'c.js'].map((name) => ({ filePath: path.join(dir!, name), text: `${EARLY_CANCEL_JS}${tail}` }));
    for (const [index, file] of files.entries()) {
      writeFileSync(file.filePath, file.text);
      run.add(file, files.length - index - 1);
    }
    // About 1.5 MB in all, over the early batch's 1 MB, but the caller has nothing left to read.
    expect(run.batchesStarted).toBe(0);
    const { results } = await run.finish();
    expect(run.batchesStarted).toBe(2);
    for (const file of files) expect(results.get(file.filePath)?.messages).toHaveLength(1);
  });

  it('hands oxlint none of the files taken back (the biggest that fit first), and one process when told so', async () => {
    const engine = OxlintEngine.find();
    dir = mkdtempSync(path.join(tmpdir(), 'drainguard-oxlint-run-'));
    const run = engine!.start(dir);
    const sized = (name: string, length: number) => ({ filePath: path.join(dir!, name), text: `${EARLY_CANCEL_JS}${'//'.padEnd(length - EARLY_CANCEL_JS.length - 1, 'x')}\n` });
    const files = [sized('a.js', 3000), sized('b.js', 2000), sized('c.js', 1000)];
    for (const file of files) {
      writeFileSync(file.filePath, file.text);
      run.add(file);
    }
    expect(run.waitingBytes).toBe(6000);
    expect(run.takeBack(4100).map((file) => path.basename(file.filePath))).toEqual(['a.js', 'c.js']);
    expect(run.waitingBytes).toBe(2000);
    const { results } = await run.finish(1);
    expect(run.batchesStarted).toBe(1);
    expect([...results.keys()].map((file) => path.basename(file))).toEqual(['b.js']);
    expect(results.get(files[1].filePath)?.messages).toHaveLength(1);
  });

  it('hands the batch to a process started ahead, and lets the one not needed exit without running oxlint', async () => {
    const engine = OxlintEngine.find();
    dir = mkdtempSync(path.join(tmpdir(), 'drainguard-oxlint-run-'));
    const records = path.join(dir, 'processes.jsonl');
    // Each process records its script at exit (test/support/report-process.cjs): oxlint's once the launcher ran it.
    const saved = { NODE_OPTIONS: process.env.NODE_OPTIONS, DRAINGUARD_PROCESS_FILE: process.env.DRAINGUARD_PROCESS_FILE };
    process.env.NODE_OPTIONS = `--require ${path.join(ROOT, 'test/support/report-process.cjs')}`;
    process.env.DRAINGUARD_PROCESS_FILE = records;
    try {
      const run = engine!.start(dir);
      run.prestart(2);
      const file = { filePath: path.join(dir, 'client.js'), text: EARLY_CANCEL_JS };
      writeFileSync(file.filePath, file.text);
      run.add(file);
      const { results } = await run.finish();
      expect(run.batchesStarted).toBe(1);
      expect(results.get(file.filePath)?.messages).toHaveLength(1);
      for (let waited = 0; waited < 10_000 && (!existsSync(records) || readFileSync(records, 'utf8').trim().split('\n').length < 2); waited += 50) await sleep(50);
      const scripts = readFileSync(records, 'utf8')
        .trim()
        .split('\n')
        .map((line) => path.relative(ROOT, (JSON.parse(line) as { script: string }).script))
        .sort();
      expect(scripts).toEqual(['dist/oxlint-launcher.js', 'node_modules/oxlint/bin/oxlint']);
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});
