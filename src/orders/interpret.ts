import type { Campaign } from '../core/campaign.js';
import type { UnitId } from '../core/ids.js';
import type { BattlePlanOrder, Order } from '../core/orders.js';
import { unsafeCharacter, type TextShape, type UnsafeCharacter } from '../text/unsafe-text.js';
import { plainText } from '../text/escape.js';
import { clip, normName, type NameBook } from './names.js';
import { nationNamed, pressRecipients } from './press-recipients.js';
import { didYouMean } from '../text/suggest.js';
import { fate, list, opt, Refusal, take, text, written } from './fields.js';
import { actOrder } from './act-order.js';
import { withArticle } from '../core/prose.js';
import { planField, INVOKE_USAGE, aspectName, aspectActor, aspectPlace, invokeHelp, invokeTarget, payWord } from './aspect-fields.js';
import { siegeStep, unquote, bonuses } from './siege-fields.js';
import { path } from './path-fields.js';

/**
 * One order as written, before names are resolved: the first key names the
 * order kind and holds its subject ({ move: "Iron Guard", to: "12,7" }).
 * YAML files and plain-text mail both produce these, so both formats mean
 * exactly the same orders.
 */
export type RawFields = Record<string, unknown>;

export type Interpreted = { ok: true; order: Order } | { ok: false; reason: string; hint?: string };

/** The order keywords, with the other keys each one takes. */
export const ORDER_KEYS: Record<string, readonly string[]> = {
  move: ['to', 'path', 'carry', 'land', 'abandon'],
  attack: ['target', 'support', 'fate', 'casualties', 'abandon', 'destroy'],
  defend: ['protect', 'fate'],
  rest: [],
  hold: ['fate'],
  build: ['unit', 'name', 'bonuses', 'structure', 'battlement'],
  construct: ['structure'],
  found: ['name'],
  upgrade: [],
  siege: ['action', 'then', 'fate'],
  sortie: ['target', 'fate'],
  assault: ['support', 'fate', 'casualties'],
  answer: ['choice', 'fate'],
  explore: ['fate'],
  note: [],
  press: ['text', 'anonymous'],
  heir: ['ability'],
  plan: ['withdraw', 'tie', 'target', 'reserve', 'until', 'field', 'obstacles', 'burn'],
  advantage: ['with', 'on'],
  overcome: ['with'],
  invoke: ['on', 'pay', 'reroll', 'for', 'against'],
  act: ['action', 'target', 'aim', 'fate'],
  accept_trade: [],
  hunt_spies: ['fate'],
};

/** The orders a refusal lists: the Fate layer's (off by default, docs/orders.md) are suggested for slips only. */
const LISTED_ORDERS = Object.keys(ORDER_KEYS).filter((k) => !['advantage', 'overcome', 'invoke', 'plan'].includes(k));

/**
 * A yes-or-no field: true, false, "yes", "no", "true", "false", or absent
 * (no). Used for `abandon` (the player's word that an order may end work in
 * progress: `abandon: true` in YAML, "abandoning" in plain text) and for a
 * letter's `anonymous` ("unsigned" in plain text).
 */
function flag(value: unknown, key: string, hint?: string): true | undefined {
  if (value === undefined || value === null || value === false) return undefined;
  if (value === true) return true;
  const word = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (['yes', 'true'].includes(word)) return true;
  if (['no', 'false'].includes(word)) return undefined;
  throw new Refusal(`"${key}" is true or false, not "${written(value)}"`, hint);
}

const abandon = (value: unknown) => flag(value, 'abandon', 'write "abandon: true" to give up the work under way');

/** An ability by id ("sea-lord") or name ("Lord of the Sea"). */
function abilityId(campaign: Campaign, written: string): string {
  const want = normName(written);
  const found = Object.values(campaign.abilities).find((a) => normName(a.id) === want || normName(a.name) === want);
  if (found) return found.id;
  const known = Object.values(campaign.abilities);
  throw new Refusal(`there is no ability "${clip(written)}"`, didYouMean(written, known.flatMap((a) => [a.id, a.name])) ?? (known.length ? `abilities: ${known.map((a) => a.id).sort().join(', ')}` : 'this campaign has no abilities'));
}

