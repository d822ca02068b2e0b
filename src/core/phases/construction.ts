import { unitName } from '../unit-name.js';
import { settlementTax } from '../settlement-tax.js';
import type { TurnContext } from '../context.js';
import { asExternalId, asSettlementId, type SettlementId } from '../ids.js';
import type { BuildState, Project } from '../state.js';
import { projectName } from '../work.js';
import type { Phase } from './phase.js';

/** Starts the builds paid for in the orders phase, after every order was checked. */
export const startBuildsPhase: Phase = {
  name: 'builds',
  run(ctx: TurnContext) {
    const buildIds = new Set(ctx.state.builds.map((b) => b.id));
    const pendingSettlements = new Set(ctx.state.builds.flatMap((b) => (b.project.kind === 'settlement' ? [b.project.settlementId as string] : [])));
    for (const a of ctx.accepted) {
      const o = a.order;
      const start = (project: Project, turns: number, where: Pick<BuildState, 'hex' | 'settlement' | 'builder'>) => {
        const id = ctx.nextId('b', (x) => buildIds.has(x));
        buildIds.add(id);
        const build: BuildState = { id, nation: a.nation, project, turnsLeft: Math.max(1, turns), startedTurn: ctx.turn, ...where };
        ctx.state.builds.push(build);
        ctx.emit({ type: 'build_started', nations: [a.nation], nation: a.nation, build: build.id, what: projectName(ctx.campaign, project, a.nation), at: build.hex, turnsLeft: build.turnsLeft });
      };
      const settlement = 'settlement' in o ? ctx.settlement(o.settlement) : undefined;
      const inSettlement = settlement ? { hex: settlement.hex, settlement: settlement.id } : undefined;
      switch (o.kind) {
        case 'build_unit':
          if (inSettlement) start({ kind: 'unit', unitType: o.unitType, ...(o.name ? { name: o.name } : {}), ...(o.bonuses?.length ? { extraBonuses: o.bonuses } : {}) }, 1, inSettlement);
          break;
        case 'build_structure':
          if (inSettlement) start({ kind: 'structure', structure: o.structure }, ctx.campaign.structures[o.structure]?.turns ?? 1, inSettlement);
          break;
        case 'build_battlement':
          if (inSettlement) start({ kind: 'battlement', level: o.level }, 1, inSettlement);
          break;
        case 'upgrade':
          if (inSettlement && settlement) start({ kind: 'upgrade', to: settlement.level === 'village' ? 'town' : 'city' }, 1, inSettlement);
          break;
        case 'found': {
          const unit = ctx.unit(o.unit);
          const settlementId = freeSettlementId(ctx, o.name, pendingSettlements);
          pendingSettlements.add(settlementId);
          if (unit) start({ kind: 'settlement', settlementId, name: o.name }, 1, { hex: unit.hex, builder: unit.id });
          break;
        }
        case 'construct': {
          const unit = ctx.unit(o.unit);
          const externalId = asExternalId(ctx.nextId('x', (x) => x in ctx.state.externals));
          if (unit) start({ kind: 'external', externalId, structure: o.structure }, ctx.campaign.externals[o.structure]?.turns ?? 1, { hex: unit.hex, builder: unit.id });
          break;
        }
        default:
          break;
      }
    }
  },
};

/** A readable id from the name ("New Silverton" → new-silverton), made unique. */
function freeSettlementId(ctx: TurnContext, name: string, pending: ReadonlySet<string>): SettlementId {
  const base = name.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'settlement';
  const taken = (id: string) =>
    id in ctx.state.settlements || pending.has(id);
  let id = base;
  for (let n = 2; taken(id); n++) id = `${base}-${n}`;
  return asSettlementId(id);
}

/**
 * Work under way advances one turn; finished work takes effect. A build in a
 * settlement that changed hands, or whose builder is gone, is lost with an event.
 */
