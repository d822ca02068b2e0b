import { describe, expect, it } from 'vitest';
import { asNationId } from '../../../src/core/ids.js';
import { attackCommander } from '../../../src/core/warfare/heroic.js';
import { defaultBattlefield } from '../../../src/core/warfare/battlefield.js';
import { setupProblems, type WarfareBattle } from '../../../src/core/warfare/battle.js';
import { catalogue } from '../../../src/core/warfare/catalogue.js';
import { commander } from '../../../src/core/warfare/state.js';
import { battle } from './support.js';

describe('Champions (W19)', () => {
  it('a champion taken out in person is gone (no novice steps up for it), and a setup with a champion leading units is refused', () => {
    const st = battle(
      {
        commanders: [
          { id: 'a', name: 'Sir Red', side: 'attacker', zone: 'z1,1', skills: { command: 3, fighting: 4 } },
          { id: 'd', name: 'Lady Blue', side: 'defender', zone: 'z1,1', skills: { command: 3 } },
          { id: 'h', name: 'Hilda', side: 'defender', zone: 'z1,1', skills: { fighting: 0 }, stress: { physical: 1, mental: 0 }, champion: 'd' },
        ],
        units: ['in1: infantry @a', 'in2: infantry @d'],
      },
      [4, -4],
    );
    attackCommander(st, commander(st, 'a'), commander(st, 'h'));
    expect(commander(st, 'h')).toMatchObject({ out: true, novice: false, name: 'Hilda' });
    expect(st.log.map((e) => e.text)).toContain('Hilda is taken out of the battle');
    const bad: WarfareBattle = {
      id: 'x',
      nations: { attacker: asNationId('red'), defender: asNationId('blue') },
      field: defaultBattlefield(),
      commanders: [
        { id: 'a', name: 'Sir Red', side: 'attacker', zone: 'z4,1' },
        { id: 'h', name: 'Hilda', side: 'attacker', zone: 'z4,1', champion: 'd' },
        { id: 'd', name: 'Lady Blue', side: 'defender', zone: 'z0,1' },
      ],
      units: [{ id: 'u1', type: 'infantry', commander: 'h' }],
    };
    expect(setupProblems(bad, catalogue())).toEqual(['Hilda rides with "d", not a commander of its side', 'Hilda is a champion and leads no units (line 141)']);
  });
});
