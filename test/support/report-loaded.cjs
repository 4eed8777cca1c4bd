// Preloaded with NODE_OPTIONS=--require: at exit, writes the CommonJS packages the process loaded
// (from require.cache, which also holds packages an ES module imported) to $DRAINGUARD_LOADED_FILE.
const { writeFileSync } = require('node:fs');

process.on('exit', () => {
  const packages = new Set();
  for (const file of Object.keys(require.cache)) {
    const match = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(file.slice(file.lastIndexOf('node_modules')));
    if (match) packages.add(match[1].replace(/\\/g, '/'));
  }
  writeFileSync(process.env.DRAINGUARD_LOADED_FILE, JSON.stringify([...packages].sort()));
});
