import { turnDirName } from '../campaign/store.js';
import type { TurnRenderer } from '../campaign/turn-renderer.js';
import { previewTurn, type PreviewResult } from '../jobs/preview-turn.js';
import { withGm, type GmOptions } from './context.js';

/**
 * The pending turn resolved in a scratch copy (jobs/preview-turn.ts) as a GM operation: under the campaign
 * lock, and in the GM's log like the other operations. The campaign is not changed and no player is told.
 */
export async function previewPendingTurn(dir: string, opts: GmOptions & { renderers: TurnRenderer[] }): Promise<PreviewResult> {
  return withGm(dir, 'preview', opts, async (ctx) => {
    const result = await previewTurn(dir, { renderers: opts.renderers, expectTurn: ctx.latest + 1 });
    ctx.log('preview', `turn ${result.turn} previewed (nothing resolved): ${result.events.length} events; kept in ${`previews/${turnDirName(result.turn)}`}`, result.turn);
    await ctx.save();
    return result;
  });
}
