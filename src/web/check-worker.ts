import { parentPort } from 'node:worker_threads';
import { CampaignError } from '../campaign/problems.js';
import { DeskCampaign } from './campaigns.js';
import { answerCheck } from './check-job.js';
import type { FromChecker, ToChecker } from './check-pool.js';

/**
 * A checker thread of the desk (check-pool.ts): answers one job at a time against the campaign's latest
 * state, which it reads from the folder itself and keeps while the files are unchanged (a new turn is read
 * again), so the desk's own thread never holds a state for checking nor waits for a check.
 */
const campaigns = new Map<string, DeskCampaign>();

parentPort?.on('message', (message: ToChecker) => {
  void answer(message).then((reply) => parentPort?.postMessage(reply));
});

async function answer({ id, job }: ToChecker): Promise<FromChecker> {
  try {
    let campaign = campaigns.get(job.dir);
    if (campaign === undefined) campaigns.set(job.dir, (campaign = new DeskCampaign('checker', job.dir)));
    const { view, state } = await campaign.state();
    return { id, answer: answerCheck(job, view.open.campaign, state) };
  } catch (e) {
    // A campaign file's problem keeps its file and line across the thread boundary; anything else is a crash.
    return e instanceof CampaignError ? { id, problems: e.problems } : { id, failed: e instanceof Error ? (e.stack ?? e.message) : String(e) };
  }
}
