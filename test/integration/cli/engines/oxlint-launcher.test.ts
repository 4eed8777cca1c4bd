/**
 * dist/oxlint-launcher.js (cli/engines/oxlint-launcher.ts), the process `drainguard lint` starts for oxlint before it knows the
 * files: given its request on stdin it runs oxlint's command line (oxlint's own JSON report and exit code); with stdin
 * closed and no request it exits at once, having run nothing. (The request for a size of text, in process:
 * test/cli/engines/oxlint-launcher.test.ts.)
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { oxlintRequest } from '../../../../cli/engines/oxlint-process.js';
import { EARLY_CANCEL_JS, EARLY_CANCEL_POSITION } from '../../../cli/sources.js';
import { ROOT, RULE_ID, tempProject } from '../../../cli/helpers.js';

const LAUNCHER = path.join(ROOT, 'dist/oxlint-launcher.js');
const OXLINT_BIN = path.join(ROOT, 'node_modules/oxlint/bin/oxlint');
const PLUGIN = path.join(ROOT, 'dist/oxlint-plugin.js');

function launch(dir: string, input: string): { status: number | null; stdout: string } {
  const run = spawnSync(process.execPath, [LAUNCHER, OXLINT_BIN, PLUGIN], { cwd: dir, input, encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout };
}

describe('the oxlint launcher', () => {
  it("runs oxlint with the arguments it is sent: oxlint's report and exit code", () => {
    const dir = tempProject({ 'client.js': EARLY_CANCEL_JS, 'plain.js': 'export const answer = 42;\n' });
    writeFileSync(path.join(dir, 'oxlintrc.json'), JSON.stringify({ plugins: [], categories: { correctness: 'off' }, jsPlugins: [PLUGIN], rules: { [RULE_ID]: 'error' } }));
    // The request a small batch gets: oxlint takes its single parser thread.
    const request = oxlintRequest('oxlintrc.json', ['client.js', 'plain.js'], EARLY_CANCEL_JS.length);
    expect(request).toEqual({ args: ['-c', 'oxlintrc.json', '--format', 'json', '--no-ignore', '--disable-nested-config', '--threads=1', 'client.js', 'plain.js'], optimize: false });
    const { status, stdout } = launch(dir, JSON.stringify(request));
    expect(status).toBe(1);
    const report = JSON.parse(stdout) as { diagnostics: { filename: string; code: string; labels: { span: { line: number; column: number } }[] }[]; number_of_files: number };
    expect(report.number_of_files).toBe(2);
    expect(report.diagnostics.map((d) => ({ filename: d.filename, code: d.code, line: d.labels[0].span.line, column: d.labels[0].span.column }))).toEqual([
      { filename: 'client.js', code: 'drainguard(no-early-stream-close)', line: EARLY_CANCEL_POSITION.line, column: EARLY_CANCEL_POSITION.column },
    ]);
  });

  it('exits at once, with no output, when stdin closes without a request (a process that was not needed)', () => {
    expect(launch(tempProject(), '')).toEqual({ status: 0, stdout: '' });
  });
});
