import { execFileSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DECLARATION_TS, EARLY_CANCEL_JS, EARLY_CANCEL_TS } from '../../../cli/sources.js';
import { RULE_ID, parseJson, runCli, tempProject } from '../../../cli/helpers.js';

function lintedFiles(stdout: string, dir: string): string[] {
  return (JSON.parse(stdout) as { filePath: string }[]).map((result) => path.relative(dir, result.filePath).split(path.sep).join('/'));
}

describe('drainguard lint file walking', () => {
  it('walks every lintable extension from . by default, and no other file', async () => {
    const sources: Record<string, string> = {};
    for (const ext of ['js', 'jsx', 'mjs', 'ts', 'tsx', 'mts', 'cts']) sources[`src/stream.${ext}`] = EARLY_CANCEL_JS;
    sources['src/stream.cjs'] = EARLY_CANCEL_JS.replace('export async function', 'module.exports = async function');
    const dir = tempProject({ ...sources, 'src/notes.md': EARLY_CANCEL_JS, 'src/data.json': '{}' });
    const run = await runCli(['lint', '--format', 'json'], dir);
    expect(run.code).toBe(1);
    expect(lintedFiles(run.stdout, dir)).toEqual(
      ['cjs', 'js', 'jsx', 'mjs', 'mts', 'ts', 'tsx', 'cts'].map((ext) => `src/stream.${ext}`).sort(),
    );
    for (const result of parseJson(run)) expect(result.messages.map((message) => message.ruleId)).toEqual([RULE_ID]);
  });

  it('skips node_modules and .git while walking, but lints a file named explicitly inside node_modules', async () => {
    const dir = tempProject({
      'src/app.js': EARLY_CANCEL_JS,
      'node_modules/sdk/stream.js': EARLY_CANCEL_JS,
      'src/node_modules/nested/stream.js': EARLY_CANCEL_JS,
      '.git/hooks/stream.js': EARLY_CANCEL_JS,
    });
    const walked = await runCli(['lint', '--format', 'json'], dir);
    expect(lintedFiles(walked.stdout, dir)).toEqual(['src/app.js']);

    const named = await runCli(['lint', '--format', 'json', 'node_modules/sdk/stream.js'], dir);
    expect(named.code).toBe(1);
    expect(lintedFiles(named.stdout, dir)).toEqual(['node_modules/sdk/stream.js']);
    expect(parseJson(named)[0].messages).toHaveLength(1);
  });

  it('walks dot directories, takes extensions in the case listed, and neither follows nor lists symbolic links', async () => {
    const dir = tempProject({
      '.config/stream.js': EARLY_CANCEL_JS,
      'src/UPPER.JS': EARLY_CANCEL_JS,
      'src/.js': EARLY_CANCEL_JS,
      'lib/stream.ts': EARLY_CANCEL_JS,
    });
    symlinkSync(path.join(dir, 'lib/stream.ts'), path.join(dir, 'src/linked.ts'));
    symlinkSync(path.join(dir, 'lib'), path.join(dir, 'src/linked-dir'));
    const walked = await runCli(['lint', '--format', 'json'], dir);
    expect(lintedFiles(walked.stdout, dir)).toEqual(['.config/stream.js', 'lib/stream.ts', 'src/.js']);
  });

  it('walks a directory named explicitly inside node_modules', async () => {
    const dir = tempProject({ 'node_modules/sdk/lib/stream.js': EARLY_CANCEL_JS, 'node_modules/sdk/index.js': EARLY_CANCEL_JS });
    const run = await runCli(['lint', '--format', 'json', 'node_modules/sdk'], dir);
    expect(run.code).toBe(1);
    expect(lintedFiles(run.stdout, dir)).toEqual(['node_modules/sdk/index.js', 'node_modules/sdk/lib/stream.js']);
  });

  it('skips declaration files while walking, but lints one named explicitly', async () => {
    const dir = tempProject({ 'src/stream.ts': EARLY_CANCEL_TS, 'src/types.d.ts': DECLARATION_TS, 'src/esm.d.mts': DECLARATION_TS, 'src/cjs.d.cts': DECLARATION_TS });
    const walked = await runCli(['lint', '--format', 'json', 'src'], dir);
    expect(lintedFiles(walked.stdout, dir)).toEqual(['src/stream.ts']);
    const named = await runCli(['lint', '--format', 'json', 'src/types.d.ts'], dir);
    expect(named.code).toBe(0);
    expect(lintedFiles(named.stdout, dir)).toEqual(['src/types.d.ts']);
  });

  it('skips git-ignored files while walking, keeps tracked and untracked ones, and lints an ignored file named explicitly', async () => {
    const dir = tempProject({
      '.gitignore': 'dist/\n*.generated.js\n',
      'src/tracked.js': EARLY_CANCEL_JS,
      'src/untracked.js': EARLY_CANCEL_JS,
      'src/client.generated.js': EARLY_CANCEL_JS,
      'dist/bundle.js': EARLY_CANCEL_JS,
    });
    const git = (...args: string[]): void => void execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir, stdio: 'ignore' });
    git('init', '-q');
    git('add', '.gitignore', 'src/tracked.js');
    git('commit', '-qm', 'init');

    const walked = await runCli(['lint', '--format', 'json'], dir);
    expect(lintedFiles(walked.stdout, dir)).toEqual(['src/tracked.js', 'src/untracked.js']);

    const fromSubdirectory = await runCli(['lint', '--format', 'json', '.'], path.join(dir, 'src'));
    expect(lintedFiles(fromSubdirectory.stdout, dir)).toEqual(['src/tracked.js', 'src/untracked.js']);

    const namedFile = await runCli(['lint', '--format', 'json', 'src/client.generated.js'], dir);
    expect(namedFile.code).toBe(1);
    expect(lintedFiles(namedFile.stdout, dir)).toEqual(['src/client.generated.js']);

    const namedDirectory = await runCli(['lint', '--format', 'json', 'dist'], dir);
    expect(namedDirectory.code).toBe(1);
    expect(lintedFiles(namedDirectory.stdout, dir)).toEqual(['dist/bundle.js']);
  });

  it('lints files outside the current directory and de-duplicates paths named twice', async () => {
    const dir = tempProject({ 'lib/stream.js': EARLY_CANCEL_JS, 'work/.keep': '' });
    const run = await runCli(['lint', '--format', 'json', '../lib', '../lib/stream.js'], path.join(dir, 'work'));
    expect(run.code).toBe(1);
    expect(lintedFiles(run.stdout, dir)).toEqual(['lib/stream.js']);
    expect(parseJson(run)[0].messages).toHaveLength(1);
  });

  it('warns about an explicitly named file it cannot lint and goes on', async () => {
    const dir = tempProject({ 'stream.js': EARLY_CANCEL_JS, 'notes.md': '# notes\n' });
    const run = await runCli(['lint', '--format', 'json', 'notes.md', 'stream.js'], dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('skipping notes.md');
    expect(lintedFiles(run.stdout, dir)).toEqual(['stream.js']);
  });
});
