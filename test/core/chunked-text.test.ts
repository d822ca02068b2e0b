import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChunkedText } from '../../src/core/chunked-text.js';

describe('ChunkedText', () => {
  it('gives the pieces joined by the separator, whatever the chunk size', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { maxLength: 300 }), fc.constantFrom('', '\n', ', '), fc.integer({ min: 1, max: 70 }), (pieces, separator, chunk) => {
        const text = new ChunkedText(separator, chunk);
        for (const p of pieces) text.add(p);
        expect(text.empty).toBe(pieces.length === 0);
        expect(text.text()).toBe(pieces.join(separator));
        // Asking twice gives the same text.
        expect(text.text()).toBe(pieces.join(separator));
      }),
      { numRuns: 500 },
    );
  });
});
