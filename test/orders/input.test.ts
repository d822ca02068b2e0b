import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_YAML_DEPTH, yamlTooDeep } from '../../src/orders/input.js';

/**
 * The nesting measure, line by line, as it was first written: the reference
 * the one-pass reader in src/orders/input.ts is held to.
 */
function tooDeepByLines(text: string, max = MAX_YAML_DEPTH): number | undefined {
  let flow = 0;
  const lines = text.split(/\r\n|\r|\n/);
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!;
    const indent = /^[ \t]*/.exec(line)![0].length;
    const indicators = /^(?:[ \t]*[-?:](?:[ \t]+|$))*/.exec(line)![0].replace(/[^-?:]/g, '').length;
    if (indent > max * 4 || indicators > max / 2) return n + 1;
    for (let i = 0; i < line.length; i++) {
      const ch = line[i];
      if (ch === '#' && (i === 0 || /\s/.test(line[i - 1] ?? ''))) break;
      if (ch === '[' || ch === '{') flow++;
      else if (ch === ']' || ch === '}') flow = Math.max(0, flow - 1);
      if (flow > max) return n + 1;
    }
  }
  return undefined;
}

describe('how deep a YAML text nests', () => {
  it('finds the line where brackets, indentation or leading indicators go too deep', () => {
    expect(yamlTooDeep('nation: a\norders:\n  - move: a-1\n    to: 3,4\n')).toBeUndefined();
    expect(yamlTooDeep(`orders: ${'['.repeat(33)}`)).toBe(1);
    expect(yamlTooDeep(`orders: ${'['.repeat(32)}`)).toBeUndefined();
    // Depth runs across lines, and closing brackets give it back.
    expect(yamlTooDeep(`a: ${'['.repeat(20)}\r\nb: ${']'.repeat(5)}\rc: ${'{'.repeat(18)}\n`)).toBe(3);
    expect(yamlTooDeep(`a: ${'['.repeat(20)}\r\nb: ${']'.repeat(5)}\rc: ${'{'.repeat(17)}\n`)).toBeUndefined();
    // A comment's brackets do not count: "#" at a line's start or after white space (a tab, a no-break space).
    expect(yamlTooDeep(`a: 1 #${'['.repeat(40)}\n\t#${'['.repeat(40)}\nb:\u00a0#${'['.repeat(40)}`)).toBeUndefined();
    expect(yamlTooDeep(`a: x#${'['.repeat(40)}`)).toBe(1);
    expect(yamlTooDeep(`x\n${' '.repeat(129)}a: 1`)).toBe(2);
    expect(yamlTooDeep(`x\n${' '.repeat(128)}a: 1`)).toBeUndefined();
    expect(yamlTooDeep(`x\n\n${'- '.repeat(17)}a`)).toBe(3);
    expect(yamlTooDeep(`${'- '.repeat(16)}a\n${'-'.repeat(40)}\n${'?\t:  '.repeat(8)}-`)).toBe(3);
    expect(yamlTooDeep(`${'- '.repeat(16)}a\n${'-'.repeat(40)}\n${'?\t:  '.repeat(8)}x`)).toBeUndefined();
    expect(yamlTooDeep('')).toBeUndefined();
  });

  it('answers as the line-by-line reading does, for any text of the characters that matter', () => {
    const char = fc.constantFrom(' ', ' ', '\t', '-', '?', ':', '#', '[', '[', ']', '{', '}', '\r', '\n', '\n', 'a', '\u00a0', '\u2028', '\u3000');
    fc.assert(
      fc.property(fc.array(char, { maxLength: 200 }), fc.integer({ min: 0, max: 6 }), (chars, max) => {
        const text = chars.join('');
        expect(yamlTooDeep(text, max)).toBe(tooDeepByLines(text, max));
      }),
      { numRuns: 3000 },
    );
  });
});
