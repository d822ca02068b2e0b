import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeYaml } from '../campaign/yaml-io.js';
import { stateYaml, turnDirName } from '../campaign/store.js';
import type { SyntheticCampaign } from './synthetic.js';
import { SYNTHETIC_EVENTS } from './event-catalogue.js';

/** Writes a synthetic campaign as a real campaign folder: campaign.yaml, turn 0, orders for turn 1 (and with `events`, a generic events.yaml). */
export async function writeSyntheticCampaign(dir: string, generated: SyntheticCampaign, opts: { events?: boolean } = {}): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(join(dir, 'turns', turnDirName(0)), { recursive: true });
  await mkdir(join(dir, 'orders', turnDirName(1)), { recursive: true });
  await writeFile(join(dir, 'campaign.yaml'), writeYaml(generated.campaign));
  if (opts.events) await writeFile(join(dir, 'events.yaml'), SYNTHETIC_EVENTS);
  await writeFile(join(dir, 'turns', turnDirName(0), 'state.yaml'), stateYaml(generated.state));
  await writeFile(join(dir, 'turns', turnDirName(0), 'events.yaml'), writeYaml({ turn: 0, events: [] }));
  for (const [nation, sheet] of Object.entries(generated.orders)) {
    await writeFile(join(dir, 'orders', turnDirName(1), `${nation}.yaml`), writeYaml(sheet));
  }
}
