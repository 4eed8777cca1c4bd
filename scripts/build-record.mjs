// What the last `node scripts/build.mjs` read and wrote, so that a test run can skip a build that would change nothing
// (test/setup/build.ts). The record names every input esbuild read (its metafile: the sources, and the packages bundled
// into the CLI), the files that decide what it reads (the build script, the manifest, the lockfile, tsconfig.json) and
// every output, each with the SHA-256 of its content. dist/ is fresh when every one of them still has that content:
// an edited source, a file the build no longer writes or one changed since (another build, a hand edit) makes it stale.
// The record lives in node_modules/.cache/, outside dist/ (which is published) and outside git.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The files besides esbuild's inputs whose content decides what a build writes. */
export const BUILD_CONFIG_FILES = ['scripts/build.mjs', 'scripts/build-record.mjs', 'package.json', 'package-lock.json', 'tsconfig.json'];

/** @param {string} root */
export function buildRecordPath(root) {
  return path.join(root, 'node_modules', '.cache', 'drainguard-build.json');
}

/**
 * SHA-256 of each file, by path relative to `root`; null for a file that cannot be read.
 * @param {string} root
 * @param {Iterable<string>} files
 * @returns {Record<string, string | null>}
 */
function contentHashes(root, files) {
  /** @type {Record<string, string | null>} */
  const hashes = {};
  for (const file of [...new Set(files)].sort()) {
    try {
      hashes[file] = createHash('sha256').update(readFileSync(path.join(root, file))).digest('hex');
    } catch {
      hashes[file] = null;
    }
  }
  return hashes;
}

/**
 * Records a build: `inputs` and `outputs` are paths relative to `root` (esbuild's metafile keys, and the files copied).
 * @param {string} root
 * @param {Iterable<string>} inputs
 * @param {Iterable<string>} outputs
 */
export function writeBuildRecord(root, inputs, outputs) {
  const record = { inputs: contentHashes(root, [...inputs, ...BUILD_CONFIG_FILES]), outputs: contentHashes(root, outputs) };
  mkdirSync(path.dirname(buildRecordPath(root)), { recursive: true });
  writeFileSync(buildRecordPath(root), `${JSON.stringify(record, null, 1)}\n`);
}

/**
 * Whether dist/ is what a build of the sources as they are now would write: a record exists, and every input and
 * output it names has the content it had then. Any doubt (no record, an unreadable file) says no.
 * @param {string} root
 * @returns {boolean}
 */
export function isBuildFresh(root) {
  /** @type {{ inputs: Record<string, string | null>, outputs: Record<string, string | null> }} */
  let record;
  try {
    record = JSON.parse(readFileSync(buildRecordPath(root), 'utf8'));
  } catch {
    return false;
  }
  if (!record?.inputs || !record?.outputs || Object.keys(record.outputs).length === 0) return false;
  for (const recorded of [record.inputs, record.outputs]) {
    const now = contentHashes(root, Object.keys(recorded));
    for (const [file, hash] of Object.entries(recorded)) if (hash === null || now[file] !== hash) return false;
  }
  return true;
}
