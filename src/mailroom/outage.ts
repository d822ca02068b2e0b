/**
 * mail/smtp-outage.yaml: since when the sending server has not answered. A run that gives up on the server
 * (outbox.ts, ServerBreaker) records it unless it is already recorded, and only then alerts the GM: one
 * alert per outage, however many runs and messages it holds up. The first message the server takes again
 * ends the outage, so the next one alerts anew.
 */
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import jsyaml from 'js-yaml';
import { writeFileAtomic } from '../host/atomic-file.js';
import { writeYaml } from '../campaign/yaml-io.js';

export interface Outage {
  /** When a run first found the server not answering. */
  since: string;
  /** The error that made that run give up. */
  error: string;
}

const fileOf = (mailDir: string) => join(mailDir, 'smtp-outage.yaml');

export async function readOutage(mailDir: string): Promise<Outage | undefined> {
  const file = fileOf(mailDir);
  if (!existsSync(file)) return undefined;
  try {
    const value = jsyaml.load(await readFile(file, 'utf8'), { schema: jsyaml.CORE_SCHEMA }) as Partial<Outage> | null;
    if (value && typeof value.since === 'string' && typeof value.error === 'string') return { since: value.since, error: value.error };
  } catch {
    // damaged: treated as an outage of unknown start
  }
  return { since: 'an unknown time', error: 'unknown (mail/smtp-outage.yaml could not be read)' };
}

/** Records an outage starting now unless one is recorded; the new one, or undefined when it was known. */
export async function beginOutage(mailDir: string, now: Date, error: string): Promise<Outage | undefined> {
  if ((await readOutage(mailDir)) !== undefined) return undefined;
  const outage: Outage = { since: now.toISOString(), error };
  await writeFileAtomic(fileOf(mailDir), `# The mail server stopped answering (written by fatecraft mail; removed when it answers again).\n${writeYaml(outage)}`, { fsync: true });
  return outage;
}

/** Ends the recorded outage, if any; what it was. */
export async function endOutage(mailDir: string): Promise<Outage | undefined> {
  const outage = await readOutage(mailDir);
  if (outage !== undefined) await rm(fileOf(mailDir), { force: true });
  return outage;
}
