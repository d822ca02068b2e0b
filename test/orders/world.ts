import { join } from 'node:path';
import { openCampaign, readState, type OpenCampaign } from '../../src/campaign/store.js';
import { asNationId } from '../../src/core/ids.js';
import type { Campaign } from '../../src/core/campaign.js';
import type { AspectState, GameState } from '../../src/core/state.js';

/** The orders test world (test/fixtures/orders/world): turn 3 resolved, turn 4 pending. */
export const WORLD_DIR = join(import.meta.dirname, '..', 'fixtures', 'orders', 'world');
export const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'orders');
export const ARGENTA = asNationId('argenta');
export const GONDARAHL = asNationId('gondarahl');

export interface World {
  open: OpenCampaign;
  state: GameState;
}

export async function loadWorld(): Promise<World> {
  const open = await openCampaign(WORLD_DIR);
  const state = await readState(WORLD_DIR, 3, open.campaign);
  return { open, state };
}

/**
 * The orders world with the Fate layer's aspects on (and Warfare when asked), its state given the aspects
 * `inPlay` names: the set-up of every test of aspect orders (invokes, burns, battle plans).
 */
export async function loadAspectWorld(
  inPlay: (state: GameState) => AspectState[],
  opts: { warfare?: Partial<Campaign['rules']['warfare']> } = {},
): Promise<{ campaign: Campaign; state: GameState }> {
  const world = await loadWorld();
  const rules = world.open.campaign.rules;
  const campaign: Campaign = {
    ...world.open.campaign,
    rules: { ...rules, fate: { ...rules.fate, aspects: true }, ...(opts.warfare ? { warfare: { ...rules.warfare, ...opts.warfare } } : {}) },
  };
  const state = structuredClone(world.state);
  state.aspects = inPlay(state);
  return { campaign, state };
}
