// Preloaded with NODE_OPTIONS=--require by bench/robustness.mjs: at exit, appends the process's peak resident memory
// (getrusage's ru_maxrss, in KB) and its script to $DRAINGUARD_RSS_LOG, one JSON line per process. The oxlint processes
// `drainguard lint` starts inherit NODE_OPTIONS, so each of them leaves its own line.
const { appendFileSync } = require('node:fs');

process.on('exit', () => {
  if (!process.env.DRAINGUARD_RSS_LOG) return;
  const record = { pid: process.pid, ppid: process.ppid, script: process.argv[1], maxRssKb: process.resourceUsage().maxRSS };
  appendFileSync(process.env.DRAINGUARD_RSS_LOG, `${JSON.stringify(record)}\n`);
});
