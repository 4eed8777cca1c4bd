// The per-extension parser choices live in rules/parser-options.ts (cli/ and codemods/ both use them).
export * from '../rules/parser-options.js';
