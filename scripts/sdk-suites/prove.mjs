// `drainguard prove` on an SDK's streaming call (issue 20: the proof a maintainer pastes into a pull
// request): every server mode, --calls calls each, through the SDK bundled from its source. Returns
// the report prove prints with --json (report.mjs makes its table, original → rewrite), null for a
// probe prove cannot serve (two peers), or { error }.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROBES } from './probe-calls.mjs';
import { proveScript } from './prove-script.mjs';
import { run } from './run.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/**
 * @param {{ cli: string, node: string, sdkName: string, bundle: string, calls: number, scriptDir: string }} options
 */
export async function proveSdk({ cli, node, sdkName, bundle, calls, scriptDir }) {
  const script = proveScript(PROBES[sdkName]);
  if (!script) return null;
  const cwd = HERE;
  const scriptFile = path.join(scriptDir, `prove-script-${sdkName}.json`);
  writeFileSync(scriptFile, `${JSON.stringify(script, null, 2)}\n`);
  const command = [node, 'prove-calls.mjs', sdkName, bundle];
  const common = [cli, 'prove', '--calls', String(calls), '--script', scriptFile];
  const timeoutMs = 6 * (20_000 + 5_000);
  const json = await run(process.execPath, [...common, '--json', '--', ...command], { cwd, timeoutMs });
  if (json.timedOut) return { error: `drainguard prove did not finish within ${timeoutMs} ms` };
  let report;
  try {
    report = JSON.parse(json.stdout);
  } catch {
    return { error: `drainguard prove exited ${json.code}: ${(json.stderr || json.stdout).slice(0, 2000)}` };
  }
  return { exitCode: json.code, report };
}
