/**
 * How wide a line of the map's text is, without a browser: the advance widths of DejaVu Sans and DejaVu
 * Sans Bold (thousandths of an em, read from the fonts' hmtx tables for ASCII 32–126). The map asks for
 * Arial, Helvetica or sans-serif; on a Linux reader without Arial the sans-serif is DejaVu Sans, the
 * widest of these faces, so a box measured with it holds the text in any of them. Letters with accents
 * take their base letter's width; anything else a whole em, more than any glyph here.
 */
const REGULAR = [
  318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, 636, 636, 636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531, 1000, 684, 686, 698, 770, 632, 575,
  775, 752, 295, 295, 656, 557, 863, 748, 787, 603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838, 500, 500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974,
  634, 612, 635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838,
];
const BOLD = [
  348, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415, 380, 365, 696, 696, 696, 696, 696, 696, 696, 696, 696, 696, 400, 400, 838, 838, 838, 580, 1000, 774, 762, 734, 830, 683,
  683, 821, 837, 372, 372, 775, 637, 995, 837, 850, 733, 850, 770, 720, 682, 812, 774, 1103, 771, 724, 725, 457, 365, 457, 838, 500, 500, 675, 716, 593, 716, 678, 435, 716, 712, 343, 343, 665, 343,
  1042, 712, 687, 716, 716, 493, 595, 478, 712, 652, 924, 645, 652, 582, 712, 365, 712, 838,
];

/** Above and below the baseline, in ems: the box a browser gives a line of text (DejaVu's; Arial's is within it). */
export const ASCENT = 0.93;
export const DESCENT = 0.24;

function advance(table: readonly number[], c: string): number {
  const code = c.charCodeAt(0);
  if (code >= 32 && code < 127) return table[code - 32]!;
  const base = c.normalize('NFD').charCodeAt(0);
  return base >= 32 && base < 127 ? table[base - 32]! : 1000;
}

/** The width of `text` at `size` pixels, bold or not. */
export function textWidth(text: string, size: number, bold = false): number {
  const table = bold ? BOLD : REGULAR;
  let sum = 0;
  for (const c of text) sum += advance(table, c);
  return (sum / 1000) * size;
}
