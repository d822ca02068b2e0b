import type { OpenCampaign } from '../campaign/store.js';
import { mailroomHooks } from '../mailroom/tick-hooks.js';
import { folderHooks, type TickHooks } from '../schedule/hooks.js';

/**
 * The hooks the command line uses for a campaign: the mailroom's when
 * campaign.yaml has a `mail:` block, the folder hooks otherwise.
 */
export function tickHooksFor(open: OpenCampaign): TickHooks {
  return open.file.mail !== undefined ? mailroomHooks() : folderHooks();
}
