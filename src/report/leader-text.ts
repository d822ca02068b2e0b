import type { Ability, Campaign } from '../core/campaign.js';
import { leaderOf } from '../core/leaders.js';
import type { NationState } from '../core/state.js';

const signed = (n: number) => (n > 0 ? `+${n}` : String(n));
const list = (xs: readonly string[]) => (xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}`);

/** What an ability does, in words: "infantry +1 (drill) in open battle; infantry units cost 1 Renown less". */
export function abilityEffects(a: Ability): string {
  const parts: string[] = [];
  for (const b of a.bonuses ?? []) {
    const vs = b.bonus.vs?.classes?.length ? ` against ${list(b.bonus.vs.classes)}` : '';
    const where = b.bonus.situation === 'open' ? ' in open battle' : b.bonus.situation === 'siege' ? ' in sieges' : '';
    parts.push(`${list(b.classes)} ${signed(b.bonus.value)}${vs}${where}`);
  }
  for (const c of a.costs ?? []) {
    const what = c.of === 'unit' ? `${c.classes ? `${list(c.classes)} ` : ''}units` : 'structures';
    parts.push(`${what} cost ${Math.abs(c.change)} Renown ${c.change < 0 ? 'less' : 'more'}`);
  }
  const income = Object.entries(a.income ?? {}).filter(([, v]) => v);
  if (income.length) parts.push(`${income.map(([k, v]) => `${signed(v as number)} ${k === 'renown' ? 'Renown' : k === 'fate' ? 'Fate' : k === 'prosperity' ? 'Prosperity' : 'Happiness'}`).join(', ')} a turn`);
  return parts.join('; ');
}

/**
 * The leader line of a report: who rules, and the ability — the start sheet's
 * flavour for the first leader, the ability's own text for an heir, and what
 * the engine does with it.
 */
export function leaderLines(campaign: Campaign, ns: NationState): { leader: string; ability: string } {
  const now = leaderOf(campaign, ns);
  if (now.name === null) return { leader: 'no one rules: name an heir with an "heir" order', ability: '' };
  const flavour = ns.leader ? (now.ability?.text ?? '') : (campaign.nations[ns.id]?.ability ?? '');
  const data = now.ability ? `${now.ability.name}: ${abilityEffects(now.ability) || 'no effect in the rules'}` : '';
  return { leader: now.name, ability: [flavour, data && (flavour ? `(${data})` : data)].filter(Boolean).join(' ') };
}
