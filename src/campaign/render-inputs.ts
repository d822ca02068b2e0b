import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { validate } from './problems.js';
import { readYamlFile } from './store.js';
import { writeYaml } from './yaml-write.js';

/**
 * What a turn's reports were first rendered with beyond the turn itself: the
 * next turn's deadline as the schedule set it (on each player's clock too)
 * and the GM's log the players read. Kept in the turn folder as
 * `reports-input.yaml` (written with the turn, only when there is any), so
 * that `fatecraft report --turn N` renders the same reports again byte for
 * byte instead of "deadline: to be announced by the GM" and no GM's log.
 */
export const RENDER_INPUTS_FILE = 'reports-input.yaml';

export interface RenderInputs {
  deadline?: string;
  deadlineByNation?: Readonly<Record<string, string>>;
  gmLog?: readonly string[];
}

const schema = z
  .object({
    deadline: z.string().optional(),
    deadlineByNation: z.record(z.string(), z.string()).optional(),
    gmLog: z.array(z.string()).optional(),
  })
  .strict();

/** The file's text, or undefined when the reports had nothing beyond the turn (no file is written). */
export function renderInputsYaml(inputs: RenderInputs): string | undefined {
  const out: Record<string, unknown> = {};
  if (inputs.deadline !== undefined) out.deadline = inputs.deadline;
  if (inputs.deadlineByNation && Object.keys(inputs.deadlineByNation).length) out.deadlineByNation = inputs.deadlineByNation;
  if (inputs.gmLog?.length) out.gmLog = inputs.gmLog;
  return Object.keys(out).length ? writeYaml(out) : undefined;
}

/** What a resolved turn's reports were rendered with; {} for a turn without the file. */
export async function readRenderInputs(turnFolder: string): Promise<RenderInputs> {
  const path = join(turnFolder, RENDER_INPUTS_FILE);
  if (!existsSync(path)) return {};
  return validate(schema, await readYamlFile(path, path), path);
}
