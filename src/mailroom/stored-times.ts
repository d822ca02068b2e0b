import { z } from 'zod';
import { isoTimeSchema } from '../campaign/iso-time-schema.js';
import { validate } from '../campaign/problems.js';
import { GM_LIMITS, readYaml } from '../campaign/yaml-io.js';

/**
 * The times in the mail room's own files (a ledger entry, a queued message),
 * held to the same strict reading as every other file's: a time mangled by a
 * hand edit or a bad restore would otherwise compare as NaN (a queued message
 * never due again) or as some other day. Only the times are checked here; the
 * files are fatecraft's own and otherwise trusted.
 */
const at = z.looseObject({ at: isoTimeSchema });

const ledgerTimes = z.looseObject({
  receivedAt: isoTimeSchema,
  decidedAt: isoTimeSchema.optional(),
  doneAt: isoTimeSchema.optional(),
  history: z.array(at).optional(),
});

const queuedTimes = z.looseObject({
  createdAt: isoTimeSchema,
  nextAttemptAt: isoTimeSchema.optional(),
  sentAt: isoTimeSchema.optional(),
  failedAt: isoTimeSchema.optional(),
  message: z.looseObject({ date: isoTimeSchema }),
});

/** Throws a CampaignError naming the file, line and key of a time that is not one. */
function check(schema: z.ZodType, value: unknown, text: string, file: string): void {
  // The strict reader runs only to put a line on a problem found.
  const locate = (path: readonly (string | number)[]) => {
    const read = readYaml(text, GM_LIMITS);
    return read.ok ? read.locate(path) : undefined;
  };
  validate(schema, { value, locate }, file);
}

export const checkLedgerTimes = (value: unknown, text: string, file: string) => check(ledgerTimes, value, text, file);
export const checkQueuedTimes = (value: unknown, text: string, file: string) => check(queuedTimes, value, text, file);
