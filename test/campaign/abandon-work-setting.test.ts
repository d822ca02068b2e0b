import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadWorld } from '../support/case-world.js';

const WORLD = join(import.meta.dirname, '..', 'cases', '_world.yaml');

describe('rules.abandonWork', () => {
  it('defaults to confirm, the safe reading', () => {
    expect(loadWorld(WORLD).rules.abandonWork).toBe('confirm');
  });

  it('takes allow', () => {
    expect(loadWorld(WORLD, { abandonWork: 'allow' }).rules.abandonWork).toBe('allow');
  });

  it('refuses anything else, naming the key and what is valid', () => {
    expect(() => loadWorld(WORLD, { abandonWork: 'ask' })).toThrow(/rules\.abandonWork.*"allow".*"confirm"/s);
  });
});