export function interpretOrder(fields: RawFields, book: NameBook, campaign: Campaign): Interpreted {
  const keys = Object.keys(fields);
  const kind = keys[0];
  if (!kind) return { ok: false, reason: 'an empty order' };
  const allowed = ORDER_KEYS[kind];
  if (!allowed) return { ok: false, reason: `unknown order "${clip(kind)}"`, hint: didYouMean(kind, Object.keys(ORDER_KEYS)) ?? `orders are: ${LISTED_ORDERS.join(', ')}` };
  for (const k of keys.slice(1)) {
    if (!allowed.includes(k)) {
      return { ok: false, reason: `"${clip(k)}" does not belong to ${withArticle(kind)} order`, hint: allowed.length ? (didYouMean(k, allowed) ?? `${withArticle(kind)} order takes: ${allowed.join(', ')}`) : `${withArticle(kind)} order takes nothing else` };
    }
  }
  const unsafe = unsafeField(fields, kind);
  if (unsafe) return unsafe;
  try {
    return { ok: true, order: build(kind, fields, book, campaign) };
  } catch (e) {
    if (e instanceof Refusal) return { ok: false, reason: e.reason, ...(e.hint ? { hint: e.hint } : {}) };
    throw e;
  }
}

/**
 * Every text an order carries, names and notes above all, is checked before
 * anything is looked up: a control, line-break or direction character would
 * otherwise reach the state and every report (text/unsafe-text.ts). Only
 * a note may span lines. Both readers, YAML and plain text, end here.
 */
function unsafeField(fields: RawFields, kind: string): Interpreted | undefined {
  for (const [key, value] of Object.entries(fields)) {
    const shape = (kind === 'note' && key === 'note') || (kind === 'press' && key === 'text') ? 'lines' : 'line';
    const found = firstUnsafe(value, shape);
    if (!found) continue;
    const { text, at } = found;
    const valid = shape === 'lines' ? 'a note is plain visible text; it may span lines' : `"${key}" is one line of plain visible text: letters, digits, spaces and punctuation`;
    return { ok: false, reason: `"${key}" holds ${at.label} at character ${at.index + 1}: "${clip(plainText(text))}"`, hint: valid };
  }
  return undefined;
}

function firstUnsafe(value: unknown, shape: TextShape): { text: string; at: UnsafeCharacter } | undefined {
  if (typeof value === 'string') {
    const at = unsafeCharacter(value, shape);
    return at ? { text: value, at } : undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [k, v] of Object.entries(value)) {
    const found = firstUnsafe(k, 'line') ?? firstUnsafe(v, shape);
    if (found) return found;
  }
  return undefined;
}

