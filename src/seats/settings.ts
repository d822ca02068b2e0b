import { z } from 'zod';
import { CampaignError, pathText, type FileProblem } from '../campaign/problems.js';
import type { CampaignFile } from '../campaign/schema.js';
import type { Campaign } from '../core/campaign.js';
import { caretakerFor } from '../core/caretaker/plan.js';
import { DURATION_EXAMPLE, parseDuration } from '../text/duration.js';

/**
 * What happens to a seat whose player goes quiet, and who may take it
 * (docs/operations.md, "Missing players"): campaign.yaml's `seats:` block,
 * overridable per nation with `seat:` in the nation's block.
 *
 *   seats:
 *     policy: caretaker        # after rules.nmrFlagAfter turns without orders: hold | caretaker | disorder | pause,
 *                              # or a list: [pause, caretaker] waits for a new player, then the caretaker
 *     pauseLimit: 1w           # how long `pause` holds a turn past its deadline before the next policy applies
 *     caretaker: steward       # which caretaker of caretakers.yaml keeps the seat
 *     autofill: false          # offer a seat the policy took (and one silent at roll-call) to the standby list by itself
 *     warn: true               # mail the quiet player when the turn opens at whose deadline the policy strikes
 *   nations:
 *     grarkul:
 *       seat: { policy: disorder }              # this nation's own policy
 *       seat: { policy: caretaker, caretaker: raider }
 */
export const SEAT_POLICIES = ['hold', 'caretaker', 'disorder', 'pause'] as const;
export type SeatPolicyName = (typeof SEAT_POLICIES)[number];

export interface SeatSettings {
  /** The policies in order: `pause` (first only) waits; the first other one applies when the turn resolves. */
  policy: SeatPolicyName[];
  pauseLimit: number;
  caretaker?: string;
  autofill: boolean;
  warn: boolean;
}

export interface Seats {
  campaign: SeatSettings;
  /** Per nation, over the campaign's. */
  nations: Record<string, Partial<Pick<SeatSettings, 'policy' | 'caretaker'>>>;
}

export const DEFAULT_SEATS: SeatSettings = { policy: ['hold'], pauseLimit: 7 * 24 * 3600 * 1000, autofill: false, warn: true };

const id = z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, 'use lower-case letters, digits, - and _');
const policy = z.union([z.enum(SEAT_POLICIES), z.array(z.enum(SEAT_POLICIES)).min(1)]).transform((p) => (typeof p === 'string' ? [p] : p));
const duration = z.string().refine((s) => (parseDuration(s) ?? 0) > 0, { message: `not a duration; ${DURATION_EXAMPLE}` });

const campaignShape = z.strictObject({
  policy: policy.default(['hold']),
  pauseLimit: duration.default('1w'),
  caretaker: id.optional(),
  autofill: z.boolean().default(false),
  warn: z.boolean().default(true),
});
const nationShape = z.strictObject({ policy: policy.optional(), caretaker: id.optional() });

const EXAMPLE = `for example:
  seats:
    policy: [pause, caretaker]   # or hold, caretaker, disorder
    pauseLimit: 1w
    autofill: false`;

/** The campaign's seat settings, checked against its caretakers; problems name `seats.<key>` or `nations.<id>.seat.<key>`. */
export function parseSeats(file: CampaignFile, campaign: Campaign | undefined, label = 'campaign.yaml'): { seats?: Seats; problems: FileProblem[] } {
  const problems: FileProblem[] = [];
  const problem = (path: string, message: string) => problems.push({ file: label, path, message });
  const top = campaignShape.safeParse(file.seats ?? {});
  if (!top.success) for (const issue of top.error.issues) problem(`seats${issue.path.length ? `.${pathText(issue.path)}` : ''}`, issue.message);
  const nations: Seats['nations'] = {};
  for (const [nation, def] of Object.entries(file.nations)) {
    if (def.seat === undefined) continue;
    const own = nationShape.safeParse(def.seat);
    if (!own.success) {
      for (const issue of own.error.issues) problem(`nations.${nation}.seat${issue.path.length ? `.${pathText(issue.path)}` : ''}`, issue.message);
      continue;
    }
    nations[nation] = { ...(own.data.policy ? { policy: own.data.policy } : {}), ...(own.data.caretaker ? { caretaker: own.data.caretaker } : {}) };
  }
  const checkList = (path: string, list: readonly SeatPolicyName[]) => {
    if (list.slice(1).includes('pause')) problem(path, '"pause" can only come first: it waits, then the next policy in the list applies');
    if (list.length > 1 && list[0] !== 'pause') problem(path, `a list of policies starts with "pause" (the others never wait for one another); write one policy, e.g. "${list[0]}"`);
  };
  if (top.success) checkList('seats.policy', top.data.policy);
  for (const [nation, s] of Object.entries(nations)) if (s.policy) checkList(`nations.${nation}.seat.policy`, s.policy);
  if (campaign && top.success) {
    const known = Object.keys(campaign.caretakers?.entries ?? {}).sort().join(', ') || 'none';
    // `caretaker` names the caretaker policy's; civil disorder is always the catalogue's "disorder".
    const check = (path: string, name: string | undefined, list: readonly SeatPolicyName[]) => {
      for (const p of list) {
        if ((p === 'caretaker' || p === 'disorder') && !caretakerFor(campaign, p, p === 'caretaker' ? name : undefined)) {
          problem(path, `no caretaker "${p === 'caretaker' ? (name ?? 'steward') : 'disorder'}" in the caretakers catalogue (caretakers.yaml; it has: ${known})`);
        }
      }
    };
    check('seats.caretaker', top.data.caretaker, top.data.policy);
    for (const [nation, s] of Object.entries(nations)) check(`nations.${nation}.seat`, s.caretaker ?? top.data.caretaker, s.policy ?? top.data.policy);
  }
  if (problems.length) {
    problems[problems.length - 1]!.message += `\n${EXAMPLE}`;
    return { problems };
  }
  const t = top.success ? top.data : undefined;
  return {
    seats: {
      campaign: { policy: t!.policy, pauseLimit: parseDuration(t!.pauseLimit)!, ...(t!.caretaker ? { caretaker: t!.caretaker } : {}), autofill: t!.autofill, warn: t!.warn },
      nations,
    },
    problems,
  };
}

/** The campaign's seat settings, or a CampaignError naming every problem. */
export function seatsOf(file: CampaignFile, campaign?: Campaign, label = 'campaign.yaml'): Seats {
  const { seats, problems } = parseSeats(file, campaign, label);
  if (!seats) throw new CampaignError(problems);
  return seats;
}

/** One nation's settings: its own over the campaign's. */
export function seatSettingsOf(seats: Seats, nation: string): SeatSettings {
  const own = seats.nations[nation];
  return { ...seats.campaign, ...(own?.policy ? { policy: own.policy } : {}), ...(own?.caretaker ? { caretaker: own.caretaker } : {}) };
}
