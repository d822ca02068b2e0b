import fc from 'fast-check';

/**
 * fast-check's `fc.string({ unit: 'binary' })`, value for value (the same code points, drawn the same way, and
 * the same "dangerous" slices such as `__proto__` mixed in), without its one-off cost: to find those slices,
 * fast-check maps all 1,112,064 code points back to their indexes first, a second of CPU in each test process
 * that builds such a string. Here a code point finds its index by arithmetic.
 */
const SURROGATES = 0xe000 - 0xd800;
const CODE_POINTS = 0x110000 - SURROGATES;

const BINARY_UNIT = fc.nat({ max: CODE_POINTS - 1 }).map(
  (i) => String.fromCodePoint(i < 0xd800 ? i : i + SURROGATES),
  (value) => {
    if (typeof value !== 'string') throw new Error('not a string');
    const point = value.codePointAt(0);
    if (point === undefined || String.fromCodePoint(point) !== value || (point >= 0xd800 && point < 0xe000)) throw new Error('not one code point');
    return point < 0xd800 ? point : point - SURROGATES;
  },
);

export const binaryString = (constraints: { minLength?: number; maxLength?: number } = {}): fc.Arbitrary<string> => fc.string({ ...constraints, unit: BINARY_UNIT });
