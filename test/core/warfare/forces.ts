import { asNationId } from '../../../src/core/ids.js';
import { defaultBattlefield } from '../../../src/core/warfare/battlefield.js';
import type { WarfareBattle } from '../../../src/core/warfare/battle.js';
import type { Side } from '../../../src/core/warfare/types.js';

/**
 * Forces for whole battles: each nation two commanders (Command and Tactics
 * +3), each leading the units given. The attacker starts on the far row, the
 * defender on and beside the strategic zone (seed 001 line 148).
 */
const START: Record<Side, [string, string]> = { attacker: ['z4,0', 'z4,2'], defender: ['z0,1', 'z1,1'] };

export function forces(attacker: { nation: string; units: string[] }, defender: { nation: string; units: string[] }, id = 'test'): WarfareBattle {
  const commanders: WarfareBattle['commanders'] = [];
  const units: WarfareBattle['units'] = [];
  for (const [side, f] of [['attacker', attacker], ['defender', defender]] as const) {
    START[side].forEach((zone, i) => {
      const cid = `${f.nation}-${i + 1}`;
      commanders.push({ id: cid, name: `${f.nation} general ${i + 1}`, side, zone, skills: { command: 3, tactics: 3 } });
      f.units.forEach((type, j) => units.push({ id: `${cid}-${j + 1}`, type, commander: cid }));
    });
  }
  return { id, nations: { attacker: asNationId(attacker.nation), defender: asNationId(defender.nation) }, field: defaultBattlefield(), commanders, units };
}
