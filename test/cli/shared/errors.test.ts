// cli/shared/errors.ts: the code of a Node error, read without a cast.
import { describe, expect, it } from 'vitest';
import { errorCode } from '../../../cli/shared/errors.js';

describe('errorCode', () => {
  it('gives the code of an error that has one, and nothing for anything else', () => {
    expect(errorCode(Object.assign(new Error('no such file'), { code: 'ENOENT' }))).toBe('ENOENT');
    expect(errorCode({ code: 'EADDRINUSE' })).toBe('EADDRINUSE');
    expect(errorCode(new Error('plain'))).toBeUndefined();
    expect(errorCode({ code: 42 })).toBeUndefined();
    expect(errorCode('ENOENT')).toBeUndefined();
    expect(errorCode(null)).toBeUndefined();
  });
});
