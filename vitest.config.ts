import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The pack project's files install packages for one to three minutes each: started first, they run
 * beside the rest of the suite instead of after it (vitest's own order puts the projects by name).
 */
class PackFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return [...sorted.filter((f) => f.project.name === 'pack'), ...sorted.filter((f) => f.project.name !== 'pack')];
  }
}

/**
 * Three projects: `unit` (in-process, seconds: `npm run test:unit`), `e2e` (the built CLI and real
 * loopback servers: `npm run test:e2e`) and `pack` (npm pack, installs of the tarball, the recipes and a fresh clone: minutes;
 * SCANCTL_SKIP_PACK=1 skips it). `npx vitest run` and `npm test` run all three. The random-seed
 * kill -9 soak is `npm run test:soak`; the default suite runs it once with a fixed seed.
 */
export default defineConfig({
  test: {
    // e2e tests spawn the built CLI and real servers: give them room on a 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most of the suite waits on child processes and sockets, not the CPU: vitest's default on a
    // 2-core machine (one worker) leaves a core idle for most of the run.
    maxWorkers: 3,
    sequence: { sequencer: PackFirst },
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/setup.ts'],
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.{ts,tsx}'] } },
      // examples/express is a project of its own (express is not scanctl's dependency): test/e2e/express-example.test.ts
      // installs and runs it from a copy.
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.{ts,tsx}', 'examples/**/*.test.{ts,tsx}'],
          exclude: ['examples/express/**'],
          // One e2e file after an edit under src/: the CLI's bundles are made again first (2 s), no full build.
          globalSetup: ['test/global-setup.ts', 'test/fresh-bundle.ts'],
        },
      },
      { extends: true, test: { name: 'pack', include: ['test/pack/**/*.test.ts'] } },
      // The single executable (dist/exe/scanctl, built by npm test) run as a user without Node runs it.
      { extends: true, test: { name: 'exe', include: ['test/exe/**/*.test.ts'] } },
    ],
  },
});
