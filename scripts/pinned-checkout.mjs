// A repository at a pinned commit, for the runs on real Python SDKs (`npm run corpus:python`, `npm run
// sdk-suites:python`, `npm run bench:python-lint`): cloned once from its public GitHub URL into a cache folder outside
// this repository (never committed), or from DRAINGUARD_SDK_MIRRORS=DIR (DIR/<owner>+<name>/repo, a directory of git
// mirrors), then put back at the commit, pristine, on every run.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';

const git = (args, cwd) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/**
 * `cache/<name>` holding `repo` (`owner/name`) at `commit`, and its path. `sparse`: the only paths checked out (git's
 * `sparse-checkout --no-cone` patterns); without it, the whole tree. `say` hears that a clone starts.
 */
export function checkoutPinned({ name, repo, commit }, cache, { sparse, say = (line) => process.stderr.write(`${line}\n`) } = {}) {
  const dir = path.join(cache, name);
  const mirrors = process.env.DRAINGUARD_SDK_MIRRORS;
  const source = mirrors ? path.join(mirrors, repo.replace('/', '+'), 'repo') : `https://github.com/${repo}.git`;
  if (!existsSync(path.join(dir, '.git'))) {
    mkdirSync(cache, { recursive: true });
    say(`${name}: cloning ${source}`);
    execFileSync('git', ['clone', '--quiet', '--no-checkout', source, dir], { stdio: 'inherit' });
  }
  if (sparse) git(['sparse-checkout', 'set', '--no-cone', ...sparse], dir);
  try {
    git(['cat-file', '-e', `${commit}^{commit}`], dir);
  } catch {
    git(['fetch', '--quiet', 'origin', commit], dir);
  }
  git(['checkout', '--quiet', '--force', '--detach', commit], dir);
  git(['clean', '--quiet', '-fdx'], dir);
  return dir;
}
