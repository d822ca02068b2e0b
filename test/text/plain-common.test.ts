import { describe, expect, it } from 'vitest';
import { UNSAFE_CHARS } from '../../src/text/unsafe-text.js';
import { PLAIN_COMMON, plainText } from '../../src/text/escape.js';

/**
 * escape.ts lets a string through untouched when it passes PLAIN_COMMON, a
 * cheap test, before it asks the Unicode one (UNSAFE_CHARS): so no character
 * PLAIN_COMMON takes may be one UNSAFE_CHARS would replace.
 */
describe('the common printable characters', () => {
  it('hold none of the characters a printable text replaces', () => {
    const unsafe = new RegExp(UNSAFE_CHARS.source, 'u');
    let checked = 0;
    for (let code = 0; code <= 0xffff; code++) {
      const ch = String.fromCharCode(code);
      if (!PLAIN_COMMON.test(ch)) continue;
      checked++;
      expect(unsafe.test(ch), `U+${code.toString(16).padStart(4, '0')}`).toBe(false);
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('leave the report text as it is, and still replace what is unsafe', () => {
    expect(plainText('Cavalry (n0007-101) at 91,7 (plains) — healthy, speed 3 × 2 → ½')).toBe('Cavalry (n0007-101) at 91,7 (plains) — healthy, speed 3 × 2 → ½');
    expect(plainText('soft\u00adhyphen')).toBe('soft\ufffdhyphen');
    expect(plainText('a\u2028b')).toBe('a ↵ b');
  });
});
