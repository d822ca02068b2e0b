import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MemorySink } from '../campaign/staging.js';
import { readState, readTurnEvents, turnDirName, type OpenCampaign } from '../campaign/store.js';
import type { FileWrite } from '../campaign/journal.js';
import type { Campaign } from '../core/campaign.js';
import { compareIds, type NationId } from '../core/ids.js';
import { GameMap } from '../core/map.js';
import type { GameState, UnitState } from '../core/state.js';
import { unitName } from '../core/unit-name.js';
import { writeReportsTo } from '../report/renderer.js';
import type { GmContext } from './context.js';

/**
 * What a split (`fatecraft nation split`) leaves to settle besides the state itself: the old nation's
 * units standing in a settlement that broke away, and the new nation's own report of the latest turn, so
 * that its player is welcomed with it and `resend report` has something to send.
 */

export interface UnitStepOut {
  unit: string;
  name: string;
  settlement: string;
  to: string;
}

/**
 * Rule L4 (docs/rules.md): a unit of the old nation left standing in a settlement that breaks away leaves
 * it, to the nearest hex it may stand on (land, or water for a ship) that holds no settlement but its own
 * nation's; of hexes as near, the first by id. It keeps its orders' nation and everything else. Changes
 * `next` in place; returns what moved, or the unit that found no such hex within reach.
 */
export function stepOutOfSeceded(campaign: Campaign, next: GameState, from: NationId, into: NationId): { moved: UnitStepOut[]; stuck?: string } {
  const map = GameMap.of(campaign);
  const foreign = new Set(Object.values(next.settlements).filter((s) => s.nation !== from).map((s) => s.hex as string));
  const moved: UnitStepOut[] = [];
  const seceded = Object.values(next.settlements).filter((s) => s.nation === into).sort((a, b) => compareIds(a.id, b.id));
  for (const s of seceded) {
    const left = Object.values(next.units).filter((u) => u.nation === from && u.hex === s.hex).sort((a, b) => compareIds(a.id, b.id));
    for (const u of left) {
      const naval = campaign.nations[from]?.unitTypes[u.type]?.class === 'naval';
      const to = nearestStand(map, u.hex, naval, foreign);
      if (to === undefined) return { moved, stuck: unitName(campaign, u) };
      moved.push({ unit: u.id, name: unitName(campaign, u), settlement: s.name, to });
      (u as UnitState).hex = to as UnitState['hex'];
    }
  }
  return { moved };
}

/** Breadth-first from `start` over the hexes the unit may enter; the first ring with a free hex wins, by id. */
function nearestStand(map: GameMap, start: string, naval: boolean, foreign: ReadonlySet<string>): string | undefined {
  const domain = naval ? 'naval' : 'land';
  const seen = new Set<string>([start]);
  // The settlement itself is a port to a ship: it may sail out of it.
  let ring: string[] = [start];
  while (ring.length) {
    const next: string[] = [];
    for (const at of ring) {
      for (const n of map.adjacent(at as never)) {
        if (seen.has(n)) continue;
        seen.add(n);
        if (map.entryCost(n, domain) === undefined) continue;
        next.push(n);
      }
    }
    const free = next.filter((h) => !foreign.has(h)).sort(compareIds);
    if (free.length) return free[0];
    ring = next;
  }
  return undefined;
}

/**
 * The new nation's report files of the latest turn, rendered from the state as the split leaves it (with
 * the turn's own events and orders), as writes into that turn's reports folder. The old nation's report
 * of that turn stays as it was mailed. None when the turn has no loose reports folder (never rendered, or packed).
 */
export async function newNationReportWrites(ctx: GmContext, after: OpenCampaign, next: GameState, nation: string): Promise<FileWrite[]> {
  const turn = ctx.latest;
  // A turn whose reports were not written (or are packed away) gets none for the newcomer either.
  if (!existsSync(join(ctx.dir, 'turns', turnDirName(turn), 'reports'))) return [];
  const before = turn > 0 ? await readState(ctx.dir, turn - 1, ctx.open.campaign) : next;
  const events = await readTurnEvents(ctx.dir, turn);
  const sink = new MemorySink();
  await writeReportsTo(sink, { open: after, before, state: next, events, turn }, { nations: [nation], gm: false, deadline: ctx.local(ctx.runtime.deadline), deadlineByNation: ctx.byNation(ctx.runtime.deadline) });
  return Object.entries(sink.files)
    .sort(([a], [b]) => compareIds(a, b))
    .map(([rel, content]) => ({ path: join('turns', turnDirName(turn), rel), content: typeof content === 'string' ? content : Buffer.from(content) }));
}

/** A campaign built from an edited campaign.yaml, with the catalogues beside it (events, actions, caretakers) as they were read. */
export function withCatalogues(built: Campaign, read: Campaign): Campaign {
  const { events, actions, caretakers } = read;
  return { ...built, ...(events ? { events } : {}), ...(actions ? { actions } : {}), ...(caretakers ? { caretakers } : {}) };
}
