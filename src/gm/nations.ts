import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { initialState } from '../campaign/initial-state.js';
import { readState, stateYaml, turnDirName } from '../campaign/store.js';
import { asNationId, type NationId } from '../core/ids.js';
import type { GameState } from '../core/state.js';
import { editCampaignFile } from '../campaign/campaign-file.js';
import { newNationReportWrites, withCatalogues } from './split-aftermath.js';
import { nextAsideIndex, withGm, type GmContext, type GmOptions } from './context.js';
import type { FileWrite } from '../campaign/journal.js';
import { tokenVariable } from '../campaign/secrets.js';

/**
 * Nations joining, leaving and changing hands mid-campaign. Each edits
 * campaign.yaml and, where units or settlements change, the latest turn's
 * state.yaml — both in one journaled commit — after keeping the state as it
 * was beside it (turns/NNNN/state.before-<op>-<k>.yaml). Tokens go to the
 * secrets file (secrets.ts), never to the console; the players hear of it
 * through a notice that the next tick hands to the mail loop. Files, token,
 * log and notices are one whole operation (src/schedule/whole-operation.ts): a crash anywhere
 * ends, at the next command, with all of it or none of it.
 */

export type NationOptions = GmOptions;

const EMAIL = /^[^\s@<>]+@[^\s@<>]+$/;

export function checkEmails(ctx: GmContext, emails: string[]): void {
  if (emails.length === 0) ctx.refuse('give the player\'s address with --email');
  for (const e of emails) if (!EMAIL.test(e)) ctx.refuse(`"${e}" does not look like a mail address`);
}

export async function latestStateWrites(ctx: GmContext, label: string, next: GameState): Promise<FileWrite[]> {
  const turnDir = join(ctx.dir, 'turns', turnDirName(ctx.latest));
  const k = await nextAsideIndex(turnDir, label, 'state');
  return [
    { path: join('turns', turnDirName(ctx.latest), `state.${label}-${k}.yaml`), content: await readFile(join(turnDir, 'state.yaml')) },
    { path: join('turns', turnDirName(ctx.latest), 'state.yaml'), content: stateYaml(next) },
  ];
}

/** A warning when the nation's token comes from an environment variable, which beats the secrets file. */
export function envTokenWarnings(nation: string, changed: boolean, env: NodeJS.ProcessEnv): string[] {
  const variable = tokenVariable(nation);
  return changed && env[variable] ? [`${variable} is set in the environment and overrides the secrets file: change or unset it too`] : [];
}

export const hasStartingState = (dir: string) => existsSync(join(dir, 'turns', turnDirName(0)));

export interface AddNationOptions extends NationOptions {
  /** The nation's block as in campaign.yaml: name, leader, caps, start, units, settlements... */
  sheet: Record<string, unknown>;
  email?: string[];
}

export interface AddNationResult {
  nation: NationId;
  /** The turn whose state now includes it (its first orders are for the pending turn). */
  turn: number;
  warnings: string[];
}

export async function addNation(dir: string, nation: string, opts: AddNationOptions): Promise<AddNationResult> {
  return withGm(dir, `nation add ${nation}`, opts, async (ctx) => {
    if (ctx.open.file.nations[nation]) ctx.refuse(`there is already a nation "${nation}" in campaign.yaml`);
    if (ctx.runtime.operation) ctx.refuse(`a GM operation was interrupted; finish it first: ${ctx.runtime.operation.command}`);
    const emails = opts.email ?? (Array.isArray(opts.sheet.email) ? (opts.sheet.email as string[]) : []);
    checkEmails(ctx, emails);
    const started = hasStartingState(dir);
    const edited = await editCampaignFile(dir, (doc) => {
      // The turns before this one are read and rendered without it (store.ts campaignAsOf).
      doc.setIn(['nations', nation], doc.createNode({ ...opts.sheet, email: emails, ...(started ? { joined: ctx.latest } : {}) }));
    });
    const writes: FileWrite[] = [{ path: 'campaign.yaml', content: edited.text }];
    if (started) {
      const state = await readState(dir, ctx.latest, ctx.open.campaign);
      const start = initialState(edited.file);
      const id = asNationId(nation);
      const clash = (kind: string, ids: string[], taken: Record<string, unknown>) => {
        const used = ids.filter((i) => taken[i] !== undefined);
        if (used.length) ctx.refuse(`${kind} id(s) ${used.join(', ')} are already in use in turn ${ctx.latest}; give the new nation's ${kind}s other ids`);
      };
      const units = Object.values(start.units).filter((u) => u.nation === id);
      const settlements = Object.values(start.settlements).filter((s) => s.nation === id);
      const externals = Object.values(start.externals).filter((e) => e.nation === id);
      clash('unit', units.map((u) => u.id), state.units);
      clash('settlement', settlements.map((s) => s.id), state.settlements);
      clash('external', externals.map((e) => e.id), state.externals);
      const occupied = new Map(Object.values(state.settlements).map((s) => [s.hex as string, s.name]));
      for (const s of settlements) if (occupied.has(s.hex)) ctx.refuse(`${s.name} would stand on ${s.hex}, where ${occupied.get(s.hex)} is`);
      const next: GameState = structuredClone(state);
      next.nations[id] = start.nations[id]!;
      for (const u of units) next.units[u.id] = u;
      for (const s of settlements) next.settlements[s.id] = s;
      for (const e of externals) next.externals[e.id] = e;
      writes.push(...(await latestStateWrites(ctx, `before-add-${nation}`, next)));
      // Its player is welcomed with its own report of the latest turn (and `resend report` sends it).
      writes.push(...(await newNationReportWrites(ctx, { dir, file: edited.file, campaign: withCatalogues(edited.campaign, ctx.open.campaign) }, next, nation)));
    }
    const rt = ctx.runtime;
    const name = edited.file.nations[nation]?.name ?? nation;
    await ctx.whole({
      kind: 'nation-add',
      command: `fatecraft nation add ${dir} ${nation}`,
      files: writes,
      token: { nation, action: 'issue' },
      log: [{ op: 'nation-add', detail: `${nation} (${name}) joined, player ${emails.join(', ')}; its first orders are for turn ${rt.turn}`, turn: rt.turn, players: { turn: rt.turn, text: `${name} joined the game.` } }],
      notices: [{ kind: 'nation-added', turn: rt.turn, nations: [nation], text: `You now lead ${name}. Your first orders are for turn ${rt.turn}, due ${ctx.local(rt.deadline)}.` }],
    });
    return { nation: asNationId(nation), turn: ctx.latest, warnings: envTokenWarnings(nation, true, ctx.env) };
  });
}

