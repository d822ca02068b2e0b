import type { Campaign } from './campaign.js';
import { bonusText } from './checks/settlement-orders.js';
import type { NationId } from './ids.js';
import { burnText, type AspectActor, type InvokeTarget, type Order, type SiegeStep } from './orders.js';
import type { AspectPlace, GameState } from './state.js';

/**
 * An order written back as one line of the plain-text order language
 * (docs/orders.md), with ids: "attack gondarahl-3 with argenta-1 supported by
 * argenta-4 fate 2". What the GM's list of orders and the engine's refusals
 * show when the player's own words are not at hand; read back through the
 * text reader it gives the same order. Given `names`, settlements, unit
 * types and structures are written by their names, as a player writes them
 * ("build structure Military Academy in Starkhold"); units keep their ids.
 */
export interface OrderNames {
  settlement(id: string): string;
  unitType(id: string): string;
  structure(id: string): string;
  external(id: string): string;
}

/** Names as a nation's sheet would write them, from the campaign and a state (settlements founded since keep their names). */
export function orderNames(campaign: Campaign, state: GameState, nation: NationId): OrderNames {
  return {
    settlement: (id) => state.settlements[id as keyof GameState['settlements']]?.name ?? id,
    unitType: (id) => campaign.nations[nation]?.unitTypes[id]?.name ?? id,
    structure: (id) => campaign.structures[id]?.name ?? id,
    external: (id) => campaign.externals[id]?.name ?? id,
  };
}

const IDS: OrderNames = { settlement: (id) => id, unitType: (id) => id, structure: (id) => id, external: (id) => id };

