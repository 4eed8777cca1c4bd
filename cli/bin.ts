// The command line's entry: the compile cache is on before the CLI's own modules load (they are imported after it).
import { enableCompileCache } from './shared/compile-cache.js';
import { catchStopSignals } from './serve/stop-signals.js';

enableCompileCache();
// `drainguard serve` exits 0 on SIGINT or SIGTERM: caught from here on, before the rest of the CLI loads.
if (process.argv[2] === 'serve') void catchStopSignals();
await import('./main.js');
