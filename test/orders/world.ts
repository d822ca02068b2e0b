import { join } from 'node:path';
import { openCampaign, readState, type OpenCampaign } from '../../src/campaign/store.js';
import { asNationId } from '../../src/core/ids.js';
import type { GameState } from '../../src/core/state.js';

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
