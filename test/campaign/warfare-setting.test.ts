import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadWorld } from '../support/case-world.js';

const WORLD = join(import.meta.dirname, '..', 'cases', '_world.yaml');

describe('rules.warfare (docs/rules.md W15)', () => {
  it('is off by default, three units a side, taken out meaning destroyed', () => {
    expect(loadWorld(WORLD).rules.warfare).toMatchObject({ enabled: false, minUnitsPerSide: 3, takenOut: 'destroyed', maxExchanges: 12 });
  });

  it('fights naval units as the default catalogue’s warships (our extension) and bloodied units one lower; both settings may change, a penalty out of 0–4 refused', () => {
    const rules = loadWorld(WORLD).rules.warfare;
    expect(rules.types.naval).toBe('warships');
    expect(rules.bloodied).toBe(1);
    expect(loadWorld(WORLD, { warfare: { bloodied: 0, types: { naval: 'infantry' } } }).rules.warfare).toMatchObject({ bloodied: 0, types: { naval: 'infantry' } });
    expect(() => loadWorld(WORLD, { warfare: { bloodied: 5 } })).toThrow(/rules\.warfare\.bloodied/);
  });

  it('takes a campaign’s own unit types, naval ones included, with ladder words', () => {
    const rules = loadWorld(WORLD, { warfare: { enabled: true, types: { naval: 'galleys' }, catalogue: { units: { galleys: { name: 'Galleys', skills: { armor: 'Good', fighting: 2, movement: 3 } } } } } }).rules;
    expect(rules.warfare.types.naval).toBe('galleys');
    expect(rules.warfare.catalogue.units?.galleys?.skills).toEqual({ armor: 3, fighting: 2, movement: 3 });
  });

  it('refuses a class mapped to no catalogue type, and an unreadable stat block, naming the key', () => {
    expect(() => loadWorld(WORLD, { warfare: { types: { naval: 'galleys' } } })).toThrow(/rules\.warfare\.types\.naval.*no unit type "galleys" in the Warfare catalogue; it has archers, battleMages/s);
    expect(() => loadWorld(WORLD, { warfare: { catalogue: { units: { pikes: { name: 'Pikes', skills: { armour: 4 } } } } } })).toThrow(/rules\.warfare\.catalogue\.units\.pikes\.skills/);
  });
});
