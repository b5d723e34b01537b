/** Types of scripts/node-bundle.mjs for the TypeScript that imports it (the P1 bench's worker build). */
import type { BuildOptions } from 'esbuild'
export declare function nodeBundleOptions(root: string, outdir: string): BuildOptions
export declare const ESM_REQUIRE_BANNER: string
