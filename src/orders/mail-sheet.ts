import type { ParsedInbound } from '../mail/parse.js';
import { blankMailNoise } from './mail-noise.js';
import { WHOLE_FILE, type OrderSheet } from './sheet.js';
import { readTextSheet } from './text-sheet.js';
import { readYamlSheet } from './yaml-sheet.js';

/**
 * Orders from a parsed mail. A `.yaml`/`.yml` attachment is the order sheet
 * when there is one; the body then only lends its Nation/Turn/Token lines to
 * an attachment that lacks them. Otherwise the body is read as text orders
 * (a YAML sheet pasted in the body is recognised there). What the mail program added (image placeholders,
 * "Sent from my iPhone" and the like) is blanked first: mail-noise.ts.
 */
export interface MailSheet {
  sheet: OrderSheet;
  /** What was read: "mail body" or "attachment orders.yaml". */
  source: string;
}

const YAML_TYPES = new Set(['application/yaml', 'application/x-yaml', 'text/yaml', 'text/x-yaml']);

/**
 * The machine-readable report the campaign mailed (its second line is `format: fatecraft-nation-report/N`):
 * a player whose mail program keeps the attachments of the mail answered sends it back beside the orders.
 */
const NATION_REPORT = /^(?:#[^\n]*\n)*format: fatecraft-nation-report\//;
function isNationReport(content: Buffer): boolean {
  const head = content.subarray(0, 4096).toString('utf8');
  return NATION_REPORT.test(head);
}

export function readMailSheet(mail: Pick<ParsedInbound, 'text' | 'attachments'>): MailSheet {
  const body = readTextSheet(blankMailNoise(mail.text));
  const yaml = mail.attachments.filter((a) => (/\.ya?ml$/i.test(a.filename ?? '') || YAML_TYPES.has(a.contentType)) && !isNationReport(a.content));
  const first = yaml[0];
  if (!first) return { sheet: body, source: 'mail body' };
  const name = first.filename ?? 'attachment';
  const sheet = readYamlSheet(first.content);
  for (const header of ['nation', 'turn', 'token'] as const) {
    if (sheet[header] !== undefined || body[header] === undefined) continue;
    (sheet as unknown as Record<string, unknown>)[header] = body[header];
  }
  if (yaml.length > 1) {
    sheet.problems.push({ text: WHOLE_FILE, reason: `${yaml.length} order files are attached; only ${name} was read`, hint: 'attach one .yaml file per mail' });
  }
  return { sheet, source: `attachment ${name}` };
}
