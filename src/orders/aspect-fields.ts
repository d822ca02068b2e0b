import type { Campaign } from '../core/campaign.js';
import { BURN_SKILLS, type AspectActor, type BattlePlanOrder, type InvokeOrder, type InvokeTarget } from '../core/orders.js';
import type { AspectPlace } from '../core/state.js';
import { clip, findNation, type NameBook } from './names.js';
import { opt, Refusal, take, text } from './fields.js';
import type { RawFields } from './interpret.js';
import { unquote } from './siege-fields.js';

/**
 * The Fate layer's order fields (interpret.ts): aspects named, who acts, where, what an invoke helps
 * and how it is paid, and a battle plan's field, obstacles and burns.
 */

/** A plan's battlefield, obstacles and aspect burning (docs/orders.md, "Battle plans"; docs/rules.md W23–W24). */
export function planField(f: RawFields): Pick<BattlePlanOrder, 'field' | 'obstacles' | 'burn'> {
  const word = (key: string, allowed: readonly string[], hint: string) => {
    if (f[key] === undefined) return undefined;
    const w = text(f[key], key).trim().toLowerCase();
    if (!allowed.includes(w)) throw new Refusal(`"${key}" is ${allowed.slice(0, -1).join(', ')} or ${allowed[allowed.length - 1]}, not "${clip(w)}"`, hint);
    return w;
  };
  const field = word('field', ['grid', 'deep', 'wide'], 'e.g. "plan defensive field deep"') as BattlePlanOrder['field'];
  const obstacles = word('obstacles', ['map', 'ahead', 'flanks', 'far', 'none'], 'e.g. "plan defensive obstacles ahead"') as BattlePlanOrder['obstacles'];
  let burn: BattlePlanOrder['burn'];
  if (f.burn !== undefined) {
    const written = text(f.burn, 'burn');
    const m = /^\s*["“]?([^"”]+?)["”]?\s+(?:for|as|into)\s+(zones?|obstacles?|units?|(?:an?\s+)?assets?(?:\s+(?:in|for|with|helping|on))?(?:\s+(\S+))?)\s*$/i.exec(written);
    if (!m) throw new Refusal(`cannot read the burn "${clip(written)}"`, BURN_USAGE);
    const what = (m[2] ?? '').toLowerCase().replace(/^an?\s+/, '');
    const kind = what.startsWith('zone') ? 'zones' : what.startsWith('obstacle') ? 'obstacles' : what.startsWith('unit') ? 'units' : 'assets';
    if (kind === 'assets') {
      const skill = m[3]?.toLowerCase();
      if (!skill) throw new Refusal('say which skill the asset helps', 'e.g. burn "Old Redoubts" for an asset in fighting');
      const known = BURN_SKILLS.find((s) => s === skill);
      if (!known) throw new Refusal(`an asset helps ${BURN_SKILLS.slice(0, -1).join(', ')} or ${BURN_SKILLS[BURN_SKILLS.length - 1]}, not "${clip(skill)}"`, 'e.g. burn "Old Redoubts" for an asset in fighting');
      burn = { aspect: aspectName(m[1]), for: kind, skill: known };
    } else burn = { aspect: aspectName(m[1]), for: kind };
  }
  return { ...opt('field', field), ...opt('obstacles', obstacles), ...opt('burn', burn) };
}

const BURN_USAGE = 'e.g. burn "Watchers on the Starkrock" for obstacles (or for zones, for units, for an asset in fighting)';

export const INVOKE_USAGE = 'e.g. invoke "High Walls" on the battle at 25,6 — on the assault on Cinderford, on the siege of Cinderford, on the roll bandits; add "fate" to pay, "reroll" to re-roll';

export function aspectName(value: unknown): string {
  const name = unquote(text(value, 'aspect')).replace(/\s+/g, ' ');
  if (name.length > 60) throw new Refusal('an aspect is named in at most 60 characters');
  if (name.includes('"')) throw new Refusal('an aspect\'s name holds no double quotes');
  return name;
}

