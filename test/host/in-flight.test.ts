import { describe, expect, it } from 'vitest';
import { mapInFlight } from '../../src/host/in-flight.js';

describe('mapInFlight', () => {
  it('answers in the items’ order, with never more than the limit in flight, however the calls interleave', async () => {
    let inFlight = 0;
    let most = 0;
    // Later items finish sooner, so the answers come back out of order and must be put back in place.
    const work = async (n: number) => {
      inFlight++;
      most = Math.max(most, inFlight);
      for (let tick = 0; tick < 20 - n; tick++) await Promise.resolve();
      inFlight--;
      return n * n;
    };
    const items = Array.from({ length: 20 }, (_, i) => i);
    expect(await mapInFlight(items, 4, work)).toEqual(items.map((n) => n * n));
    expect(most).toBe(4);
    expect(await mapInFlight([], 4, work)).toEqual([]);
    expect(await mapInFlight([3], 16, work)).toEqual([9]);
  });

  it('rejects with the first failure', async () => {
    await expect(mapInFlight([1, 2, 3], 2, async (n) => (n === 2 ? Promise.reject(new Error('two failed')) : n))).rejects.toThrow('two failed');
  });
});
