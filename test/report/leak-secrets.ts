/**
 * What one nation keeps from another, turn by turn: the leak test's list of searches, shared by the report
 * leak test (test/report/leak.test.ts) and the web desk's, which runs it over the pages the desk serves.
 */
import type { NationId, UnitId } from '../../src/core/ids.js';
import { sightOf, unitsNamedIn } from '../../src/report/nation-view.js';
import type { Played, PlayedTurn } from './support.js';

export interface Secret {
  what: string;
  test: (text: string) => boolean;
}

export const phrase = (what: string, s: string): Secret => ({ what, test: (text) => text.includes(s) });
export const number = (what: string, n: number): Secret => ({ what, test: (text) => new RegExp(`(?<![\\d.])${n}(?![\\d])`).test(text) });

export function secretsOf(t: PlayedTurn, played: Played, owner: NationId, reader: NationId, numbers = true): Secret[] {
  const campaign = played.open.campaign;
  const def = campaign.nations[owner];
  const secrets: Secret[] = [];
  if (!def) return secrets;
  // A goal the reader's spies found this turn is theirs to read (a secret_learned event of the reader's, about the owner).
  const spied = t.events.filter((e) => e.type === 'secret_learned' && e.nation === reader && e.about === owner).map((e) => (e.type === 'secret_learned' ? e.text : ''));
  for (const g of def.goals) if (!spied.some((text) => text.includes(g.text.trim()))) secrets.push(phrase(`goal "${g.id}"`, g.text));
  if (def.ability) secrets.push(phrase('leader ability', def.ability));
  const balances = new Set<number>();
  for (const s of [t.before, t.state]) {
    const n = s.nations[owner];
    if (n) balances.add(n.renown).add(n.fate);
  }
  for (const e of t.events) if (e.type === 'resource' && e.nation === owner) balances.add(e.balance);
  if (numbers) for (const b of balances) secrets.push(number('a Renown or Fate balance', b));
  for (const o of t.orders.nations[owner]?.orders ?? []) if (o.kind === 'note') secrets.push(phrase('a note to the GM', o.text));
  // A letter is for its readers only.
  for (const e of t.events) if (e.type === 'press' && e.from === owner && !e.nations.includes(reader)) secrets.push(phrase('a letter to others', e.text.split('\n')[0] ?? e.text));

  // Events are their nation's alone: their text, messages and discoveries. A public event's rumour is for all,
  // and a text the reader was told itself (the same entry, worded alike) is not the owner's secret.
  const told = new Set<string>();
  for (const e of t.events) if ((e.type === 'event_fired' || e.type === 'event_message') && e.nation === reader) told.add(e.text);
  for (const e of t.events) {
    if (e.type === 'event_fired' && e.nation === owner && !told.has(e.text)) secrets.push(phrase(`event "${e.event}"`, e.text));
    if (e.type === 'event_message' && e.nation === owner && !told.has(e.text)) secrets.push(phrase(`a message of event "${e.event}"`, e.text));
    if (e.type === 'resource_revealed' && e.nation === owner) secrets.push(phrase('a discovery', e.name));
    // What a nation's spies learned is for its eyes only.
    if (e.type === 'secret_learned' && e.nation === owner) secrets.push(phrase("a spy's findings", e.text));
  }

  // A nation's secret aspects (rules.fate.aspects) are its alone, unless invoked on a roll against the reader.
  const invokedAt = new Set<string>();
  for (const e of t.events) if (e.type === 'aspect_invoked' && e.nations.includes(reader)) invokedAt.add(e.aspect);
  for (const a of [...(t.before.aspects ?? []), ...(t.state.aspects ?? [])]) {
    if (a.secret && (a.owner ?? ('nation' in a.on ? a.on.nation : undefined)) === owner && owner !== reader && !invokedAt.has(a.name)) secrets.push(phrase(`secret aspect "${a.name}"`, a.name));
  }

  // Units of the owner the reader may not know of: not in its sight at the end, not met in an event it took part in.
  const seen = sightOf(campaign, t.state, reader);
  const met = new Set<string>();
  for (const e of t.events) if (e.nations.includes(reader)) for (const id of unitsNamedIn(e)) met.add(id);
  const units = new Map([...Object.values(t.before.units), ...Object.values(t.state.units)].filter((u) => u.nation === owner).map((u) => [u.id, u]));
  for (const [id, u] of units) {
    const visible = t.state.units[id as UnitId] !== undefined && seen.has(t.state.units[id as UnitId]!.hex);
    if (visible || met.has(id)) continue;
    secrets.push(phrase(`unseen unit id ${id}`, `(${id})`));
    if (u.name) secrets.push(phrase(`unseen unit name ${u.name}`, u.name));
  }
  return secrets;
}
