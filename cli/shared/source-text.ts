// Reading a source file for `lint` and `fix`: its text, or why it cannot be checked. No file ends a run: a file that
// cannot be read, is too large, binary, or not UTF-8 is reported as such, and the other files are linted as usual.
import { isUtf8 } from 'node:buffer';
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { getHeapStatistics } from 'node:v8';
import { errorCode } from './errors.js';
import { lineStartsOf, positionAt } from './line-starts.js';

/**
 * Files larger than this are not read (`DRAINGUARD_MAX_FILE_BYTES` sets it): a run that runs out of memory loses every
 * result. The limit keeps the largest bundles found in packages (TypeScript's typescript.js among them).
 */
export const DEFAULT_MAX_FILE_BYTES = 16 * 1024 * 1024;

/**
 * The JavaScript heap one byte of a file's text can take while it is linted, found by linting the largest bundles
 * under smaller and smaller heaps (`--max-old-space-size`). Where Node's heap is small (a container with little
 * memory), the limit is this fraction of it, not DEFAULT_MAX_FILE_BYTES.
 */
const HEAP_BYTES_PER_TEXT_BYTE = 128;

/** How far into a file a NUL byte makes it binary: git's test (`buffer_is_binary`, the first 8,000 bytes). */
const BINARY_PROBE_BYTES = 8000;

export type SourceProblemKind = 'unreadable' | 'too-large' | 'binary' | 'not-utf8';

export interface SourceProblem {
  kind: SourceProblemKind;
  /** Why, in words (`not UTF-8 text (byte 0xE9 is not valid UTF-8)`). */
  reason: string;
  /** Where (1-based line, 1-based column in UTF-16 units), when the reason is at one place in the file; else 0. */
  line: number;
  column: number;
}

/**
 * A file's text, or why it cannot be checked. `text` is there for a binary or non-UTF-8 file too (invalid bytes
 * decoded as U+FFFD), so that the pre-filter can still rule it out as a file that holds no close; it is absent for a
 * file that could not be read or is too large.
 */
export type SourceText = { text: string; problem?: SourceProblem } | { text?: undefined; problem: SourceProblem };

/**
 * The size limit in force: `DRAINGUARD_MAX_FILE_BYTES` (a whole number of bytes), else 16 MiB, or a 128th of the heap
 * Node may use where that is less (under 2 GiB of heap).
 */
export function maxFileBytes(env: NodeJS.ProcessEnv = process.env, heapLimit = getHeapStatistics().heap_size_limit): number {
  const fromEnv = env.DRAINGUARD_MAX_FILE_BYTES;
  if (fromEnv && /^\d+$/.test(fromEnv) && Number(fromEnv) > 0) return Number(fromEnv);
  return Math.min(DEFAULT_MAX_FILE_BYTES, Math.floor(heapLimit / HEAP_BYTES_PER_TEXT_BYTE));
}

