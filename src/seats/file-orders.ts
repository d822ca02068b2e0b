import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../host/atomic-file.js';
import { nationOrdersFromBytes, ordersDir, type PendingOrders } from '../orders/pending.js';
import { orderFolderNames, planOrderFolder, seatFileName } from '../campaign/order-folder.js';
import type { OpenCampaign } from '../campaign/store.js';
import { planCaretaker, type CaretakerPlan } from '../core/caretaker/plan.js';
import { asNationId, type NationId } from '../core/ids.js';
import { orderText } from '../core/order-text.js';
import type { SeatPolicy } from '../core/orders.js';
import type { GameState } from '../core/state.js';
import { fieldsOf } from '../orders/yaml-write.js';
import { writeYaml } from '../campaign/yaml-io.js';
import { seatDecisions, type SeatDecision } from './policy.js';
import { seatsOf } from './settings.js';

/**
 * A seat's policy's orders as a file the GM reads, previews and overrides:
 * orders/NNNN/<nation>.caretaker.yaml (or .disorder.yaml), an ordinary order
 * file with the caretaker's reason above each order. The nation's own
 * <nation>.yaml — its player's, or the GM's in its place — always wins over
 * it. Filed when the turn opens (open-turn.ts) and, should it be missing when
 * the turn resolves, planned then from the same state with the same dice, so
 * the turn keeps it whichever way it came.
 */
export interface SeatFiling {
  nation: NationId;
  policy: SeatPolicy;
  /** The file's name in orders/NNNN/. */
  name: string;
  yaml: string;
  plan: CaretakerPlan;
}

export function seatOrdersYaml(plan: CaretakerPlan, nationName: string): string {
  const o = plan.orders;
  const who = o.seat?.policy === 'disorder' ? 'civil disorder (its forces only defend)' : `a caretaker (${o.seat?.caretaker ?? 'steward'})`;
  const header = [
    `Orders of ${nationName} for turn ${o.turn}, given by ${who}: its player sent none`,
    'for too long (docs/operations.md, "Missing players"). Planned from the state after',
    `turn ${o.turn - 1} as the nation sees it. The nation's own ${o.nation}.yaml, sent by its`,
    'player or written by the GM, replaces these whole.',
    ...plan.rolls.map((r) => `The caretaker's d100 for "${r.step}" (${r.chance}%): ${r.roll}, ${r.ran ? 'taken' : 'passed over'}.`),
    ...plan.dropped.map((d) => `Left out, refused by the checker: ${orderText(d.order)} (${d.reason}).`),
  ];
  // Written as text (a thousand of these a turn): each order a YAML block item with its reason above it.
  const lines = [...header.map((h) => comment(h)), '', writeYaml({ nation: o.nation, turn: o.turn }).trimEnd(), o.orders.length ? 'orders:' : 'orders: []'];
  o.orders.forEach((order, i) => {
    lines.push(`  ${comment(plan.reasons[i] ?? '')}`);
    lines.push(indentItem(writeYaml([fieldsOf(order)]).trimEnd()));
  });
  if (o.orders.length === 0) lines.push(comment('Nothing to do: the forces hold where they stand.'));
  return `${lines.join('\n')}\n`;
}

/** A comment line: the text on one line, whatever it holds. */
const comment = (text: string) => `# ${text.replace(/[\r\n]+/g, ' ')}`.trimEnd();

/** A top-level list item ("- a: 1\n  b: 2") indented under `orders:`. */
const indentItem = (item: string) => item.split('\n').map((l) => `  ${l}`).join('\n');

/**
 * The seats whose policy concerns the pending turn, from the campaign's files and the nations the GM dropped
 * (runtime.yaml `dropped`, which the schedule passes: dropped nations hold).
 */
export function seatsInCare(open: OpenCampaign, state: GameState, dropped: Iterable<string> = []): SeatDecision[] {
  const seats = seatsOf(open.file, open.campaign);
  const nothingToDo = seats.campaign.policy.every((p) => p === 'hold') && Object.values(seats.nations).every((n) => !n.policy || n.policy.every((p) => p === 'hold'));
  if (nothingToDo) return [];
  return seatDecisions({ campaign: open.campaign, file: open.file, seats, state, dropped: new Set(dropped) });
}

/** Plans the orders of every seat in care that `without` says has none, in id order. */
export function planSeatFilings(open: OpenCampaign, state: GameState, decisions: readonly SeatDecision[], without: (nation: NationId) => boolean): SeatFiling[] {
  const out: SeatFiling[] = [];
  for (const d of decisions) {
    if (d.atResolution === 'hold' || !without(d.nation)) continue;
    const policy = d.atResolution;
    const plan = planCaretaker({ campaign: open.campaign, state, nation: d.nation, policy, ...(policy === 'caretaker' && d.caretaker ? { caretaker: d.caretaker } : {}) });
    out.push({ nation: d.nation, policy, name: seatFileName(d.nation, policy), yaml: seatOrdersYaml(plan, open.campaign.nations[d.nation]?.name ?? d.nation), plan });
  }
  return out;
}

/**
 * The turn's orders with those of every seat in care that has none on file: planned now, read back as any
 * order file is, and kept with the turn. Used by the turn itself (run-turn.ts) and the benchmark.
 */
export async function withSeatOrders(open: OpenCampaign, state: GameState, pending: PendingOrders, dropped: Iterable<string> = []): Promise<PendingOrders> {
  const decisions = seatsInCare(open, state, dropped);
  if (decisions.length === 0) return pending;
  const filings = planSeatFilings(open, state, decisions, (n) => pending.orders.nations[n] === undefined);
  if (filings.length === 0) return pending;
  const read = await nationOrdersFromBytes(open, state, filings.map((f) => ({ nation: f.nation, policy: f.policy, bytes: Buffer.from(f.yaml) })));
  const files = { ...pending.files };
  for (const f of filings) files[f.name] = { bytes: Buffer.from(f.yaml) };
  return { orders: { ...pending.orders, nations: { ...pending.orders.nations, ...read } }, files, unread: pending.unread };
}

/** Files the orders of every seat in care for the pending turn, where neither they nor the nation's own are on file. */
export async function fileSeatOrders(open: OpenCampaign, state: GameState, turn: number, dropped: Iterable<string> = []): Promise<SeatFiling[]> {
  const decisions = seatsInCare(open, state, dropped);
  if (decisions.length === 0) return [];
  const dir = ordersDir(open.dir, turn);
  // A nation's own orders in any form (.yaml, .yml, .txt: order-folder.ts), or a seat file already there, leave it be.
  const folder = planOrderFolder(await orderFolderNames(dir), (id) => open.campaign.nations[asNationId(id)] !== undefined);
  const onFile = new Set<string>([...folder.orders.map((o) => o.nation), ...folder.clashes.map((c) => c.nation), ...folder.seats.map((s) => s.nation)]);
  const filings = planSeatFilings(open, state, decisions, (n) => !onFile.has(n));
  if (filings.length === 0) return [];
  await mkdir(dir, { recursive: true });
  for (const f of filings) await writeFileAtomic(join(dir, f.name), f.yaml, { fsync: true });
  return filings;
}
