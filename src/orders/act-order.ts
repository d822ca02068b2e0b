import type { Campaign } from '../core/campaign.js';
import type { HexKey, NationId, SettlementId, UnitId } from '../core/ids.js';
import type { ActTarget, Order } from '../core/orders.js';
import type { ActionDef } from '../core/world/action-types.js';
import { fate, list, opt, Refusal, take, text } from './fields.js';
import type { RawFields } from './interpret.js';
import { clip, normName, type NameBook, type Resolved } from './names.js';
import { nationNamed } from './press-recipients.js';
import { didYouMean } from '../text/suggest.js';

/**
 * An action order's fields resolved (`act: <unit>`, `action`, `target`,
 * `aim`, `fate`): the action by id or name, the target by the kinds the
 * action aims at, tried in its order (docs/orders.md).
 */
/** An action of the catalogue by id ("espionage") or name ("Trade route"). */
function actionNamed(campaign: Campaign, written: string): ActionDef {
  const entries = Object.values(campaign.actions?.entries ?? {});
  const want = normName(written);
  const found = entries.find((a) => normName(a.id) === want || normName(a.name) === want);
  if (found) return found;
  if (!entries.length) throw new Refusal('this campaign has no actions', 'the GM lists them in actions.yaml');
  throw new Refusal(`there is no action "${clip(written)}"`, didYouMean(written, entries.flatMap((a) => [a.id, a.name])) ?? `actions are: ${entries.map((a) => a.id).sort().join(', ')}`);
}

/** "nation", "settlement" or "hex" named as a player writes it, tried in the action's order of target kinds. */
function actTarget(def: ActionDef, written: unknown, book: NameBook, campaign: Campaign): ActTarget {
  if (def.targets.includes('route')) {
    const ends = list(written, 'target');
    if (ends.length !== 2) throw new Refusal(`${def.name} runs between two settlements, not ${ends.length}`, `e.g. "${def.verb} Argentum and Irongate"`);
    return { route: [take(book.settlement(ends[0]!)), take(book.settlement(ends[1]!))] };
  }
  const name = text(written, 'target');
  let first: Refusal | undefined;
  let hint: string | undefined;
  for (const kind of def.targets) {
    if (kind === 'structure') {
      // "the mine at 9,4", "structure at 9,4" or its id, as an attack names one.
      const r = book.structureTarget(name) ?? { ok: false as const, reason: `no structure "${clip(name)}"`, hint: 'name a mine or dig site by where it stands, e.g. "the mine at 9,4"' };
      if (r.ok) return r.value;
      first ??= new Refusal(r.reason, r.hint);
      hint ??= r.hint;
      continue;
    }
    const r = kind === 'nation' ? nationResolved(campaign, name) : kind === 'settlement' ? book.settlement(name) : kind === 'unit' ? book.unit(name) : book.hex(name);
    if (r.ok) return kind === 'nation' ? { nation: r.value as NationId } : kind === 'settlement' ? { settlement: r.value as SettlementId } : kind === 'unit' ? { unit: r.value as UnitId } : { hex: r.value as HexKey };
    first ??= new Refusal(r.reason, r.hint);
    hint ??= r.hint;
  }
  if (def.targets.length === 1 && first) throw first;
  throw new Refusal(`no ${def.targets.join(' or ')} "${clip(name)}"`, hint ?? `${def.name} aims at a ${def.targets.join(' or a ')}`);
}

function nationResolved(campaign: Campaign, name: string): Resolved<NationId> {
  const n = nationNamed(campaign, name);
  return n.ok ? { ok: true, value: n.id } : n;
}

export function actOrder(f: RawFields, book: NameBook, campaign: Campaign, ownUnit: () => UnitId): Order {
  if (f.action === undefined) throw new Refusal('say which action the unit takes', 'e.g. "act espionage with Whisperer Lisane on Gondarahl"');
  const def = actionNamed(campaign, text(f.action, 'action'));
  if (f.target === undefined) throw new Refusal(`${def.name} needs a target: ${def.targets.includes('route') ? 'two settlements' : `a ${def.targets.join(' or a ')}`}`, `e.g. "<unit> ${def.verb} <target>"`);
  const unit = ownUnit();
  const target = actTarget(def, f.target, book, campaign);
  const aim = f.aim === undefined ? undefined : aimOf(text(f.aim, 'aim'), book);
  return { kind: 'act', unit, action: def.id, target, ...opt('aim', aim), ...opt('fate', fate(f.fate)) };
}

/** A sabotage's mark: a structure (by id or name), "battlement" or "work". */
function aimOf(written: string, book: NameBook): string {
  const w = normName(written).replace(/^(?:the|a|its) /, '');
  if (/^battlements?$/.test(w) || w === 'walls') return 'battlement';
  if (['work', 'works', 'build', 'builds', 'work in progress', 'construction'].includes(w)) return 'work';
  const s = book.structure(written);
  if (s.ok) return s.value;
  throw new Refusal(`cannot aim at "${clip(written)}"`, `${s.hint ? `${s.hint}; ` : ''}aim at a structure, "battlement" or "work"`);
}

