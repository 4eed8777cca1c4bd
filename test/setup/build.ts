import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Tests run the built package (dist/) as users do; rebuild it once per run so it matches the sources. */
export default function setup(): void {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
}
