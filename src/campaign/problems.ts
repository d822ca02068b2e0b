import type { z } from 'zod';
import type { Locate } from './yaml-io.js';

/** A problem in a file, located well enough for a GM to fix it by hand. */
export interface FileProblem {
  file: string;
  path?: string;
  line?: number;
  message: string;
}

/** Raised by the campaign shell for bad files; the CLI prints it without a stack trace. */
export class CampaignError extends Error {
  constructor(readonly problems: FileProblem[]) {
    super(problems.map(formatProblem).join('\n'));
    this.name = 'CampaignError';
  }
}

export function formatProblem(p: FileProblem): string {
  const where = [p.file, p.line !== undefined ? `line ${p.line}` : undefined, p.path].filter(Boolean).join(': ');
  return `${where}: ${p.message}`;
}

export function pathText(path: readonly PropertyKey[]): string {
  return path.map((k, i) => (typeof k === 'number' ? `[${k}]` : `${i ? '.' : ''}${String(k)}`)).join('');
}

/** Validates parsed YAML with a schema; problems carry the file, the key path and its line. */
export function validate<T extends z.ZodType>(schema: T, read: { value: unknown; locate: Locate }, file: string): z.infer<T> {
  const result = schema.safeParse(read.value);
  if (result.success) return result.data;
  throw new CampaignError(
    result.error.issues.map((issue) => ({
      file,
      path: pathText(issue.path),
      line: read.locate(issue.path as (string | number)[]),
      message: issue.message,
    })),
  );
}
