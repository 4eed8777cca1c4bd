// rules/fix/helper-binding.ts: the word look-up a new helper's name is checked against.
import { describe, expect, it } from 'vitest';
import { containsWord, helperWordsIn } from '../../../rules/fix/helper-binding.js';

describe('containsWord', () => {
  it('finds a word standing alone, at either end of the text', () => {
    expect(containsWord('drainChunks(reader)', 'drainChunks')).toBe(true);
    expect(containsWord('await drainChunks', 'drainChunks')).toBe(true);
    expect(containsWord('x = $drain + 1', '$drain')).toBe(true);
  });

  it('does not find it inside a longer identifier, even when it occurs there first', () => {
    expect(containsWord('myDrainChunks(); drainChunks2()', 'drainChunks')).toBe(false);
    expect(containsWord('$drainChunks; drainChunks$', 'drainChunks')).toBe(false);
    expect(containsWord('_drainChunks; drainChunks_x; (drainChunks)', 'drainChunks')).toBe(true);
  });

  it('treats a dot or a quote as a boundary', () => {
    expect(containsWord('obj.drainChunks', 'drainChunks')).toBe(true);
    expect(containsWord("'drainChunks'", 'drainChunks')).toBe(true);
    expect(containsWord('', 'drainChunks')).toBe(false);
  });
});

describe('helperWordsIn', () => {
  it('finds every helper name, with any numeric suffix, where it stands alone', () => {
    const text = 'chunkSize(x); drainReader2(r); const drainable = 1; obj.tapBody; "closeOnce3"; drainableBody';
    expect([...helperWordsIn(text)].sort()).toEqual(['chunkSize', 'closeOnce3', 'drainReader2', 'drainable', 'drainableBody', 'tapBody']);
  });

  it('does not find one inside a longer identifier, as containsWord', () => {
    const text = 'myChunkSize; chunkSize2x; $drainable; drainable_; drainReaderX; xLoopItem';
    expect([...helperWordsIn(text)]).toEqual([]);
    for (const word of ['chunkSize', 'chunkSize2', 'drainable', 'drainReader', 'LoopItem']) expect(containsWord(text, word)).toBe(false);
  });
});
