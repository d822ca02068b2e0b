import { it } from 'vitest';
import { buildCampaign } from '../src/campaign/build-campaign.js';
import { readEventCatalogue } from '../src/campaign/event-catalogue.js';
import { campaignFileSchema } from '../src/campaign/schema.js';
import { generateCampaign } from '../src/generate/synthetic.js';
import { resolveTurn } from '../src/core/turn.js';

it('cost', () => {
  const g = generateCampaign({ nations: 1000, unitsPerNation: 100, width: 400, height: 400, seed: 'bench-1000' });
  const file = campaignFileSchema.parse(g.campaign);
  const { campaign } = buildCampaign(file, 'x');
  const events = Array.from({ length: 24 }, (_, i) => ({
    id: `e${i}`, title: `E${i}`, text: 'Something at {settlement}.', tone: i % 3 === 0 ? 'good' : i % 3 === 1 ? 'bad' : 'neutral',
    scope: ['nation', 'settlement', 'unit', 'hex'][i % 4],
    conditions: [{ happiness: { max: 3 } }, { any: [{ season: 'Summer' }, { at_war: false }] }, ...(i % 4 === 1 ? [{ terrain_near: { terrain: 'plains', within: 1 } }] : []), ...(i % 4 === 2 ? [{ units_near: { within: 1, whose: 'foreign' } }] : [])],
    effects: i % 4 === 2 ? [{ unit_bloodied: null }] : i % 4 === 1 ? [{ battlement_damaged: null }, { renown: 3 }] : [{ renown: 5 }, { happiness: -1 }],
  }));
  const read = readEventCatalogue({ settings: { quiet: 30, rebellion: { enabled: false } }, events }, () => undefined, 'x', campaign);
  if (!read.catalogue) throw new Error(JSON.stringify(read.problems.slice(0, 3)));
  const orders = { nations: {}, gm: [] };
  const time = (c: typeof campaign) => {
    const t = performance.now();
    resolveTurn({ campaign: c, state: g.state, orders });
    return performance.now() - t;
  };
  const withEvents = { ...campaign, events: read.catalogue };
  time(campaign); time(withEvents);
  const a: number[] = [], b: number[] = [];
  for (let i = 0; i < 3; i++) { a.push(time(campaign)); b.push(time(withEvents)); }
  console.log('without', a.map(Math.round), 'with', b.map(Math.round));
}, 600_000);
