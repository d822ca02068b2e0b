import type { OpenCampaign } from '../campaign/store.js';
import { folderHooks, type TickHooks } from '../schedule/hooks.js';

/**
 * The hooks the command line uses for a campaign: the mailroom's when
 * campaign.yaml has a `mail:` block, the folder hooks otherwise. The mailroom
 * (and with it the mail libraries, about half a second of loading) is
 * imported only for a campaign that has mail.
 */
export async function tickHooksFor(open: OpenCampaign): Promise<TickHooks> {
  if (open.file.mail === undefined) return folderHooks();
  const { mailroomHooks } = await import('../mailroom/tick-hooks.js');
  return mailroomHooks();
}
