import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readState, turnDirName } from '../campaign/store.js';
import { asNationId, type NationId } from '../core/ids.js';
import type { GameState } from '../core/state.js';
import { editCampaignFile } from '../campaign/campaign-file.js';
import { withGm, type GmContext } from './context.js';
import type { FileWrite } from '../campaign/journal.js';
import { checkEmails, envTokenWarnings, hasStartingState, latestStateWrites, type NationOptions } from './nations.js';
import { storyWrite } from '../campaign/gm-story.js';
import { newNationReportWrites, stepOutOfSeceded, withCatalogues } from './split-aftermath.js';

/**
 * Civil war (issue 22; the rules: a leader's death "can be part of a civil
 * war, in which case the nation itself may split"): chosen settlements and
 * units of a nation break away as a new nation, with its own name and leader,
 * its indicators set, and its own player and token (or none, left to the GM).
 * Like the other nation operations it edits campaign.yaml and the latest
 * state in one journaled commit, keeping the state as it was beside it; and
 * it writes the story into the pending turn's `_gm.yaml` as two one-off
 * events, so both nations' next reports tell it.
 */
export interface SplitNationOptions extends NationOptions {
  name: string;
  leader: string;
  /** Settlements and units that break away, by id or name. */
  settlements: string[];
  units: string[];
  email?: string[];
  /** The new nation's indicators; by default the old nation's. */
  prosperity?: number;
  happiness?: number;
}

export interface SplitNationResult {
  nation: NationId;
  from: NationId;
  /** The new nation was given an order token (in the secrets file; never printed): a player was named. */
  tokenIssued: boolean;
  moved: { units: number; settlements: number; builds: number };
  /** The turn whose state now holds it; its first orders are for the pending turn. */
  turn: number;
  warnings: string[];
}