export interface DropNationOptions extends NationOptions {
  /** hold: the nation stays, its units hold for ever (no orders). neutral: units and settlements pass to a neutral nation. */
  mode: 'hold' | 'neutral';
  /** The neutral nation's id (created if missing). */
  neutralId?: string;
}

export interface DropNationResult {
  nation: NationId;
  mode: 'hold' | 'neutral';
  /** With neutral: how many units, settlements, externals and builds changed hands. */
  moved?: { units: number; settlements: number; externals: number; builds: number };
  warnings: string[];
}

export async function dropNation(dir: string, nation: string, opts: DropNationOptions): Promise<DropNationResult> {
  return withGm(dir, `nation drop ${nation}`, opts, async (ctx) => {
    const rt = ctx.runtime;
    const def = ctx.open.file.nations[nation] ?? ctx.refuse(`there is no nation "${nation}" in campaign.yaml`);
    if (rt.dropped[nation]) ctx.refuse(`${nation} was already dropped (turn ${rt.dropped[nation].turn}, ${rt.dropped[nation].mode})`);
    if (rt.operation) ctx.refuse(`a GM operation was interrupted; finish it first: ${rt.operation.command}`);
    const neutral = opts.neutralId ?? 'neutral';
    if (opts.mode === 'neutral' && neutral === nation) ctx.refuse(`${nation} cannot pass its units to itself`);
    const neutralDef = ctx.open.file.nations[neutral];
    if (opts.mode === 'neutral' && neutralDef && !rt.dropped[neutral]) ctx.refuse(`"${neutral}" is a nation with a player; choose another id for the neutral nation with --neutral-as`);

    let moved: DropNationResult['moved'];
    const writes: FileWrite[] = [];
    let state: GameState | undefined;
    if (opts.mode === 'neutral' && hasStartingState(dir)) state = await readState(dir, ctx.latest, ctx.open.campaign);
    const edited = await editCampaignFile(dir, (doc) => {
      doc.setIn(['nations', nation, 'email'], doc.createNode([]));
      if (opts.mode !== 'neutral') return;
      if (!neutralDef) {
        doc.setIn(['nations', neutral], doc.createNode({ name: 'Neutral', leader: 'none', ability: 'Lands and forces without a ruler: they hold and defend, and never give orders.', caps: { military: 0, diplomatic: 0 }, start: { renown: 0, fate: 0, prosperity: 0, happiness: 0 }, email: [] }));
      }
      // The dropped nation's own unit types travel with its units.
      const types = new Set<string>();
      for (const u of Object.values(state?.units ?? {})) if (u.nation === nation) types.add(u.type);
      for (const b of state?.builds ?? []) if (b.nation === nation && b.project.kind === 'unit') types.add(b.project.unitType);
      for (const u of state ? [] : def.units) types.add(u.type);
      for (const t of [...types].sort()) {
        const own = def.unitTypes[t];
        if (!own) continue; // a campaign-wide type: every nation has it
        const existing = neutralDef?.unitTypes[t];
        if (existing && JSON.stringify(existing) !== JSON.stringify(own)) ctx.refuse(`the neutral nation already has a unit type "${t}" that differs from ${nation}'s; rename one of them in campaign.yaml first`);
        if (!existing) doc.setIn(['nations', neutral, 'unitTypes', t], doc.createNode(own));
      }
      if (!state) {
        // Not started yet: move the start sheets' units and settlements over in campaign.yaml itself.
        const list = (key: 'units' | 'settlements' | 'externals') => [...((neutralDef?.[key] as unknown[]) ?? []), ...(def[key] as unknown[])];
        for (const key of ['units', 'settlements', 'externals'] as const) {
          doc.setIn(['nations', neutral, key], doc.createNode(list(key)));
          doc.setIn(['nations', nation, key], doc.createNode([]));
        }
      }
    });
    writes.push({ path: 'campaign.yaml', content: edited.text });
    if (opts.mode === 'neutral' && state) {
      const next = structuredClone(state);
      const nid = asNationId(neutral);
      next.nations[nid] ??= { id: nid, renown: 0, fate: 0, prosperity: 0, happiness: 0, goals: [], battlesWon: 0, missedTurns: 0, unitSeq: 0, alive: true };
      next.nations[nid].alive = true;
      moved = { units: 0, settlements: 0, externals: 0, builds: 0 };
      for (const u of Object.values(next.units)) if (u.nation === nation) { u.nation = nid; moved.units++; }
      for (const s of Object.values(next.settlements)) if (s.nation === nation) { s.nation = nid; moved.settlements++; }
      for (const e of Object.values(next.externals)) if (e.nation === nation) { e.nation = nid; moved.externals++; }
      for (const b of next.builds) if (b.nation === nation) { b.nation = nid; moved.builds++; }
      writes.push(...(await latestStateWrites(ctx, `before-drop-${nation}`, next)));
    }
    const at = ctx.now.toISOString();
    const what = opts.mode === 'hold' ? 'its units hold from now on' : `its units, settlements and works pass to "${neutral}" (${moved ? `${moved.units} units, ${moved.settlements} settlements` : 'start sheets moved'})`;
    const told = `${def.name} lost its player: ${opts.mode === 'hold' ? 'its forces stand where they are and only defend' : 'its lands and forces are now neutral'}.`;
    await ctx.whole({
      kind: 'nation-drop',
      command: `fatecraft nation drop ${dir} ${nation}${opts.mode === 'neutral' ? ' --neutral' : ''}`,
      files: writes,
      token: { nation, action: 'remove' },
      log: [{ op: 'nation-drop', detail: `${nation} dropped from turn ${rt.turn}: ${what}; its order token is retired`, turn: rt.turn, players: { turn: rt.turn, text: told } }],
      notices: [{ kind: 'nation-dropped', turn: rt.turn, text: `${def.name} has no ruler any more: ${opts.mode === 'hold' ? 'its forces stand where they are and only defend' : 'its lands and forces are now neutral'}.` }],
      dropped: { [nation]: { mode: opts.mode, turn: rt.turn, at }, ...(opts.mode === 'neutral' && !rt.dropped[neutral] ? { [neutral]: { mode: 'hold' as const, turn: rt.turn, at } } : {}) },
    });
    return { nation: asNationId(nation), mode: opts.mode, ...(moved ? { moved } : {}), warnings: envTokenWarnings(nation, true, ctx.env) };
  });
}