function build(kind: string, f: RawFields, book: NameBook, campaign: Campaign): Order {
  const subject = f[kind];
  const ownUnit = () => {
    const written = text(subject, kind);
    const r = book.ownUnit(written);
    // "attack X with Iron Guard and argenta-4": one unit leads, the others support.
    if (!r.ok && /,|\s(?:and|&)\s/i.test(written) && ['attack', 'assault'].includes(kind)) {
      throw new Refusal(r.reason, `one unit leads the ${kind}; name the others after "supported by" (quote a name that holds "and")`);
    }
    return take(r);
  };
  const units = (key: string): UnitId[] => list(f[key], key).map((u) => take(book.ownUnit(u)));
  switch (kind) {
    case 'move': {
      if (f.to === undefined) throw new Refusal('a move needs "to": where the unit goes', 'e.g. "move Iron Guard to 12,7"');
      const unit = ownUnit();
      const to = take(book.hex(text(f.to, 'to')));
      const carry = units('carry');
      const land = f.land === undefined ? undefined : take(book.hex(text(f.land, 'land')));
      // A written path ends where the unit goes ("to 12,7 via 11,7" walks 11,7 → 12,7), as the engine reads it.
      const via = path(f.path, book);
      const walked = via?.length && via[via.length - 1] !== to ? [...via, to] : via;
      return { kind: 'move', unit, to, ...opt('path', walked?.length ? walked : undefined), ...(carry.length ? { carry } : {}), ...opt('landAt', land), ...opt('abandon', abandon(f.abandon)) };
    }
    case 'attack': {
      if (f.target === undefined) throw new Refusal('an attack needs a target: a unit, a settlement or a structure', 'e.g. "attack gondarahl-3 with Iron Guard", "attack the mine at 9,4 with Iron Guard"');
      const unit = ownUnit();
      const target = take(book.target(text(f.target, 'target')));
      const support = units('support');
      const casualties = units('casualties');
      const destroy = flag(f.destroy, 'destroy', 'write "destroy: true" to raze a structure rather than take it');
      if (destroy && !('external' in target)) throw new Refusal('only a structure (a mine, a dig site) can be razed', 'leave out "destroy", or name a structure: "the mine at 9,4"');
      return { kind: 'attack', unit, target, ...(support.length ? { support } : {}), ...opt('fate', fate(f.fate)), ...(casualties.length ? { casualties } : {}), ...opt('abandon', abandon(f.abandon)), ...opt('destroy', destroy) };
    }
    case 'defend': {
      if (f.protect === undefined) throw new Refusal('a defend order needs what to protect: one of your units, settlements or structures', 'e.g. "defend Argentum with argenta-6", "defend the mine at 9,4 with argenta-6"');
      const unit = ownUnit();
      return { kind: 'defend', unit, protect: take(book.target(text(f.protect, 'protect'))), ...opt('fate', fate(f.fate)) };
    }
    case 'rest':
      return { kind: 'rest', unit: ownUnit() };
    case 'hold':
      return { kind: 'hold', unit: ownUnit(), ...opt('fate', fate(f.fate)) };
    case 'build': {
      const what = ['unit', 'structure', 'battlement'].filter((k) => f[k] !== undefined);
      if (what.length !== 1) {
        throw new Refusal('say what to build: a unit type, a structure or a battlement (one of them)', 'e.g. "build marines in Argentum", "build structure academy in Argentum", "build battlement +1 in Argentum"');
      }
      const settlement = take(book.settlement(text(subject, 'build')));
      if (f.unit !== undefined) {
        const unitType = take(book.unitType(text(f.unit, 'unit')));
        const name = f.name === undefined ? undefined : unquote(text(f.name, 'name'));
        return { kind: 'build_unit', settlement, unitType, ...opt('name', name), ...opt('bonuses', bonuses(f.bonuses)) };
      }
      if (f.name !== undefined || f.bonuses !== undefined) throw new Refusal('only units take a name and bonuses');
      if (f.structure !== undefined) return { kind: 'build_structure', settlement, structure: take(book.structure(text(f.structure, 'structure'))) };
      const levelText = String(f.battlement).trim();
      const level = /^\+?\d{1,3}$/.test(levelText) ? Number(levelText.replace(/^\+/, '')) : Number.NaN;
      if (!Number.isInteger(level) || level < 1) throw new Refusal(`a battlement is +1, +2 or +3, not "${clip(levelText)}"`);
      return { kind: 'build_battlement', settlement, level };
    }
    case 'construct': {
      if (f.structure === undefined) throw new Refusal('say what to construct', 'e.g. "construct mine with argenta-7"');
      const unit = ownUnit();
      return { kind: 'construct', unit, structure: take(book.external(text(f.structure, 'structure'))) };
    }
    case 'found': {
      if (f.name === undefined) throw new Refusal('a new settlement needs a name', 'e.g. found "New Silverton" with argenta-7');
      const unit = ownUnit();
      const name = unquote(text(f.name, 'name'));
      if (name.length > 60) throw new Refusal('a settlement name is at most 60 characters');
      return { kind: 'found', unit, name };
    }
    case 'upgrade':
      return { kind: 'upgrade', settlement: take(book.settlement(text(subject, 'upgrade'))) };
    case 'siege': {
      const first = siegeStep(text(f.action ?? 'destroy_battlement', 'action'));
      const then = list(f.then, 'then').map(siegeStep);
      if (then.length > 8) throw new Refusal(`a siege action lists at most 8 further actions, not ${then.length}`);
      return { kind: 'siege_action', unit: ownUnit(), ...first, ...(then.length ? { then } : {}), ...opt('fate', fate(f.fate)) };
    }
    case 'sortie': {
      if (f.target === undefined) throw new Refusal('a sortie needs a target: a unit besieging the settlement', 'e.g. "sortie argenta-9 against gondarahl-4"');
      const unit = ownUnit();
      return { kind: 'sortie', unit, target: take(book.unit(text(f.target, 'target'))), ...opt('fate', fate(f.fate)) };
    }
    case 'assault': {
      const unit = ownUnit();
      const support = units('support');
      const casualties = units('casualties');
      return { kind: 'assault', unit, ...(support.length ? { support } : {}), ...opt('fate', fate(f.fate)), ...(casualties.length ? { casualties } : {}) };
    }
    case 'explore':
      return { kind: 'explore', unit: ownUnit(), ...opt('fate', fate(f.fate)) };
    case 'answer': {
      // Event, task and choice ids are checked against what awaits the nation's answer (checks/answer.ts).
      const event = text(subject, 'answer').toLowerCase();
      const choice = f.choice === undefined ? undefined : text(f.choice, 'choice').toLowerCase();
      return { kind: 'answer', event, ...opt('choice', choice), ...opt('fate', fate(f.fate)) };
    }
    case 'note': {
      const note = text(subject, 'note');
      if (note.length > 2000) throw new Refusal(`a note is at most 2000 characters; this one has ${note.length}`);
      return { kind: 'note', text: note };
    }
    case 'act':
      return actOrder(f, book, campaign, ownUnit);
    case 'accept_trade': {
      const n = nationNamed(campaign, text(subject, 'accept_trade'));
      if (!n.ok) throw new Refusal(n.reason, n.hint);
      return { kind: 'accept_trade', with: n.id };
    }
    case 'hunt_spies': {
      // "hunt" (the default) or "let go" (docs/orders.md).
      const how = text(subject, 'hunt_spies').trim().toLowerCase().replace(/[\s_-]+/g, ' ');
      if (how === 'let go' || how === 'let them go' || how === 'release') return { kind: 'hunt_spies', letGo: true, ...opt('fate', fate(f.fate)) };
      if (how !== 'hunt' && how !== 'spies' && how !== 'yes') throw new Refusal(`"hunt_spies" is "hunt" or "let go", not "${clip(how)}"`, 'e.g. "hunt_spies: hunt" with "fate: 2", or "hunt_spies: let go"');
      return { kind: 'hunt_spies', ...opt('fate', fate(f.fate)) };
    }
    case 'heir': {
      const name = unquote(text(subject, 'heir'));
      if (name.length > 60) throw new Refusal('an heir\'s name is at most 60 characters');
      if (f.ability === undefined) return { kind: 'heir', name };
      return { kind: 'heir', name, ability: abilityId(campaign, text(f.ability, 'ability')) };
    }
    case 'plan': {
      // A battle plan (docs/orders.md): a stance, then when to withdraw and what a tie costs.
      const stance = text(subject, 'plan').trim().toLowerCase();
      if (stance !== 'aggressive' && stance !== 'defensive') throw new Refusal(`a battle plan's stance is "aggressive" or "defensive", not "${clip(stance)}"`, 'e.g. "plan defensive withdraw at 2 on tie stress"');
      let withdrawAt: number | undefined;
      if (f.withdraw !== undefined) {
        const w = typeof f.withdraw === 'string' ? f.withdraw.trim().replace(/^at\s+/i, '').replace(/\s+units?$/i, '') : f.withdraw;
        const n = typeof w === 'string' && /^\d{1,3}$/.test(w) ? Number(w) : w;
        if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 100) throw new Refusal(`"withdraw" is the number of units left at which the side leaves the field, not "${written(f.withdraw)}"`, 'e.g. "withdraw at 2" (0: fight to the last)');
        withdrawAt = n;
      }
      let onTie: 'boost' | 'stress' | 'fail' | undefined;
      if (f.tie !== undefined) {
        const t = text(f.tie, 'tie').trim().toLowerCase();
        if (t !== 'boost' && t !== 'stress' && t !== 'fail') throw new Refusal(`on a tie a commander gives a "boost" to the other side, takes a "stress" card or lets it "fail", not "${clip(t)}"`, 'e.g. "on tie stress"');
        onTie = t;
      }
      const target = f.target === undefined ? undefined : text(f.target, 'target').trim().replace(/^(the|their|enemy)\s+/i, '');
      if (target !== undefined && !/^[A-Za-z][\w-]{0,39}$/.test(target)) throw new Refusal(`a battle plan's target is a unit type (archers, cavalry…) or "commander", not "${clip(target)}"`, 'e.g. "target archers" or "target commander"');
      let reserve: BattlePlanOrder['reserve'];
      if (f.reserve !== undefined) {
        const r = typeof f.reserve === 'number' ? String(f.reserve) : text(f.reserve, 'reserve').trim().toLowerCase().replace(/\s+(units?|in reserve)$/, '');
        if (/^\d{1,3}$/.test(r) && Number(r) > 0) reserve = Number(r);
        else if (r === 'infantry' || r === 'cavalry' || r === 'siege' || r === 'naval') reserve = r;
        else throw new Refusal(`"reserve" is a number of units or a class (infantry, cavalry, siege, naval), not "${clip(r)}"`, 'e.g. "reserve 2" or "reserve cavalry until 5"');
      }
      let reserveUntil: number | undefined;
      if (f.until !== undefined) {
        const u = typeof f.until === 'number' ? String(f.until) : text(f.until, 'until').trim().toLowerCase().replace(/^exchange\s+/, '');
        if (reserve === undefined) throw new Refusal('"until" says when the reserve joins the battle: name the reserve too', 'e.g. "reserve 2 until 5"');
        if (!/^\d{1,2}$/.test(u) || Number(u) < 2) throw new Refusal(`"until" is the exchange the reserve joins the battle (2 or later), not "${clip(u)}"`, 'e.g. "reserve cavalry until 5"');
        reserveUntil = Number(u);
      }
      return { kind: 'battle_plan', stance, ...opt('withdrawAt', withdrawAt), ...opt('onTie', onTie), ...opt('target', target === undefined ? undefined : target.toLowerCase() === 'commanders' ? 'commander' : target.toLowerCase()), ...opt('reserve', reserve), ...opt('reserveUntil', reserveUntil), ...planField(f) };
    }
    case 'press': {
      const to = pressRecipients(campaign, list(subject, 'press'));
      if (!to.ok) throw new Refusal(to.reason, to.hint);
      if (f.text === undefined || (typeof f.text === 'string' && !f.text.trim())) throw new Refusal('a letter needs some text', 'press to Gondarahl: We want peace');
      const letter = text(f.text, 'text');
      return { kind: 'press', to: to.to, text: letter, ...opt('anonymous', flag(f.anonymous, 'anonymous')) };
    }
    case 'advantage': {
      const by = aspectActor(f.with, book, 'create advantage "High Walls" with leader [on Cinderford]');
      const on = f.on === undefined ? undefined : aspectPlace(text(f.on, 'on'), book, campaign);
      return { kind: 'create_advantage', aspect: aspectName(subject), by, ...opt('on', on) };
    }
    case 'overcome':
      return { kind: 'overcome', aspect: aspectName(subject), by: aspectActor(f.with, book, 'overcome "Plague Winds" with leader') };
    case 'invoke': {
      if (f.on === undefined) throw new Refusal('an invoke names the roll it is for', INVOKE_USAGE);
      const pay = f.pay === undefined ? undefined : payWord(f.pay);
      const { roll, help } = invokeHelp(text(f.on, 'on'), f, campaign);
      return { kind: 'invoke', aspect: aspectName(subject), on: invokeTarget(roll, book), ...opt('pay', pay), ...opt('reroll', flag(f.reroll, 'reroll')), ...opt('help', help) };
    }
    default:
      throw new Refusal(`unknown order "${clip(kind)}"`);
  }
}
