// No tracked file names a path of a build machine or a tool of the place it was built on: the repository is
// reproduced from public URLs at pinned commits (scripts take an environment variable for a local mirror).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
// Built from pieces so that this file does not match itself.
const FORBIDDEN = new RegExp(['/wo' + 'rk/', '/ro' + 'ot/', '/ho' + 'me/[a-z]', '\\.mir' + 'ror/', 'search ' + 'tool', 'far' + 'm-(?:bench|studio)'].join('|'), 'g');

describe('tracked files', () => {
  it('name no path of a build machine and no internal tool', () => {
    const files = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
    const found: string[] = [];
    for (const file of files) {
      let text: string;
      try {
        text = readFileSync(`${ROOT}/${file}`, 'utf8');
      } catch {
        continue;
      }
      if (text.includes('\0')) continue;
      for (const [index, line] of text.split('\n').entries()) {
        for (const match of line.matchAll(FORBIDDEN)) found.push(`${file}:${index + 1}: ${match[0]}`);
      }
    }
    expect(found).toEqual([]);
  });
});
