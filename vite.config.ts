/**
 * The build of the JavaScript that ships (`npm run build`, after tsc has checked the types and
 * written the declarations to dist/src/): the executable and the library entry, each bundled with
 * the modules it imports, node-api's JavaScript and commander included, into dist/ (the entries and
 * a dozen shared chunks). Loading those instead of some 230 files starts every command ~30 ms
 * sooner (README, Performance). What stays a package of its own: DuckDB's native binding, and
 * arquero and cli-table3, which load on first use. vega and vega-lite are bundled too, with the
 * packages they import, into chunks that only `report` and `render`'s format=svg load.
 */
import { defineConfig } from 'vite';

export default defineConfig({
  publicDir: false,
  logLevel: 'warn',
  build: {
    ssr: true,
    target: 'node20',
    outDir: 'dist',
    emptyOutDir: false,
    minify: false,
    rollupOptions: {
      input: { bin: 'src/bin.ts', index: 'src/index.ts' },
      external: ['@duckdb/node-bindings', 'arquero', 'cli-table3'],
      output: { format: 'es', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name].js' },
    },
  },
  // vega's own dependencies too (d3-*, topojson-client, delaunator, robust-predicates, internmap):
  // left external, node resolved and loaded some 150 of their modules on every chart.
  ssr: {
    target: 'node',
    noExternal: ['@duckdb/node-api', 'commander', /^vega/, /^d3-/, 'topojson-client', 'delaunator', 'robust-predicates', 'internmap'],
  },
});
