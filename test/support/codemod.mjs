// Apply drainguard's jscodeshift transform (the built dist/codemod.cjs) to a client file the way
// jscodeshift's runner does, write the result to a temp directory and hand back its path, so a bench
// or a test can import the rewritten client. Plain ESM with a .d.mts beside it.
import { createRequire } from 'node:module';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const DIST_CODEMOD = join(ROOT, 'dist', 'codemod.cjs');

/** @param {string} dir @returns {number} newest mtime (ms) of the .ts/.cts/.mts files under dir */
function newestSource(dir) {
  let newest = 0;
  if (!existsSync(dir)) return newest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(p));
    else if (/\.[cm]?ts$/.test(entry.name) && !entry.name.endsWith('.d.ts')) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

/**
 * Build dist/ (`node scripts/build.mjs`) when dist/codemod.cjs is missing or older than the sources
 * it is built from (codemods/, rules/). Returns a line saying what it did, or undefined.
 * @returns {string | undefined}
 */
export function ensureCodemodBuilt() {
  const built = existsSync(DIST_CODEMOD) ? statSync(DIST_CODEMOD).mtimeMs : -1;
  const sources = Math.max(newestSource(join(ROOT, 'codemods')), newestSource(join(ROOT, 'rules')));
  if (built >= sources) return undefined;
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  return built < 0 ? 'built dist/ (dist/codemod.cjs was missing)' : 'rebuilt dist/ (dist/codemod.cjs was older than its sources)';
}

/**
 * Run the transform on one file. Never throws for a transform failure: it is returned as `reason`.
 * @param {string} sourcePath
 * @param {import('./codemod.d.mts').ApplyCodemodOptions} [options]
 * @returns {Promise<import('./codemod.d.mts').CodemodResult>}
 */
export async function applyCodemod(sourcePath, options = {}) {
  const { codemodPath = DIST_CODEMOD, transformOptions = { drainTimeoutMs: 1000 }, outDir } = options;
  const source = readFileSync(sourcePath, 'utf8');
  /** @type {string[]} */
  const reports = [];
  if (!existsSync(codemodPath)) {
    return { changed: false, source, reports, reason: `${codemodPath} does not exist (run npm run build)` };
  }
  let transform;
  /** @type {string} */
  let parser = 'babel';
  try {
    delete require.cache[require.resolve(codemodPath)];
    const mod = require(codemodPath);
    transform = typeof mod === 'function' ? mod : mod?.default;
    if (typeof mod?.parser === 'string') parser = mod.parser;
    else if (typeof transform?.parser === 'string') parser = transform.parser;
  } catch (err) {
    return { changed: false, source, reports, reason: `cannot load ${codemodPath}: ${String(err)}` };
  }
  if (typeof transform !== 'function') {
    return { changed: false, source, reports, reason: `${codemodPath} exports no transform function` };
  }
  const jscodeshift = require('jscodeshift');
  const j = jscodeshift.withParser(parser);
  const api = {
    jscodeshift: j,
    j,
    stats: () => {},
    report: (/** @type {string} */ message) => {
      reports.push(String(message));
    },
  };
  let output;
  try {
    output = await transform({ path: sourcePath, source }, api, transformOptions);
  } catch (err) {
    return { changed: false, source, reports, reason: `the transform threw: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (output === undefined || output === null || output === '' || output === source) {
    return {
      changed: false,
      source,
      reports,
      reason: `the transform changed nothing in ${basename(sourcePath)}${reports.length ? ` (${reports.join('; ')})` : ''}`,
    };
  }
  if (typeof output !== 'string') {
    return { changed: false, source, reports, reason: `the transform returned a ${typeof output}, not a string` };
  }
  const dir = outDir ?? mkdtempSync(join(tmpdir(), 'drainguard-fixed-'));
  const outPath = join(dir, basename(sourcePath).replace(/(\.[cm]?[jt]s)$/, '.fixed$1'));
  writeFileSync(outPath, output);
  return { changed: true, source, output, outPath, reports };
}
