import { Document } from 'yaml';
import { burnText, type NationOrders, type Order, type SiegeStep } from '../core/orders.js';
import { aspectPlaceText, invokeTargetWritten } from '../core/order-text.js';
import { plainText } from '../text/escape.js';

/**
 * Typed orders back to a YAML order file, with ids only, so that reading it
 * (readYamlSheet + interpretSheet, as the turn does) gives the same orders.
 * The mail loop uses it to file text orders as orders/<turn>/<nation>.yaml;
 * given `written`, each order keeps how the player wrote it (`written:`) and
 * the line of the mail it stood on (`line:`), which the reader takes back out
 * of the order: the report's refusals and "show orders" then quote the
 * player's line, numbered as in the receipt. Refused lines are not written:
 * the receipt already told the player about them.
 */
const siegeStepWritten = (step: SiegeStep): string => (step.battlement === undefined ? step.action : `${step.action} +${step.battlement}`);

export function ordersToYaml(orders: NationOrders, opts: { token?: string; written?: readonly string[] } = {}): string {
  const body: Record<string, unknown> = { nation: orders.nation, turn: orders.turn };
  if (opts.token !== undefined) body.token = opts.token;
  if (orders.casualties?.length) body.casualties = [...orders.casualties];
  body.orders = orders.orders.map((o, i) => {
    const fields = fieldsOf(o);
    if (!opts.written) return fields;
    const line = orders.lines?.[i];
    const text = opts.written[i];
    // One line, and what the player wrote may hold anything the text format cannot (escape.ts).
    return { ...fields, ...(line ? { line } : {}), ...(text ? { written: plainText(text.replace(/[\r\n]+/g, ' ')) } : {}) };
  });
  return new Document(body).toString({ lineWidth: 0 });
}

/** One order as the fields a YAML order file holds (see ORDER_KEYS in interpret.ts). */
export function fieldsOf(o: Order): Record<string, unknown> {
  const some = <T>(key: string, v: T[] | undefined) => (v?.length ? { [key]: [...v] } : {});
  const maybe = (key: string, v: unknown) => (v === undefined ? {} : { [key]: v });
  const target = (t: { unit: string } | { settlement: string } | { external: string }) => ('unit' in t ? t.unit : 'external' in t ? t.external : t.settlement);
  switch (o.kind) {
    case 'move':
      return { move: o.unit, to: o.to, ...some('path', o.path), ...some('carry', o.carry), ...maybe('land', o.landAt), ...maybe('abandon', o.abandon) };
    case 'attack':
      return { attack: o.unit, target: target(o.target), ...some('support', o.support), ...maybe('fate', o.fate), ...some('casualties', o.casualties), ...maybe('abandon', o.abandon), ...maybe('destroy', o.destroy) };
    case 'defend':
      return { defend: o.unit, protect: target(o.protect), ...maybe('fate', o.fate) };
    case 'rest':
      return { rest: o.unit };
    case 'hold':
      return { hold: o.unit, ...maybe('fate', o.fate) };
    case 'build_unit':
      return { build: o.settlement, unit: o.unitType, ...maybe('name', o.name), ...some('bonuses', o.bonuses) };
    case 'build_structure':
      return { build: o.settlement, structure: o.structure };
    case 'build_battlement':
      return { build: o.settlement, battlement: o.level };
    case 'construct':
      return { construct: o.unit, structure: o.structure };
    case 'found':
      return { found: o.unit, name: o.name };
    case 'upgrade':
      return { upgrade: o.settlement };
    case 'siege_action':
      return { siege: o.unit, action: siegeStepWritten(o), ...some('then', o.then?.map(siegeStepWritten)), ...maybe('fate', o.fate) };
    case 'sortie':
      return { sortie: o.unit, target: o.target, ...maybe('fate', o.fate) };
    case 'assault':
      return { assault: o.unit, ...some('support', o.support), ...maybe('fate', o.fate), ...some('casualties', o.casualties) };
    case 'explore':
      return { explore: o.unit, ...maybe('fate', o.fate) };
    case 'answer':
      return { answer: o.event, ...maybe('choice', o.choice), ...maybe('fate', o.fate) };
    case 'note':
      return { note: o.text };
    case 'act': {
      const t = o.target;
      const target = 'nation' in t ? t.nation : 'settlement' in t ? t.settlement : 'unit' in t ? t.unit : 'hex' in t ? t.hex : 'external' in t ? t.external : [...t.route];
      return { act: o.unit, action: o.action, target, ...maybe('aim', o.aim), ...maybe('fate', o.fate) };
    }
    case 'accept_trade':
      return { accept_trade: o.with };
    case 'hunt_spies':
      return o.letGo ? { hunt_spies: 'let go' } : { hunt_spies: 'hunt', ...maybe('fate', o.fate) };
    case 'heir':
      return { heir: o.name, ...(o.ability ? { ability: o.ability } : {}) };
    case 'battle_plan':
      return { plan: o.stance, ...maybe('withdraw', o.withdrawAt), ...maybe('tie', o.onTie), ...maybe('target', o.target), ...maybe('reserve', o.reserve), ...maybe('until', o.reserveUntil), ...maybe('field', o.field), ...maybe('obstacles', o.obstacles), ...(o.burn ? { burn: burnText(o.burn) } : {}) };
    case 'press':
      return { press: o.to === 'all' ? 'all' : [...o.to], text: o.text, ...(o.anonymous ? { anonymous: true } : {}) };
    case 'create_advantage':
      return { advantage: o.aspect, with: 'leader' in o.by ? 'leader' : o.by.unit, ...(o.on ? { on: aspectPlaceText(o.on) } : {}) };
    case 'overcome':
      return { overcome: o.aspect, with: 'leader' in o.by ? 'leader' : o.by.unit };
    case 'invoke':
      return { invoke: o.aspect, on: invokeTargetWritten(o.on), ...(o.help ? ('for' in o.help ? { for: o.help.for } : { against: o.help.against }) : {}), ...maybe('pay', o.pay), ...maybe('reroll', o.reroll) };
  }
}
