import { describe, expect, it } from 'vitest';
import { DECK } from '../../../src/core/fate/deck.js';
import { soakStress, stressCard } from '../../../src/core/fate/stress.js';

/** Stress and consequences (seed 000 lines 136–144; docs/rules.md F9). */
describe('taking stress', () => {
  it("Catrin: three stress from an Ogre's club; the second box soaks two, a mild consequence the last one (seed 000 lines 139, 141)", () => {
    // Her physical track read as two open boxes (the example fills "the second" and has no box that soaks all three).
    const r = soakStress({ boxes: [false, false], taken: [] }, 3);
    expect(r).toEqual({ box: 2, consequences: ['mild'], takenOut: false, track: { boxes: [false, true], taken: ['mild'] } });
  });

  it('fills one box only, the smallest that soaks the whole hit when there is one', () => {
    expect(soakStress({ boxes: [false, false, false], taken: [] }, 2)).toMatchObject({ box: 2, consequences: [] });
    expect(soakStress({ boxes: [false, true, false], taken: [] }, 2)).toMatchObject({ box: 3, consequences: [] });
  });

  it('takes the consequences in turn when one is not enough, and is taken out when all cannot soak the hit (seed 000 line 142)', () => {
    expect(soakStress({ boxes: [false, false], taken: [] }, 9)).toMatchObject({ box: 2, consequences: ['severe', 'mild'], takenOut: false });
    expect(soakStress({ boxes: [true, true], taken: ['mild', 'moderate'] }, 6)).toMatchObject({ consequences: ['severe'], takenOut: false });
    const out = soakStress({ boxes: [false, false], taken: ['severe'] }, 9);
    expect(out.takenOut).toBe(true);
    expect(out.track).toEqual({ boxes: [false, false], taken: ['severe'] });
  });

  it('reads a stress card: suns physical, moons mental; with dice, pluses and minuses (seed 000 lines 144, 151)', () => {
    const eclipse = DECK.find((c) => c.eclipse)!;
    expect(stressCard({ card: eclipse.id })).toEqual({ physical: 2, mental: 2 });
    expect(stressCard({ faces: ['+', '+', '0', '-'] })).toEqual({ physical: 2, mental: 1 });
  });
});