/** "leader" (or the leader's own name is not needed), or one of the nation's units. */
export function aspectActor(value: unknown, book: NameBook, usage: string): AspectActor {
  if (value === undefined) throw new Refusal('say who makes the roll: "with leader" or "with <diplomatic unit>"', usage);
  const written = text(value, 'with');
  if (/^(?:the\s+|our\s+|my\s+)?(?:leader|ruler)$/i.test(written)) return { leader: true };
  return { unit: take(book.ownUnit(written)) };
}

/** Where an aspect is made: a hex ("25,6", "the region at 25,6"), a nation, a settlement or a unit in sight. */
export function aspectPlace(written: string, book: NameBook, campaign: Campaign): AspectPlace {
  const bare = written.replace(/^(?:the\s+)?(?:region|hex)\s+(?:at|around|of)\s+/i, '').trim();
  if (/^-?\d+\s*,\s*-?\d+$/.test(bare)) return { hex: take(book.hex(bare)) };
  const nation = findNation(campaign, bare);
  if (nation) return { nation };
  const target = book.target(bare);
  if (target.ok) {
    const t = target.value;
    if ('external' in t) throw new Refusal('an aspect goes on a nation, a settlement, a unit or a hex, not on a structure', 'name the hex the structure stands on, e.g. "on 9,4"');
    return 'unit' in t ? { unit: t.unit } : { settlement: t.settlement };
  }
  const place = book.hex(bare);
  if (place.ok) return { hex: place.value };
  throw new Refusal(`no nation, settlement, unit or hex "${clip(written)}" to put an aspect on`, target.hint ?? 'e.g. "on Cinderford", "on 25,6", "on Gondarahl", "on Iron Guard"');
}

/**
 * Teamwork or an obstacle (docs/rules.md A10): "… on the siege of Cinderford
 * for Argenta" helps Argenta's roll, "… against Argenta" stands in its way;
 * in YAML, `for:` or `against:` beside `on:`.
 */
export function invokeHelp(written: string, f: RawFields, campaign: Campaign): { roll: string; help?: InvokeOrder['help'] } {
  const m = /^(.*\S)\s+(for|against)\s+(.+)$/i.exec(written.trim());
  const given = f.for !== undefined ? { role: 'for', name: text(f.for, 'for') } : f.against !== undefined ? { role: 'against', name: text(f.against, 'against') } : m ? { role: (m[2] ?? '').toLowerCase(), name: m[3] ?? '' } : undefined;
  if (!given) return { roll: written };
  const nation = findNation(campaign, given.name.replace(/^the\s+/i, ''));
  if (!nation) {
    if (m && f.for === undefined && f.against === undefined) return { roll: written };
    throw new Refusal(`no nation "${clip(given.name)}" to invoke ${given.role}`, 'e.g. invoke "High Walls" on the siege of Cinderford against Argenta');
  }
  return { roll: m && f.for === undefined && f.against === undefined ? (m[1] ?? written) : written, help: given.role === 'for' ? { for: nation } : { against: nation } };
}

/** The roll an invoke is for: "the battle at 25,6", "the assault on Cinderford", "the siege of Cinderford", "the roll bandits". */
export function invokeTarget(written: string, book: NameBook): InvokeTarget {
  const w = written.trim().replace(/^the\s+/i, '');
  const m = /^(battle|fight|assault|siege|roll|answer)\s+(?:at|in|on|of|against|for|to)?\s*(.+)$/i.exec(w);
  if (!m) {
    const hex = book.hex(w);
    if (hex.ok) return { battle: hex.value };
    throw new Refusal(`cannot tell which roll "${clip(written)}" is`, INVOKE_USAGE);
  }
  const what = (m[1] ?? '').toLowerCase();
  const rest = (m[2] ?? '').trim().replace(/^the\s+/i, '');
  if (what === 'battle' || what === 'fight') return { battle: take(book.hex(rest)) };
  if (what === 'assault') return { assault: take(book.settlement(rest)) };
  if (what === 'siege') return { siege: take(book.settlement(rest)) };
  return { roll: rest.toLowerCase() };
}

export function payWord(value: unknown): 'free' | 'fate' {
  const w = String(value).trim().toLowerCase();
  if (w === 'free') return 'free';
  if (['fate', 'paid', 'pay'].includes(w)) return 'fate';
  throw new Refusal(`"pay" is free or fate, not "${clip(w)}"`, 'free spends a free invoke; fate pays Fate');
}
