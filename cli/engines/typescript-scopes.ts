// typescript-eslint's scope manager and visitor keys, in a chunk of their own (bundled):
// only TypeScript files need them (cli/engines/native-parser.ts).
export { analyze } from '@typescript-eslint/scope-manager';
export { visitorKeys } from '@typescript-eslint/visitor-keys';
