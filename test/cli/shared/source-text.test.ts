// cli/shared/source-text.ts: what makes a file one drainguard cannot check, and where; the size limit in force.
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_FILE_BYTES, encodingProblem, firstInvalidUtf8Byte, maxFileBytes } from '../../../cli/shared/source-text.js';

const bytes = (...values: number[]) => Buffer.from(values);

describe('firstInvalidUtf8Byte', () => {
  it.each([
    ['a lone continuation byte', bytes(0x61, 0x80, 0x61), 1],
    ['latin-1 é', bytes(0x63, 0x61, 0x66, 0xe9), 3],
    ['an overlong two-byte form (C0 80)', bytes(0xc0, 0x80), 0],
    ['an overlong three-byte form (E0 80 80)', bytes(0x61, 0xe0, 0x80, 0x80), 1],
    ['a UTF-16 surrogate (ED A0 80)', bytes(0xed, 0xa0, 0x80), 0],
    ['above U+10FFFF (F4 90 80 80)', bytes(0xf4, 0x90, 0x80, 0x80), 0],
    ['a sequence cut short at the end', bytes(0x61, 0xe2, 0x82), 1],
    ['F5 and above', bytes(0xf5, 0x80, 0x80, 0x80), 0],
  ])('%s', (_, input, offset) => {
    expect(firstInvalidUtf8Byte(input)).toBe(offset);
  });

  it('passes over valid sequences of every length (é, €, 🚀) to the first invalid byte', () => {
    const valid = Buffer.from('é€🚀');
    expect(firstInvalidUtf8Byte(Buffer.concat([valid, bytes(0xff)]))).toBe(valid.length);
    expect(firstInvalidUtf8Byte(valid)).toBe(valid.length);
  });
});

describe('encodingProblem', () => {
  it('is none for UTF-8, with or without a byte order mark', () => {
    expect(encodingProblem(Buffer.from('const é = "🚀";\n'))).toBeUndefined();
    expect(encodingProblem(Buffer.from('\uFEFFconst a = 1;\n'))).toBeUndefined();
  });

  it('places an invalid byte at its line and column, in UTF-16 units after valid multi-byte characters', () => {
    // Line 2 is `🚀 é` with the é in latin-1: 🚀 is 2 UTF-16 units, then a space, so the byte is at column 4.
    const text = Buffer.concat([Buffer.from('ok\r\n🚀 '), bytes(0xe9), Buffer.from('\n')]);
    expect(encodingProblem(text)).toEqual({ kind: 'not-utf8', reason: 'not UTF-8 text (byte 0xE9 is not valid UTF-8)', line: 2, column: 4 });
  });

  it('calls a NUL byte in the first 8,000 bytes binary (git’s test), and one after them not', () => {
    expect(encodingProblem(Buffer.from('a\nbc\0'))).toEqual({ kind: 'binary', reason: 'a binary file (it holds a NUL byte)', line: 2, column: 3 });
    expect(encodingProblem(Buffer.from(`${'x'.repeat(8000)}\0`))).toBeUndefined();
  });

  it('names UTF-16 by its byte order mark, little or big endian', () => {
    expect(encodingProblem(Buffer.from('\uFEFFa', 'utf16le'))?.reason).toBe('UTF-16 text (byte order mark FF FE), not UTF-8');
    expect(encodingProblem(Buffer.from('\uFEFFa', 'utf16le').swap16())?.reason).toBe('UTF-16 text (byte order mark FE FF), not UTF-8');
  });
});

describe('maxFileBytes', () => {
  const GiB = 1024 ** 3;
  it('is 16 MiB where Node may use 2 GiB of heap or more', () => {
    expect(DEFAULT_MAX_FILE_BYTES).toBe(16 * 1024 * 1024);
    expect(maxFileBytes({}, 4.3 * GiB)).toBe(DEFAULT_MAX_FILE_BYTES);
    expect(maxFileBytes({}, 2 * GiB)).toBe(DEFAULT_MAX_FILE_BYTES);
  });

  it('is a 128th of a smaller heap (a 9 MB bundle needs more than 700 MB of heap)', () => {
    expect(maxFileBytes({}, 1024 * 1024 * 1024)).toBe(8 * 1024 * 1024);
    expect(maxFileBytes({}, 784_334_848)).toBe(6_127_616);
  });

  it('is what DRAINGUARD_MAX_FILE_BYTES says, when that is a whole number above 0', () => {
    expect(maxFileBytes({ DRAINGUARD_MAX_FILE_BYTES: '1000' }, 4.3 * GiB)).toBe(1000);
    expect(maxFileBytes({ DRAINGUARD_MAX_FILE_BYTES: '100000000' }, 0.5 * GiB)).toBe(100_000_000);
    expect(maxFileBytes({ DRAINGUARD_MAX_FILE_BYTES: '16M' }, 4.3 * GiB)).toBe(DEFAULT_MAX_FILE_BYTES);
    expect(maxFileBytes({ DRAINGUARD_MAX_FILE_BYTES: '0' }, 4.3 * GiB)).toBe(DEFAULT_MAX_FILE_BYTES);
  });
});
