import type { Campaign } from '../core/campaign.js';
import type { NationId } from '../core/ids.js';
import { clip, findNation, normName } from './names.js';
import { didYouMean } from '../text/suggest.js';

export type Recipients = { ok: true; to: NationId[] | 'all' } | { ok: false; reason: string; hint?: string };

const EVERYONE = new Set(['all', 'everyone', 'every nation', 'all nations', 'everybody']);

/**
 * The nations a letter is for, as players name them: an id ("gondarahl"), a
 * full name ("Kingdom of Gondarahl"), or the words of a name that fit one
 * nation only ("Gondarahl"); or "all".
 */
export function pressRecipients(campaign: Campaign, names: readonly string[]): Recipients {
  const wanted = names.map((n) => n.trim()).filter(Boolean);
  if (!wanted.length) return { ok: false, reason: 'a letter needs someone to go to', hint: 'press to Gondarahl: <your letter> — or: press to all: <your letter>' };
  if (wanted.some((n) => EVERYONE.has(normName(n)))) {
    if (wanted.length > 1) return { ok: false, reason: '"all" already means every nation', hint: 'name nations, or write "all" alone' };
    return { ok: true, to: 'all' };
  }
  const to: NationId[] = [];
  for (const name of wanted) {
    const found = nationNamed(campaign, name);
    if (!found.ok) return found;
    if (!to.includes(found.id)) to.push(found.id);
  }
  return { ok: true, to };
}

export function nationNamed(campaign: Campaign, name: string): { ok: true; id: NationId } | { ok: false; reason: string; hint?: string } {
  const exact = findNation(campaign, name, { rebels: false });
  if (exact !== undefined) return { ok: true, id: exact };
  const want = normName(name);
  const nations = Object.values(campaign.nations).filter((n) => !n.rebels);
  const words = want.split(/\s+/);
  const fits = nations.filter((n) => {
    const own = normName(n.name).split(/\s+/);
    return words.every((w) => own.includes(w));
  });
  if (fits.length === 1 && fits[0]) return { ok: true, id: fits[0].id };
  if (fits.length > 1) return { ok: false, reason: `"${clip(name)}" fits ${fits.length} nations`, hint: `say which: ${fits.map((n) => n.name).sort().join(', ')}` };
  const hint = didYouMean(name, nations.flatMap((n) => [n.name, n.id]));
  return { ok: false, reason: `there is no nation "${clip(name)}"`, ...(hint ? { hint } : {}) };
}
