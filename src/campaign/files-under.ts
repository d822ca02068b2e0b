import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Every file under a folder, by its path relative to it, in a stable order (folders walked, not listed). */
export function filesUnder(root: string, dir = root): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? filesUnder(root, path) : [relative(root, path)];
    });
}
