import { it } from 'vitest';
import { asNationId } from '../../src/core/ids.js';
import { runBattle, type WarfareBattle } from '../../src/core/warfare/battle.js';
import { defaultBattlefield } from '../../src/core/warfare/battlefield.js';
import { catalogue } from '../../src/core/warfare/catalogue.js';
import { WALLS, wallsOf } from '../../src/core/warfare/walls.js';
import { seededStream } from '../core/warfare/support.js';
it('dbg', () => {
  const cat = catalogue();
  cat.ramparts[WALLS] = wallsOf('X', [1], { armor: 'sum', siege: 'cannons' })!;
  const att = ['infantry', 'infantry', 'cannons']; const def = ['infantry'];
  let lost = 0;
  for (let i = 0; i < 40; i++) {
    const units: WarfareBattle['units'] = [...att.map((t, j) => ({ id: `a${j}`, type: t, commander: 'A' })), ...def.map((t, j) => ({ id: `d${j}`, type: t, commander: 'D' }))];
    const b: WarfareBattle = { id: `assault ${i}`, nations: { attacker: asNationId('red'), defender: asNationId('blue') }, field: defaultBattlefield(),
      commanders: [ { id: 'A', name: 'A', side: 'attacker', zone: 'z4,1', novice: true }, { id: 'D', name: 'D', side: 'defender', zone: 'z0,1', novice: true } ], units, ramparts: [{ type: WALLS, zone: 'z0,1' }] };
    const r = runBattle(b, cat, seededStream(`assault ${i}`), 'deck');
    if (r.winner !== 'attacker' && lost++ < 1) console.log(r.log.map((e) => `${e.exchange} ${e.text}`).join('\n'));
  }
});