export async function splitNation(dir: string, nation: string, newId: string, opts: SplitNationOptions): Promise<SplitNationResult> {
  return withGm(dir, `nation split ${nation} ${newId}`, opts, async (ctx) => {
    const rt = ctx.runtime;
    const def = ctx.open.file.nations[nation] ?? ctx.refuse(`there is no nation "${nation}" in campaign.yaml`);
    if (ctx.open.file.nations[newId]) ctx.refuse(`there is already a nation "${newId}" in campaign.yaml`);
    if (!/^[a-z][a-z0-9_-]*$/.test(newId)) ctx.refuse(`"${newId}" cannot be a nation's id: lower-case letters, digits, "-" and "_", starting with a letter`);
    if (rt.operation) ctx.refuse(`a GM operation was interrupted; finish it first: ${rt.operation.command}`);
    if (rt.dropped[nation]) ctx.refuse(`${nation} was dropped; it has no one to rebel against`);
    if (!hasStartingState(dir)) ctx.refuse('the campaign has not started: split the nation in campaign.yaml itself');
    if (opts.email?.length) checkEmails(ctx, opts.email);
    const from = asNationId(nation);
    const id = asNationId(newId);
    const state = await readState(dir, ctx.latest, ctx.open.campaign);
    const settlements = chosen(ctx, 'settlement', opts.settlements, Object.values(state.settlements).filter((s) => s.nation === from));
    const units = chosen(ctx, 'unit', opts.units, Object.values(state.units).filter((u) => u.nation === from));
    if (!settlements.length && !units.length) ctx.refuse('name at least one settlement (--settlements) or unit (--units) that breaks away');
    const keeps = Object.values(state.settlements).some((s) => s.nation === from && !settlements.includes(s.id)) || Object.values(state.units).some((u) => u.nation === from && !units.includes(u.id));
    if (!keeps) ctx.refuse(`${def.name} would keep nothing: that is a new player for it (fatecraft nation reassign), not a civil war`);

    const was = state.nations[from]!;
    const next: GameState = structuredClone(state);
    next.nations[id] = { id, renown: 0, fate: 0, prosperity: opts.prosperity ?? was.prosperity, happiness: opts.happiness ?? was.happiness, goals: [], battlesWon: 0, missedTurns: 0, unitSeq: 0, alive: true };
    const moved = { units: 0, settlements: 0, builds: 0 };
    for (const s of Object.values(next.settlements)) if (settlements.includes(s.id)) (s.nation = id), moved.settlements++;
    for (const u of Object.values(next.units)) if (units.includes(u.id)) (u.nation = id), moved.units++;
    for (const b of next.builds) if (b.nation === from && b.settlement && settlements.includes(b.settlement)) (b.nation = id), moved.builds++;
    const warnings: string[] = [];
    // The old nation's units left in a settlement that breaks away step out of it (rules.md L4).
    const out = stepOutOfSeceded(ctx.open.campaign, next, from, id);
    if (out.stuck) ctx.refuse(`${out.stuck} of ${def.name} stands in a settlement that breaks away and has nowhere near to step out to: let it go too (--units) or move it first`);
    for (const m of out.moved) warnings.push(`${m.name} of ${def.name} stood in ${m.settlement}, which breaks away: it steps out to ${m.to}`);

    // The unit types of the units that leave go with them (a campaign-wide type is everyone's already).
    const types = [...new Set(Object.values(next.units).filter((u) => u.nation === id).map((u) => u.type))].sort().filter((t) => def.unitTypes[t] !== undefined);
    const emails = opts.email ?? [];
    const edited = await editCampaignFile(dir, (doc) => {
      doc.setIn(
        ['nations', newId],
        doc.createNode({
          name: opts.name,
          leader: opts.leader,
          ability: `Broke away from ${def.name} in turn ${rt.turn}.`,
          caps: def.caps,
          start: { renown: 0, fate: 0, prosperity: next.nations[id]!.prosperity, happiness: next.nations[id]!.happiness },
          ...(types.length ? { unitTypes: Object.fromEntries(types.map((t) => [t, def.unitTypes[t]])) } : {}),
          email: emails,
          // The turns before this one are read and rendered without it (store.ts campaignAsOf).
          joined: ctx.latest,
        }),
      );
    });
    const writes: FileWrite[] = [{ path: 'campaign.yaml', content: edited.text }, ...(await latestStateWrites(ctx, `before-split-${nation}`, next))];
    // Its player is welcomed with its own report of the latest turn (and `resend report` sends it).
    writes.push(...(await newNationReportWrites(ctx, { dir, file: edited.file, campaign: withCatalogues(edited.campaign, ctx.open.campaign) }, next, newId)));
    const steppedOut = out.moved.length ? ` ${out.moved.map((m) => `${m.name} leaves ${m.settlement}`).join('; ')}.` : '';
    const story = {
      from: `${opts.name}, under ${opts.leader}, has broken away from ${def.name}: ${describeMoved(moved)} now follow the rebel banner.${steppedOut}`,
      to: `${opts.leader} raises the banner of ${opts.name} against ${def.name}: ${describeMoved(moved)} are yours.`,
    };
    writes.push(await storyWrite(dir, rt.turn, [
      { kind: 'event', nation, title: `Civil war: ${opts.name} breaks away`, text: story.from, tone: 'bad', effects: [] },
      { kind: 'event', nation: newId, title: `${opts.name} stands alone`, text: story.to, tone: 'good', effects: [] },
    ]));
    // The pending turn's orders folder may not exist yet (no orders sent so far).
    await mkdir(join(dir, 'orders', turnDirName(rt.turn)), { recursive: true });
    warnings.push(...envTokenWarnings(newId, emails.length > 0, ctx.env));
    await ctx.whole({
      kind: 'nation-split',
      command: `fatecraft nation split ${dir} ${nation} ${newId}`,
      files: writes,
      ...(emails.length ? { token: { nation: newId, action: 'issue' as const } } : {}),
      log: [{ op: 'nation-split', detail: `${newId} (${opts.name}) broke away from ${nation}: ${describeMoved(moved)}; ${emails.length ? `player ${emails.join(', ')}` : 'no player yet (the GM holds it)'}`, turn: rt.turn, players: { turn: rt.turn, text: story.from } }],
      notices: [
        { kind: 'nation-split', turn: rt.turn, nations: [nation], text: story.from },
        ...(emails.length ? [{ kind: 'nation-added' as const, turn: rt.turn, nations: [newId], text: `You now lead ${opts.name}. Your first orders are for turn ${rt.turn}, due ${ctx.local(rt.deadline)}.` }] : []),
      ],
    });
    return { nation: id, from, tokenIssued: emails.length > 0, moved, turn: ctx.latest, warnings };
  });
}

/** Ids of the nation's settlements or units named by id or (any case) by name; anything else refused. */
function chosen(ctx: GmContext, kind: string, wanted: string[], own: readonly { id: string; name?: string }[]): string[] {
  return wanted.map((w) => {
    const key = w.trim().toLowerCase();
    const hit = own.find((x) => x.id.toLowerCase() === key) ?? own.find((x) => x.name?.toLowerCase() === key);
    return hit?.id ?? ctx.refuse(`no ${kind} "${w}" of this nation (its ${kind}s: ${own.map((x) => (x.name ? `${x.name} (${x.id})` : x.id)).join(', ') || 'none'})`);
  });
}

const describeMoved = (m: { units: number; settlements: number }) =>
  [m.settlements ? `${m.settlements} settlement${m.settlements === 1 ? '' : 's'}` : '', m.units ? `${m.units} unit${m.units === 1 ? '' : 's'}` : ''].filter(Boolean).join(' and ');
