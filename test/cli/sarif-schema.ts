import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

type AddFormats = (ajv: Ajv) => Ajv;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ?? addFormatsModule) as unknown as AddFormats;

/**
 * A validator for the official SARIF 2.1.0 schema shipped by @microsoft/jest-sarif. The schema
 * is written for draft-04 (`id`, `$schema` draft-04); it uses no draft-04-only keyword
 * semantics, so it is compiled by Ajv's draft-07 engine with `id` renamed to `$id`.
 */
export function sarifValidator(): ValidateFunction {
  const require = createRequire(import.meta.url);
  const file = require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json');
  const { id, $schema: _draft04, ...schema } = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
  addFormats(ajv);
  return ajv.compile({ ...schema, $id: id as string });
}
