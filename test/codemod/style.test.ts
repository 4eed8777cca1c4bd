import { describe, expect, it } from 'vitest';
import { detectStyle, optionValues } from '../../rules/fix/style.js';

// What the emitted code is laid out by: the repository's formatter settings, else the file itself.
describe('formatter settings', () => {
  it('reads prettier, oxfmt (as code) and biome settings as they are written', () => {
    expect(optionValues('{ "printWidth": 100, "singleQuote": true, "semi": false, "trailingComma": "es5", "tabWidth": 4 }')).toEqual({
      width: 100,
      quote: "'",
      semi: false,
      trailingComma: false,
      unit: '    ',
    });
    expect(optionValues("module.exports = defineConfig({ ...ultracite, arrowParens: 'always', printWidth: 110, singleQuote: true, trailingComma: 'all' });")).toEqual({
      width: 110,
      quote: "'",
      trailingComma: true,
      arrowParens: true,
    });
    expect(optionValues('{ "formatter": { "indentStyle": "space", "indentWidth": 4, "lineWidth": 120 }, "javascript": { "formatter": { "quoteStyle": "double", "semicolons": "asNeeded" } } }')).toEqual({
      width: 120,
      unit: '    ',
      quote: '"',
      semi: false,
    });
    expect(optionValues('{ "useTabs": true, "arrowParens": "avoid" }')).toEqual({ unit: '\t', arrowParens: false });
  });
});

describe('the style of a file without settings', () => {
  it('takes quotes, semicolons, indentation, trailing commas and arrow parentheses from the file, and prettier\'s 80 columns', () => {
    const file = 'import { a } from "./a"\n\nexport const f = (x) => {\n    return call(\n        x,\n    )\n}\n';
    expect(detectStyle(file, true)).toEqual({ eol: '\n', unit: '    ', semi: '', quote: '"', width: 80, trailingComma: true, arrowParens: true, typescript: true });
  });

  it('counts semicolons between statements in minified code, and keeps a file that runs wider than 80 columns', () => {
    const minified = `export async function f(a){const b=await g(a);return b.x}${' '.repeat(40)}\n`;
    expect(detectStyle(minified, false)).toMatchObject({ semi: ';', width: 97 });
    expect(detectStyle("const a = 1\nconst b = x => { f(); return a }\n", false)).toMatchObject({ semi: '', quote: "'", arrowParens: false });
  });

  it('takes the shortest indentation of two spaces or more (eight at most), a tab only where no line is indented by spaces', () => {
    expect(detectStyle('a\n x\n    y\n      z\n', false).unit).toBe('    ');
    expect(detectStyle('a\n\tx\n   y\n', false).unit).toBe('   ');
    expect(detectStyle('a\n\tx\n\t\ty\n x\n', false).unit).toBe('\t');
    expect(detectStyle('a\n          x\n', false).unit).toBe('        ');
    expect(detectStyle('a\n \t x\n', false).unit).toBe('   ');
    expect(detectStyle('a\n  \n\tx\n', false).unit).toBe('\t');
    expect(detectStyle('a\r\n  x\r\n', false)).toMatchObject({ unit: '  ', eol: '\r\n' });
  });

  it('measures lines over 80 columns without their CR, and leaves comment lines out', () => {
    expect(detectStyle(`a\r\n${'x'.repeat(85)}\r\nb\r\n`, false).width).toBe(85);
    expect(detectStyle(`${'x'.repeat(81)}\r`, false).width).toBe(82);
    expect(detectStyle(`// ${'x'.repeat(130)}\n  * ${'y'.repeat(100)}\nz\n`, false).width).toBe(80);
    expect(detectStyle(`${'x'.repeat(100)}\n${'y'.repeat(300)}\n`, false).width).toBe(120);
  });

  it('finds a parameter without parentheses before an arrow only where it stands alone', () => {
    expect(detectStyle('const f = (x) => x;\nobj.a => 1;\ncall(x) => 2;\n', false).arrowParens).toBe(true);
    expect(detectStyle('items.map(item\n  => item.id);\n', false).arrowParens).toBe(false);
    expect(detectStyle('$ => 1', false).arrowParens).toBe(false);
    expect(detectStyle('f(1a => 2)', false).arrowParens).toBe(true);
  });

  it('lets the settings win over the file', () => {
    expect(detectStyle("const a = 'x';\n", false, { quote: '"', width: 120, semi: false })).toMatchObject({ quote: '"', width: 120, semi: '' });
  });
});

describe('the style under a formatter configuration that cannot be loaded', () => {
  const file = ['export function f(value: string): string {', "  return value.replace('a', 'b');", '}', ''].join('\n');

  it("takes the print width from the file's own longest line, not from a formatter's default", () => {
    expect(detectStyle(file, true)).toMatchObject({ width: 80 });
    expect(detectStyle(file, true, { unloadable: true })).toMatchObject({ width: 42, unit: '  ', quote: "'", semi: ';' });
  });

  it('keeps what the configuration states literally', () => {
    expect(detectStyle(file, true, { width: 110, semi: false, unloadable: true })).toMatchObject({ width: 110, semi: '' });
  });
});