export function orderText(order: Order, names: OrderNames = IDS): string {
  const fate = (n: number | undefined) => (n ? ` fate ${n}` : '');
  const list = (phrase: string, ids: readonly string[] | undefined) => (ids?.length ? ` ${phrase} ${ids.join(', ')}` : '');
  const abandon = (yes: boolean | undefined) => (yes ? ' abandoning' : '');
  switch (order.kind) {
    case 'move':
      return `move ${order.unit} to ${order.to}${order.path?.length ? ` via ${order.path.join(' ')}` : ''}${list('carrying', order.carry)}${order.landAt ? ` landing at ${order.landAt}` : ''}${abandon(order.abandon)}`;
    case 'attack': {
      const target = 'unit' in order.target ? order.target.unit : 'external' in order.target ? order.target.external : names.settlement(order.target.settlement);
      return `${order.destroy ? 'raze' : 'attack'} ${target} with ${order.unit}${list('supported by', order.support)}${fate(order.fate)}${list('losses', order.casualties)}${abandon(order.abandon)}`;
    }
    case 'defend':
      return `defend ${'unit' in order.protect ? order.protect.unit : 'external' in order.protect ? order.protect.external : names.settlement(order.protect.settlement)} with ${order.unit}${fate(order.fate)}`;
    case 'rest':
      return `rest ${order.unit}`;
    case 'hold':
      return `hold ${order.unit}${fate(order.fate)}`;
    case 'build_unit':
      return `build ${names.unitType(order.unitType)}${order.name ? ` ${named(order.name)}` : ''} in ${names.settlement(order.settlement)}${order.bonuses?.length ? ` with bonus ${order.bonuses.map(bonusText).join(', ')}` : ''}`;
    case 'build_structure':
      return `build structure ${names.structure(order.structure)} in ${names.settlement(order.settlement)}`;
    case 'build_battlement':
      return `build battlement +${order.level} in ${names.settlement(order.settlement)}`;
    case 'construct':
      return `construct ${names.external(order.structure)} with ${order.unit}`;
    case 'found':
      return `found ${named(order.name)} with ${order.unit}`;
    case 'upgrade':
      return `upgrade ${names.settlement(order.settlement)}`;
    case 'siege_action': {
      const step = (s: SiegeStep) => (s.action === 'poison_water' ? 'poison water' : `battlement${s.battlement === undefined ? '' : ` +${s.battlement}`}`);
      return `siege ${order.action === 'destroy_battlement' ? 'destroy ' : ''}${step(order)} with ${order.unit}${order.then?.length ? ` then ${order.then.map(step).join(', ')}` : ''}${fate(order.fate)}`;
    }
    case 'sortie':
      return `sortie ${order.unit} against ${order.target}${fate(order.fate)}`;
    case 'assault':
      return `assault with ${order.unit}${list('supported by', order.support)}${fate(order.fate)}${list('losses', order.casualties)}`;
    case 'note':
      return `note ${order.text.replace(/\r\n|\r|\n/g, ' ↵ ')}`;
    case 'press':
      return `press ${order.anonymous ? 'unsigned ' : ''}to ${order.to === 'all' ? 'all' : order.to.join(', ')}: ${order.text.replace(/\r\n|\r|\n/g, ' ↵ ')}`;
    case 'answer':
      return `answer ${order.event}${order.choice ? ` ${order.choice}` : ''}${fate(order.fate)}`;
    case 'explore':
      return `explore ${order.unit}${fate(order.fate)}`;
    case 'act': {
      const t = order.target;
      const target = 'nation' in t ? t.nation : 'settlement' in t ? names.settlement(t.settlement) : 'unit' in t ? t.unit : 'hex' in t ? t.hex : 'external' in t ? t.external : `${names.settlement(t.route[0])} and ${names.settlement(t.route[1])}`;
      return `act ${order.action} with ${order.unit} on ${target}${order.aim ? ` aiming at ${order.aim}` : ''}${fate(order.fate)}`;
    }
    case 'accept_trade':
      return `accept trade with ${order.with}`;
    case 'hunt_spies':
      return order.letGo ? 'let spies go' : `hunt spies${fate(order.fate)}`;
    case 'battle_plan':
      return `plan ${order.stance}${order.withdrawAt !== undefined ? ` withdraw at ${order.withdrawAt}` : ''}${order.onTie ? ` on tie ${order.onTie}` : ''}${order.target ? ` target ${order.target}` : ''}${order.reserve !== undefined ? ` reserve ${order.reserve}` : ''}${order.reserveUntil !== undefined ? ` until ${order.reserveUntil}` : ''}${order.field ? ` field ${order.field}` : ''}${order.obstacles ? ` obstacles ${order.obstacles}` : ''}${order.burn ? ` burn ${burnText(order.burn)}` : ''}`;
    case 'heir':
      return `heir ${named(order.name)}${order.ability ? ` with ability ${order.ability}` : ''}`;
    case 'create_advantage':
      return `create advantage "${order.aspect}" with ${actorText(order.by)}${order.on ? ` on ${aspectPlaceText(order.on, names)}` : ''}`;
    case 'overcome':
      return `overcome "${order.aspect}" with ${actorText(order.by)}`;
    case 'invoke':
      return `invoke "${order.aspect}" on ${invokeTargetWritten(order.on, names)}${order.help ? ('for' in order.help ? ` for ${order.help.for}` : ` against ${order.help.against}`) : ''}${order.pay ? ` ${order.pay}` : ''}${order.reroll ? ' reroll' : ''}`;
  }
}

const actorText = (by: AspectActor) => ('leader' in by ? 'leader' : by.unit);

/** An aspect's place as an order writes it: a nation, settlement or unit by name or id, a region by its hex. */
export function aspectPlaceText(on: AspectPlace, names: OrderNames = IDS): string {
  if ('nation' in on) return on.nation;
  if ('settlement' in on) return names.settlement(on.settlement);
  if ('unit' in on) return on.unit;
  return on.hex;
}

/** The roll an invoke is for, as an order writes it ("the battle at 25,6", "the siege of Cinderford"). */
export function invokeTargetWritten(on: InvokeTarget, names: OrderNames = IDS): string {
  if ('battle' in on) return `the battle at ${on.battle}`;
  if ('assault' in on) return `the assault on ${names.settlement(on.assault)}`;
  if ('siege' in on) return `the siege of ${names.settlement(on.siege)}`;
  return `the roll ${on.roll}`;
}

/** A new name in double quotes, so that words in it ("and", "with") stay part of it. */
function named(name: string): string {
  return name.includes('"') ? `named ${name}` : `"${name}"`;
}