/** Reads `filePath` as UTF-8 source text (one open, one read), or says why it cannot be checked. */
export function readSourceText(filePath: string, limit = maxFileBytes()): SourceText {
  let bytes: Buffer;
  let fd: number | undefined;
  try {
    fd = openSync(filePath, 'r');
    const { size } = fstatSync(fd);
    if (size > limit) return { problem: { kind: 'too-large', reason: tooLarge(size, limit), line: 0, column: 0 } };
    bytes = readFileSync(fd);
  } catch (error) {
    return { problem: { kind: 'unreadable', reason: readError(error), line: 0, column: 0 } };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  // A file that grew past the limit between the stat and the read.
  if (bytes.length > limit) return { problem: { kind: 'too-large', reason: tooLarge(bytes.length, limit), line: 0, column: 0 } };
  const problem = encodingProblem(bytes);
  return problem ? { text: lossyText(bytes), problem } : { text: bytes.toString('utf8') };
}

/** The text of bytes that are not UTF-8, for the pre-filter: UTF-16 decoded as such, anything else as UTF-8 with U+FFFD for invalid bytes. */
function lossyText(bytes: Buffer): string {
  const bom = utf16ByteOrderMark(bytes);
  if (bom === undefined) return bytes.toString('utf8');
  return new TextDecoder(bom === 'FF FE' ? 'utf-16le' : 'utf-16be').decode(bytes);
}

/** Why a file's bytes are not UTF-8 source text, or undefined when they are. */
export function encodingProblem(bytes: Buffer): SourceProblem | undefined {
  const bom = utf16ByteOrderMark(bytes);
  if (bom) return { kind: 'not-utf8', reason: `UTF-16 text (byte order mark ${bom}), not UTF-8`, line: 1, column: 1 };
  const nul = bytes.subarray(0, BINARY_PROBE_BYTES).indexOf(0);
  if (nul !== -1) return { kind: 'binary', reason: 'a binary file (it holds a NUL byte)', ...placeOf(bytes, nul) };
  if (isUtf8(bytes)) return undefined;
  const invalid = firstInvalidUtf8Byte(bytes);
  const byte = bytes[invalid].toString(16).toUpperCase().padStart(2, '0');
  return { kind: 'not-utf8', reason: `not UTF-8 text (byte 0x${byte} is not valid UTF-8)`, ...placeOf(bytes, invalid) };
}

function utf16ByteOrderMark(bytes: Buffer): string | undefined {
  if (bytes.length < 2) return undefined;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'FF FE';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'FE FF';
  return undefined;
}

/** The line and column (1-based, UTF-16 units, ESLint's line breaks) of a byte offset whose prefix is valid UTF-8. */
function placeOf(bytes: Buffer, offset: number): { line: number; column: number } {
  const before = bytes.subarray(0, offset).toString('utf8');
  const { line, column } = positionAt(lineStartsOf(before), before.length);
  return { line, column: column + 1 };
}

/**
 * The offset of the first byte that is not part of a well-formed UTF-8 sequence (RFC 3629: no overlong forms, no
 * surrogates, nothing above U+10FFFF), or `bytes.length` when there is none. Only called on text isUtf8 rejected.
 */
export function firstInvalidUtf8Byte(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i];
    if (lead < 0x80) {
      i++;
      continue;
    }
    let length: number;
    let low = 0x80;
    let high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) length = 2;
    else if (lead >= 0xe0 && lead <= 0xef) {
      length = 3;
      if (lead === 0xe0) low = 0xa0;
      if (lead === 0xed) high = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      length = 4;
      if (lead === 0xf0) low = 0x90;
      if (lead === 0xf4) high = 0x8f;
    } else return i;
    for (let k = 1; k < length; k++) {
      const next = bytes[i + k];
      // The first continuation byte has the narrower range; a sequence cut short is invalid at its lead byte.
      if (next === undefined || next < (k === 1 ? low : 0x80) || next > (k === 1 ? high : 0xbf)) return i;
    }
    i += length;
  }
  return i;
}

function tooLarge(size: number, limit: number): string {
  const why = limit < DEFAULT_MAX_FILE_BYTES && !process.env.DRAINGUARD_MAX_FILE_BYTES ? "lowered by Node's small heap limit; " : '';
  return `${mebibytes(size)}, over the ${mebibytes(limit)} limit for one file (${why}DRAINGUARD_MAX_FILE_BYTES sets it)`;
}

function mebibytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${bytes} bytes`;
  const value = bytes / (1024 * 1024);
  return `${value >= 10 || Number.isInteger(value) ? Math.round(value) : value.toFixed(1)} MiB`;
}

function readError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = errorCode(error);
  return code && !message.startsWith(code) ? `${code}: ${message}` : message;
}

/** The message a file gets in lint output: `Cannot read file: …` or `File not checked: …`. */
export function problemMessage(problem: SourceProblem): string {
  return problem.kind === 'unreadable' ? `Cannot read file: ${problem.reason}` : `File not checked: ${problem.reason}`;
}

/** The same, one line for `fix`'s report: `cannot read: …` or `not checked: … at line 3, column 7`. */
export function problemLine(problem: SourceProblem): string {
  const at = problem.line > 0 ? ` at line ${problem.line}, column ${problem.column}` : '';
  return `${problem.kind === 'unreadable' ? 'cannot read' : 'not checked'}: ${problem.reason}${at}`;
}
