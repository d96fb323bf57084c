/**
 * The dependency rule of docs/architecture.md, checked in `npm test` (npm run lint):
 * cli → regions → evidence → {load, analysis} → db → base; output → base; nothing imports upward.
 */
const layer = (name, may) => ({
  name: `${name}-imports`,
  comment: `src/${name} may import only ${may.join(', ')}`,
  severity: 'error',
  from: { path: `^src/${name}/` },
  to: { path: '^src/', pathNot: [`^src/${name}/`, ...may.map((m) => (m.endsWith('.ts') ? `^src/${m.replace('.', '\\.')}$` : `^src/${m}/`))] },
});

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    layer('cli', ['evidence.ts', 'regions', 'output', 'base']),
    layer('regions', ['evidence.ts', 'output', 'base']),
    layer('load', ['db', 'base']),
    layer('analysis', ['db', 'base']),
    layer('db', ['base']),
    layer('output', ['base']),
    layer('base', []),
    {
      name: 'evidence-imports',
      comment: 'the facade imports the layers below it, never a front end',
      severity: 'error',
      from: { path: '^src/evidence\\.ts$' },
      to: { path: '^src/(cli|regions)/' },
    },
    {
      name: 'no-orphans',
      severity: 'error',
      from: { orphan: true, path: '^src/', pathNot: ['^src/(bin|index)\\.ts$', '\\.d\\.ts$'] },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