export const constructionPhase: Phase = {
  name: 'construction',
  run(ctx: TurnContext) {
    const remaining: BuildState[] = [];
    // Creation order: deterministic, and first come first served for a contested site.
    for (const b of ctx.state.builds) {
      const what = projectName(ctx.campaign, b.project, b.nation);
      const lost = (reason: string) => ctx.emit({ type: 'build_lost', nations: [b.nation], nation: b.nation, build: b.id, what, reason });
      const s = b.settlement ? ctx.settlement(b.settlement) : undefined;
      if (b.settlement && (!s || s.nation !== b.nation)) {
        lost('the settlement is no longer yours');
        continue;
      }
      if (b.builder) {
        const builder = ctx.unit(b.builder);
        if (!builder || builder.hex !== b.hex) {
          const who = builder ?? ctx.start.units[b.builder];
          const name = who ? unitName(ctx.campaign, who) : 'its builder';
          lost(builder ? `${name} left the site` : `${name} was lost`);
          continue;
        }
      }
      b.turnsLeft -= 1;
      if (b.turnsLeft > 0) {
        remaining.push(b);
        continue;
      }
      complete(ctx, b, what);
    }
    ctx.state.builds = remaining;
  },
};

function complete(ctx: TurnContext, b: BuildState, what: string): void {
  const p = b.project;
  const s = b.settlement ? ctx.settlement(b.settlement) : undefined;
  if (p.kind === 'settlement' && ctx.settlementAt(b.hex)) {
    ctx.emit({ type: 'build_lost', nations: [b.nation], nation: b.nation, build: b.id, what, reason: `another settlement was founded at ${b.hex} first` });
    return;
  }
  ctx.emit({ type: 'build_completed', nations: [b.nation], nation: b.nation, build: b.id, what, at: b.hex });
  switch (p.kind) {
    case 'unit':
      ctx.createUnit(b.nation, p.unitType, b.hex, { ...(p.name ? { name: p.name } : {}), ...(p.extraBonuses ? { extraBonuses: p.extraBonuses } : {}) });
      break;
    case 'structure': {
      if (!s) return;
      const taxBefore = settlementTax(ctx, s);
      s.structures.push(p.structure);
      const st = ctx.campaign.structures[p.structure];
      const relief = taxBefore - settlementTax(ctx, s);
      if (relief > 0) {
        ctx.changeIndicator(b.nation, 'prosperity', relief, `${st?.name ?? p.structure} lightens ${s.name}'s tax`);
        ctx.changeIndicator(b.nation, 'happiness', relief, `${st?.name ?? p.structure} lightens ${s.name}'s tax`);
      }
      ctx.applyYield(b.nation, st?.onComplete, `${st?.name ?? p.structure} built in ${s.name}`);
      break;
    }
    case 'battlement':
      s?.battlements.push(p.level);
      break;
    case 'upgrade': {
      if (!s) return;
      const from = s.level;
      s.level = p.to;
      ctx.emit({ type: 'settlement_upgraded', nations: [b.nation], settlement: s.id, from, to: p.to });
      if (ctx.rules.upgradeTax) {
        const extra = settlementTax(ctx, s, p.to) - settlementTax(ctx, s, from);
        ctx.changeIndicator(b.nation, 'prosperity', -extra, `${s.name} grew into a ${p.to}`);
        ctx.changeIndicator(b.nation, 'happiness', -extra, `${s.name} grew into a ${p.to}`);
      }
      break;
    }
    case 'settlement': {
      ctx.addSettlement({ id: p.settlementId, name: p.name, nation: b.nation, level: 'village', hex: b.hex, home: true, captured: false, structures: [], battlements: [], gainedTurn: ctx.turn });
      ctx.emit({ type: 'settlement_founded', nations: [b.nation], nation: b.nation, settlement: p.settlementId, name: p.name, at: b.hex });
      const tax = ctx.rules.settlementTax.village;
      ctx.changeIndicator(b.nation, 'prosperity', -tax, `founded ${p.name}`);
      ctx.changeIndicator(b.nation, 'happiness', -tax, `founded ${p.name}`);
      break;
    }
    case 'external': {
      ctx.state.externals[p.externalId] = { id: p.externalId, type: p.structure, nation: b.nation, hex: b.hex };
      ctx.emit({ type: 'external_built', nations: [b.nation], nation: b.nation, external: p.externalId, structure: p.structure, at: b.hex });
      const ext = ctx.campaign.externals[p.structure];
      ctx.applyYield(b.nation, ext?.onComplete, `${ext?.name ?? p.structure} built at ${b.hex}`);
      break;
    }
  }
}
