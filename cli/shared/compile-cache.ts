import nodeModule from 'node:module';

/**
 * Keeps V8's compiled code of the modules loaded after this call on disk (Node's own cache, in the OS temp folder;
 * NODE_DISABLE_COMPILE_CACHE=1 turns it off), as ESLint's and TypeScript's command lines do: a short run spends
 * much of its time compiling ESLint and the plugin (docs/engines.md has the runs). A no-op on Node 20.
 */
export function enableCompileCache(): void {
  // Node >= 22.1; this project's @types/node (Node 20) does not declare it.
  const enable: unknown = Reflect.get(nodeModule, 'enableCompileCache');
  if (typeof enable === 'function') enable.call(nodeModule);
}
