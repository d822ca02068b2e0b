import { nationsWithOrderFiles } from '../campaign/order-folder.js';
import { ordersDir } from '../orders/pending.js';

/** Nations with an orders file for the turn (order-folder.ts says which files those are). */
export async function submittedNations(dir: string, turn: number, nations: readonly string[]): Promise<string[]> {
  return nationsWithOrderFiles(ordersDir(dir, turn), (id) => nations.includes(id));
}
