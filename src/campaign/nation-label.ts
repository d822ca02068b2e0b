/**
 * Nations as the GM's console lists them: by name, with the id the commands take in parentheses
 * ("The Northmark (northmark)"), the id alone when it is the name written differently or the nation
 * has no name. Players' text names nations by name only (docs/reports.md).
 */
export function nationsNamed(ids: readonly string[], nameOf: (id: string) => string | undefined): string {
  return ids
    .map((id) => {
      const name = nameOf(id);
      return name === undefined || name.toLowerCase() === id.toLowerCase() ? (name ?? id) : `${name} (${id})`;
    })
    .join(', ');
}
