import type { Campaign } from './campaign.js';
import type { TurnContext } from './context.js';
import { hexDistance, offsetOf } from './hex.js';
import { compareIds, type NationId, type SettlementId } from './ids.js';
import { WorldIndex } from './world-index.js';

/**
 * What structures give besides yields (docs/rules.md X5-X6): more units a
 * turn, and actions only their holders may take. Read from the turn's
 * starting state, like every order check, and worked out once per campaign
 * or per turn, so a campaign that uses neither pays nothing per order.
 */

type BuildKind = 'military' | 'diplomatic';

/** Settlement structures' extra builds count in their own settlement (U9); externals' in the owner's settlement nearest them. */
const externalBuilds = new WeakMap<TurnContext, Map<NationId, Map<SettlementId, Record<BuildKind, number>>>>();

const givesBuilds = new WeakMap<Campaign, boolean>();
function anyExternalGivesBuilds(campaign: Campaign): boolean {
  let gives = givesBuilds.get(campaign);
  if (gives === undefined) givesBuilds.set(campaign, (gives = Object.values(campaign.externals).some((e) => e.extraBuilds)));
  return gives;
}

/**
 * The extra builds a turn the nation's external structures add in one of its
 * settlements: each structure's `extraBuilds` count in the nation's settlement
 * nearest to it (by hexes; a tie goes to the lower id), so a lumber camp feeds
 * the town beside it, and a nation without settlements gains nothing.
 */
export function externalExtraBuilds(ctx: TurnContext, nation: NationId, settlement: SettlementId, kind: BuildKind): number {
  if (!anyExternalGivesBuilds(ctx.campaign)) return 0;
  let perNation = externalBuilds.get(ctx);
  if (!perNation) externalBuilds.set(ctx, (perNation = new Map<NationId, Map<SettlementId, Record<BuildKind, number>>>()));
  let bySettlement = perNation.get(nation);
  if (!bySettlement) {
    bySettlement = new Map();
    perNation.set(nation, bySettlement);
    const index = WorldIndex.of(ctx.campaign, ctx.start);
    const settlements = [...index.settlementsOf(nation)].sort((a, b) => compareIds(a.id, b.id));
    for (const e of index.externalsByNation.get(nation) ?? []) {
      const extra = ctx.campaign.externals[e.type]?.extraBuilds;
      if (!extra || settlements.length === 0) continue;
      const at = offsetOf(e.hex);
      let nearest = settlements[0]!;
      for (const s of settlements) if (hexDistance(offsetOf(s.hex), at) < hexDistance(offsetOf(nearest.hex), at)) nearest = s;
      const sum = bySettlement.get(nearest.id) ?? { military: 0, diplomatic: 0 };
      sum.military += extra.military ?? 0;
      sum.diplomatic += extra.diplomatic ?? 0;
      bySettlement.set(nearest.id, sum);
    }
  }
  return bySettlement.get(settlement)?.[kind] ?? 0;
}

/** The structures (settlement ones and externals) that unlock an action, by action id. */
export interface ActionLock {
  structures: string[];
  externals: string[];
}

const locks = new WeakMap<Campaign, Map<string, ActionLock>>();

/** Actions some structure lists in `unlocksActions`: only holders of one of those structures may take them. */
export function actionLocks(campaign: Campaign): ReadonlyMap<string, ActionLock> {
  let map = locks.get(campaign);
  if (!map) {
    map = new Map();
    const lock = (action: string) => {
      let l = map!.get(action);
      if (!l) map!.set(action, (l = { structures: [], externals: [] }));
      return l;
    };
    for (const st of Object.values(campaign.structures)) for (const a of st.unlocksActions ?? []) lock(a).structures.push(st.id);
    for (const ex of Object.values(campaign.externals)) for (const a of ex.unlocksActions ?? []) lock(a).externals.push(ex.id);
    locks.set(campaign, map);
  }
  return map;
}

/** The nation holds, at the start of the turn, a structure that unlocks the action. */
export function holdsUnlock(ctx: TurnContext, nation: NationId, lock: ActionLock): boolean {
  const index = WorldIndex.of(ctx.campaign, ctx.start);
  if (lock.structures.length && index.settlementsOf(nation).some((s) => s.structures.some((id) => lock.structures.includes(id)))) return true;
  return lock.externals.length > 0 && (index.externalsByNation.get(nation) ?? []).some((e) => lock.externals.includes(e.type));
}