export interface ReassignNationOptions extends NationOptions {
  email: string[];
}

export interface ReassignNationResult {
  nation: NationId;
  previous: string[];
  warnings: string[];
}

/** A new player takes over: new address(es) in campaign.yaml, a new token; the old token is refused from now on. */
export async function reassignNation(dir: string, nation: string, opts: ReassignNationOptions): Promise<ReassignNationResult> {
  return withGm(dir, `nation reassign ${nation}`, opts, async (ctx) => {
    const rt = ctx.runtime;
    const def = ctx.open.file.nations[nation] ?? ctx.refuse(`there is no nation "${nation}" in campaign.yaml`);
    if (rt.dropped[nation]?.mode === 'neutral') ctx.refuse(`${nation}'s forces were made neutral when it was dropped; it has nothing left to lead (add a new nation instead)`);
    checkEmails(ctx, opts.email);
    const edited = await editCampaignFile(dir, (doc) => doc.setIn(['nations', nation, 'email'], doc.createNode(opts.email)));
    const wasDropped = rt.dropped[nation] !== undefined;
    await ctx.whole({
      kind: 'nation-reassign',
      command: `fatecraft nation reassign ${dir} ${nation}`,
      files: [{ path: 'campaign.yaml', content: edited.text }],
      token: { nation, action: 'issue' },
      log: [{ op: 'nation-reassign', detail: `${nation} passes from ${def.email.join(', ') || '(no player)'} to ${opts.email.join(', ')}${wasDropped ? ' (back in play after being dropped)' : ''}; the old token is refused from now on`, turn: rt.turn, players: { turn: rt.turn, text: `${def.name} has a new player.` } }],
      notices: [{ kind: 'nation-reassigned', turn: rt.turn, nations: [nation], text: `You now lead ${def.name}. Your orders for turn ${rt.turn} are due ${ctx.local(rt.deadline)}.` }],
      undropped: [nation],
      // The seat's record: the old player's tenure ends with the turn before; the new player's turns are theirs.
      seat: { nation, player: [...opts.email], fromTurn: rt.turn },
    });
    return { nation: asNationId(nation), previous: def.email, warnings: envTokenWarnings(nation, true, ctx.env) };
  });
}
