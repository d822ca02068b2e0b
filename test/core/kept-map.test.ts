import { describe, expect, it } from 'vitest';
import { KeptMap } from '../../src/core/kept-map.js';

describe('KeptMap', () => {
  it('keeps at most so many entries, forgetting the oldest set first', () => {
    const kept = new KeptMap<string, number>({ entries: 2 });
    kept.set('a', 1);
    kept.set('b', 2);
    expect(kept.get('a')).toBe(1);
    kept.set('c', 3);
    // Without refresh, reading "a" did not save it.
    expect([...kept.keys()]).toEqual(['b', 'c']);
    expect(kept.get('a')).toBeUndefined();
  });

  it('with refresh, forgets the least recently read', () => {
    const kept = new KeptMap<string, number>({ entries: 2, refresh: true });
    kept.set('a', 1);
    kept.set('b', 2);
    expect(kept.get('a')).toBe(1);
    kept.set('c', 3);
    expect([...kept.keys()]).toEqual(['a', 'c']);
    // peek reads without saving.
    expect(kept.peek('a')).toBe(1);
    kept.set('d', 4);
    expect([...kept.keys()]).toEqual(['c', 'd']);
  });

  it('keeps the weight under its limit; with keepNewest, the newest entry however heavy', () => {
    const strict = new KeptMap<string, string>({ weight: 10 });
    strict.set('a', 'x', 4);
    strict.set('huge', 'w', 50);
    expect(strict.size).toBe(0);
    expect(strict.weight).toBe(0);
    const kept = new KeptMap<string, string>({ weight: 10, keepNewest: true });
    kept.set('a', 'x', 4);
    kept.set('b', 'y', 4);
    expect(kept.weight).toBe(8);
    kept.set('c', 'z', 4);
    expect([...kept.keys()]).toEqual(['b', 'c']);
    kept.set('huge', 'w', 50);
    expect([...kept.keys()]).toEqual(['huge']);
    expect(kept.weight).toBe(50);
  });

  it('weighs an entry set again by its new weight, as the newest', () => {
    const kept = new KeptMap<string, string>({ weight: 10 });
    kept.set('a', 'x', 0);
    kept.set('b', 'y', 3);
    kept.set('a', 'x', 9);
    expect([...kept.keys()]).toEqual(['a']);
    expect(kept.weight).toBe(9);
    expect(kept.delete('a')).toBe(true);
    expect(kept.delete('a')).toBe(false);
    expect(kept.size).toBe(0);
    expect(kept.weight).toBe(0);
  });
});
