/**
 * Which files of the `pack` project run. SCANCTL_SKIP_PACK=1 skips them all (a local loop);
 * a comma-separated list of file names skips those (`.ci/run` runs `clone-install` and `recipes`,
 * which prove the docs' install lines rather than a Node line, on the development line only).
 * A name that is not one of the files fails the run instead of skipping nothing.
 */
const PACK_FILES = ['pack-install', 'clone-install', 'recipes', 'package-files'] as const;
export type PackFile = (typeof PACK_FILES)[number];

export function skipPack(file: PackFile): boolean {
  const value = (process.env.SCANCTL_SKIP_PACK ?? '').trim();
  if (value === '' || value === '0') return false;
  if (value === '1') return true;
  const names = value.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !(PACK_FILES as readonly string[]).includes(name));
  if (unknown.length > 0)
    throw new Error(`SCANCTL_SKIP_PACK names no pack file ${unknown.join(', ')}: use 1, or some of ${PACK_FILES.join(', ')}`);
  return names.includes(file);
}
