// The command line's entry: the compile cache is on before the CLI's own modules load (they are imported after it).
import { enableCompileCache } from './compile-cache.js';

enableCompileCache();
await import('./main.js');
