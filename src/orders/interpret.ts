import { UNIT_CLASSES, type Bonus, type BonusTarget, type Campaign, type UnitClass } from '../core/campaign.js';
import type { HexKey, UnitId } from '../core/ids.js';
import type { AspectActor, BattlePlanOrder, InvokeOrder, InvokeTarget, Order, SiegeAction, SiegeStep } from '../core/orders.js';
import type { AspectPlace } from '../core/state.js';
import { unsafeCharacter, type TextShape, type UnsafeCharacter } from '../text/unsafe-text.js';
import { plainText } from '../text/escape.js';
import { clip, findNation, normName, type NameBook, type Resolved } from './names.js';
import { nationNamed, pressRecipients } from './press-recipients.js';
import { didYouMean } from '../text/suggest.js';
import { fate, list, opt, Refusal, take, text } from './fields.js';
import { actOrder } from './act-order.js';
import { withArticle } from '../core/prose.js';

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

/** Siege actions as players write them ("destroy battlement", "poison the water"). */
const SIEGE_ACTIONS: Record<string, SiegeAction> = {
  destroy_battlement: 'destroy_battlement',
  destroy_battlements: 'destroy_battlement',
  destroy_a_battlement: 'destroy_battlement',
  destroy_the_battlement: 'destroy_battlement',
  destroy: 'destroy_battlement',
  battlement: 'destroy_battlement',
  battlements: 'destroy_battlement',
  poison_water: 'poison_water',
  poison_the_water: 'poison_water',
  poison_the_water_supply: 'poison_water',
  poison_water_supply: 'poison_water',
  poison: 'poison_water',
  water: 'poison_water',
};

/**
 * One siege action as written: "destroy battlement +2", "+1 battlement",
 * "poison the water". A battlement's bonus is optional (the weakest one left).
 */
function siegeStep(written: string): SiegeStep {
  const words = written.toLowerCase().trim().split(/[\s_-]+/).filter((w) => !['another', 'a', 'the', 'one', 'of', 'level'].includes(w));
  const levels = words.filter((w) => /^\+?\d{1,3}$/.test(w));
  const word = words.filter((w) => !levels.includes(w)).join('_') || 'battlement';
  const action = SIEGE_ACTIONS[word];
  if (!action) throw new Refusal(`unknown siege action "${clip(written)}"`, didYouMean(word, ['destroy_battlement', 'poison_water']) ?? 'siege actions are "destroy battlement" (name its bonus, "+2", or the weakest is taken) and "poison water"');
  if (levels.length > 1) throw new Refusal(`one battlement per action, not "${clip(written)}"`, 'e.g. "destroy battlement +2 then battlement +1"');
  const level = levels[0] === undefined ? undefined : Number(levels[0].replace(/^\+/, ''));
  if (level !== undefined && action !== 'destroy_battlement') throw new Refusal(`poisoning the water takes no bonus ("${clip(written)}")`);
  if (level !== undefined && level < 1) throw new Refusal(`a battlement is +1, +2 or +3, not "${clip(written)}"`);
  return level === undefined ? { action } : { action, battlement: level };
}

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
  throw new Refusal(`"${key}" is true or false, not "${clip(String(value))}"`, hint);
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

/** Paths: "11,7 12,7", "11,7 -> 12,7", or a list of hexes and place names. */
function path(value: unknown, book: NameBook): HexKey[] | undefined {
  if (value === undefined || value === null) return undefined;
  const parts = Array.isArray(value) ? pairNumbers(value).map((v) => text(v, 'path')) : pathItems(text(value, 'path'));
  if (parts.length > 64) throw new Refusal(`a path of ${parts.length} hexes is longer than any unit can move`);
  return parts.map((p) => take(book.hex(p)));
}

/**
 * YAML reads the flow list [11,7, 12,7] as four numbers, not two hexes:
 * consecutive whole numbers are paired back into "col,row".
 */
function pairNumbers(items: readonly unknown[]): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < items.length; i++) {
    const a = items[i];
    const b = items[i + 1];
    if (Number.isInteger(a) && Number.isInteger(b)) {
      out.push(`${a as number},${b as number}`);
      i++;
    } else out.push(a);
  }
  return out;
}

/**
 * Splits a written path into hexes and place names: "11,7 12,7",
 * "11, 7 -> 12,7", "11,7,12,7", "Silver vein, 9,3 then 9,4".
 */
export function pathItems(written: string): string[] {
  const pieces = written
    .replace(/(\d+)\s*,\s*(\d+)/g, '$1,$2')
    .split(/\s*(?:->|→|;|\s)\s*/)
    .filter(Boolean);
  const items: string[] = [];
  let name: string[] = [];
  const flush = () => {
    if (name.length) items.push(name.join(' '));
    name = [];
  };
  for (const piece of pieces) {
    const bare = piece.replace(/^,+|,+$/g, '');
    if (/^\d+,\d+(?:,\d+,\d+)*$/.test(bare)) {
      flush();
      const n = bare.split(',');
      for (let i = 0; i + 1 < n.length; i += 2) items.push(`${n[i]},${n[i + 1]}`);
      continue;
    }
    if (!bare || /^(?:and|then)$/i.test(bare)) {
      flush();
      continue;
    }
    name.push(bare);
    if (piece.endsWith(',')) flush();
  }
  flush();
  return items;
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
        if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 100) throw new Refusal(`"withdraw" is the number of units left at which the side leaves the field, not "${clip(String(f.withdraw))}"`, 'e.g. "withdraw at 2" (0: fight to the last)');
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

