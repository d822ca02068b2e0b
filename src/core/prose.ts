/**
 * Small pieces of English grammar for text built from names: "an Iron
 * mine", not "a Iron mine"; a goal that ends with a full stop does not get
 * a second one.
 */

/** "a" or "an" for the word that follows, by its sound where the spelling misleads. */
export function article(word: string): 'a' | 'an' {
  const w = word.trim().toLowerCase();
  if (/^(?:uni|use|usu|uti|one|once|eu|ewe|u[bcfgklmprstvz][aeiou]|\+)/.test(w)) return 'a';
  if (/^(?:hour|honou?r|heir|honest)/.test(w)) return 'an';
  return /^[aeiou]/.test(w) ? 'an' : 'a';
}

/** The word with its article: "an attack", "a Silver mine". */
export const withArticle = (word: string): string => `${article(word)} ${word}`;

/** Text ended with a full stop, unless it already ends a sentence ("…learn what they knew." stays as it is). */
export function sentence(text: string): string {
  const t = text.trimEnd();
  return /[.!?…]["'”’)\]]*$/.test(t) ? t : `${t}.`;
}

/** A noun's plural, by the regular English rules: battle → battles, hex → hexes, success → successes, city → cities. */
export function pluralOf(word: string): string {
  if (/(?:s|x|z|ch|sh)$/i.test(word)) return `${word}es`;
  if (/[^aeiou]y$/i.test(word)) return `${word.slice(0, -1)}ies`;
  return `${word}s`;
}

/** "1 battle", "3 battles", "2 hexes": the count and the noun in the number it takes (`many` where the rules do not fit). */
export function plural(n: number, word: string, many?: string): string {
  return `${n} ${n === 1 ? word : (many ?? pluralOf(word))}`;
}
