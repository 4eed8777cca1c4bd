/**
 * The oxlint process of `drainguard lint`, started before the CLI knows which files to hand it: meanwhile it loads
 * drainguard's plugin and oxlint's own modules (most of its start), while the CLI reads and tests the
 * rest of the files on the other core. Then it reads its request from stdin, one JSON object ({@link LaunchRequest}),
 * and runs oxlint's command line with those arguments, as `oxlint <args>` would (its JSON report on stdout, its exit
 * code). Stdin closed without a request: the process was not needed, and exits.
 *
 * Usage: node oxlint-launcher.js <oxlint bin> <plugin>
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { enableCompileCache } from '../shared/compile-cache.js';
import { allowOptimizingCompiler, deferOptimizingCompiler } from './v8-tiering.js';

export interface LaunchRequest {
  /** oxlint's arguments, files included (no command line to outgrow). */
  args: string[];
  /** Whether V8's optimizing compiler should run (see OXLINT_OPTIMIZE_FROM_BYTES). */
  optimize: boolean;
}

/**
 * What oxlint loads to run a JS plugin: its native binding and its plugin host, read from oxlint's package the way
 * its command line imports them (oxlint is pinned; if its files move, oxlint loads them itself, only later), and the
 * plugin, by the URL oxlint imports it with (the module is then not loaded twice).
 */
function warm(oxlintBin: string, pluginPath: string): Promise<unknown> {
  const dist = path.join(path.dirname(path.dirname(oxlintBin)), 'dist');
  const modules = [pluginPath, path.join(dist, 'bindings.js'), path.join(dist, 'plugins.js')];
  return Promise.allSettled(modules.map((module) => import(pathToFileURL(module).href)));
}

async function readStdin(): Promise<string> {
  let text = '';
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin) text += String(chunk);
  return text;
}

enableCompileCache();
deferOptimizingCompiler();
const [oxlintBin, pluginPath] = process.argv.slice(2);
const warming = warm(oxlintBin, pluginPath);
const request = await readStdin();
if (request) {
  const { args, optimize } = JSON.parse(request) as LaunchRequest;
  if (optimize) allowOptimizingCompiler();
  await warming;
  process.argv = [process.argv[0], oxlintBin, ...args];
  await import(pathToFileURL(oxlintBin).href);
}
