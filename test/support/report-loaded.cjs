// Preloaded with NODE_OPTIONS=--require: at exit, writes the CommonJS packages the process loaded
// (from require.cache, which also holds packages an ES module imported) to $DRAINGUARD_LOADED_FILE,
// and, when $DRAINGUARD_LOADED_LOG is set, appends them to it as one JSON line with the process's script
// (an oxlint child inherits the preload: the log keeps each process's record).
const { appendFileSync, writeFileSync } = require('node:fs');

process.on('exit', () => {
  const packages = new Set();
  for (const file of Object.keys(require.cache)) {
    const match = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(file.slice(file.lastIndexOf('node_modules')));
    if (match) packages.add(match[1].replace(/\\/g, '/'));
  }
  const loaded = [...packages].sort();
  if (process.env.DRAINGUARD_LOADED_FILE) writeFileSync(process.env.DRAINGUARD_LOADED_FILE, JSON.stringify(loaded));
  if (process.env.DRAINGUARD_LOADED_LOG) appendFileSync(process.env.DRAINGUARD_LOADED_LOG, `${JSON.stringify({ script: process.argv[1], loaded })}\n`);
});
