import { build } from 'esbuild';
await build({ absWorkingDir: '/work/main', entryPoints: { zodonly: 'bench/tmp/zodonly.ts', contract: 'bench/tmp/contract.ts' }, outdir: '/tmp/zb', bundle: true, format: 'cjs', platform: 'node', target: 'node20', outExtension: { '.js': '.cjs' }, minifyWhitespace: true, minifySyntax: true, logLevel: 'warning' });