/** A plan's battlefield, obstacles and aspect burning (docs/orders.md, "Battle plans"; docs/rules.md W23–W24). */
function planField(f: RawFields): Pick<BattlePlanOrder, 'field' | 'obstacles' | 'burn'> {
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
    const m = /^\s*["“]?([^"”]+?)["”]?\s+(?:for|as|into)\s+(zones?|obstacles?)\s*$/i.exec(text(f.burn, 'burn'));
    if (!m) throw new Refusal(`cannot read the burn "${clip(text(f.burn, 'burn'))}"`, 'e.g. burn "Watchers on the Starkrock" for obstacles (or for zones)');
    burn = { aspect: aspectName(m[1]), for: (m[2] ?? '').toLowerCase().startsWith('zone') ? 'zones' : 'obstacles' };
  }
  return { ...opt('field', field), ...opt('obstacles', obstacles), ...opt('burn', burn) };
}

const INVOKE_USAGE = 'e.g. invoke "High Walls" on the battle at 25,6 — on the assault on Cinderford, on the siege of Cinderford, on the roll bandits; add "fate" to pay, "reroll" to re-roll';

function aspectName(value: unknown): string {
  const name = unquote(text(value, 'aspect')).replace(/\s+/g, ' ');
  if (name.length > 60) throw new Refusal('an aspect is named in at most 60 characters');
  if (name.includes('"')) throw new Refusal('an aspect\'s name holds no double quotes');
  return name;
}

/** "leader" (or the leader's own name is not needed), or one of the nation's units. */
function aspectActor(value: unknown, book: NameBook, usage: string): AspectActor {
  if (value === undefined) throw new Refusal('say who makes the roll: "with leader" or "with <diplomatic unit>"', usage);
  const written = text(value, 'with');
  if (/^(?:the\s+|our\s+|my\s+)?(?:leader|ruler)$/i.test(written)) return { leader: true };
  return { unit: take(book.ownUnit(written)) };
}

/** Where an aspect is made: a hex ("25,6", "the region at 25,6"), a nation, a settlement or a unit in sight. */
function aspectPlace(written: string, book: NameBook, campaign: Campaign): AspectPlace {
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
function invokeHelp(written: string, f: RawFields, campaign: Campaign): { roll: string; help?: InvokeOrder['help'] } {
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
function invokeTarget(written: string, book: NameBook): InvokeTarget {
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

function payWord(value: unknown): 'free' | 'fate' {
  const w = String(value).trim().toLowerCase();
  if (w === 'free') return 'free';
  if (['fate', 'paid', 'pay'].includes(w)) return 'fate';
  throw new Refusal(`"pay" is free or fate, not "${clip(w)}"`, 'free spends a free invoke; fate pays Fate');
}

const unquote = (s: string) => s.replace(/^["“”]+|["“”]+$/g, '').trim();

function bonuses(value: unknown): Bonus[] | undefined {
  if (value === undefined || value === null) return undefined;
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(/\s*,\s*|\s+and\s+/i).filter(Boolean) : [value];
  if (items.length > 8) throw new Refusal('a unit can have at most a few bonuses');
  return items.map((b) => {
    if (typeof b === 'string') return bonusFromText(b);
    if (typeof b !== 'object' || b === null || typeof (b as Bonus).value !== 'number') {
      throw new Refusal('each bonus is written like "+2 vs cavalry" (or {value: 2, vs: {classes: [cavalry]}})');
    }
    return b as Bonus;
  });
}

const BONUS_TEXT = /^(?:bonus\s+)?([+-]?\d{1,2})(?:\s+(?:vs\.?|versus|against)\s+([^()]+?))?(?:\s*\(\s*(open|siege)\s*\))?$/i;

/**
 * "+2 vs cavalry", "+1 vs infantry/cavalry (open)", "+1 vs dwarven": the way
 * the engine prints bonuses, read back. Words that are unit classes (or
 * "structure") are classes; any other word is an affiliation.
 */
export function bonusFromText(raw: string): Bonus {
  const m = BONUS_TEXT.exec(raw.trim());
  if (!m) throw new Refusal(`cannot read the bonus "${clip(raw)}"`, 'write it like "+2 vs cavalry" or "+1 vs infantry/cavalry (open)"');
  const value = Number(m[1]);
  const bonus: Bonus = { value };
  if (m[2]) {
    const vs: BonusTarget = {};
    const classes: (UnitClass | 'structure')[] = [];
    for (const word of m[2].split(/\s*(?:\/|\s+or\s+)\s*/i).map((w) => w.trim().toLowerCase()).filter(Boolean)) {
      const cls = word.replace(/s$/, '');
      if ((UNIT_CLASSES as readonly string[]).includes(word) || word === 'structure') classes.push(word as UnitClass | 'structure');
      else if ((UNIT_CLASSES as readonly string[]).includes(cls) || cls === 'structure') classes.push(cls as UnitClass | 'structure');
      else if (!vs.affiliation) vs.affiliation = word;
      else throw new Refusal(`a bonus applies against one affiliation, not "${vs.affiliation}" and "${clip(word)}"`);
    }
    if (classes.length) vs.classes = classes;
    bonus.vs = vs;
  }
  if (m[3]) bonus.situation = m[3].toLowerCase() as Bonus['situation'] & string;
  return bonus;
}
