import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hexKey, offsetOf, parseHex } from '../../src/core/hex.js';
import { asHexKey } from '../../src/core/ids.js';
import { compareHexes } from '../../src/report/map-grid.js';

describe('offsetOf', () => {
  it('reads every key hexKey makes, negative (off the map) included', () => {
    fc.assert(
      fc.property(fc.integer({ min: -500, max: 5000 }), fc.integer({ min: -500, max: 5000 }), (col, row) => {
        expect(offsetOf(hexKey(col, row))).toEqual({ col, row });
      }),
    );
  });

  it('reads other spellings as the pattern does, and refuses what is no hex', () => {
    for (const text of ['12/7', ' 3 , 4 ', '5 6']) expect(offsetOf(asHexKey(text))).toEqual(parseHex(text));
    for (const text of ['', ',', '1,', ',2', '1,2,3', 'a,b', '1,-', '--1,2']) expect(() => offsetOf(asHexKey(text))).toThrow(/not a hex key/);
  });
});

describe('compareHexes', () => {
  it('orders by column, then row, by value not by text', () => {
    expect(['10,2', '9,11', '9,3', '0,0'].sort(compareHexes)).toEqual(['0,0', '9,3', '9,11', '10,2']);
  });
});
