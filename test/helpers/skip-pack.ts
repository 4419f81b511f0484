/**
 * Which files of the `pack` project run. SCANCTL_SKIP_PACK=1 skips all three (a local loop);
 * a comma-separated list of file names skips those (`.ci/run` runs `clone-install` and `recipes`,
 * which prove the docs' install lines rather than a Node line, on the development line only).
 */
export type PackFile = 'pack-install' | 'clone-install' | 'recipes';

export function skipPack(file: PackFile): boolean {
  const value = (process.env.SCANCTL_SKIP_PACK ?? '').trim();
  if (value === '1') return true;
  return value
    .split(',')
    .map((name) => name.trim())
    .includes(file);
}
