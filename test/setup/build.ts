import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { isBuildFresh } from '../../scripts/build-record.mjs';

/**
 * Tests run the built package (dist/) as users do: build it once per run so that it matches the sources, unless the
 * last build's record (scripts/build-record.mjs) shows that every file it read and wrote is as it was then.
 */
export default function setup(): void {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  if (isBuildFresh(root)) return;
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
}
