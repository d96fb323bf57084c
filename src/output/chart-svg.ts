/**
 * A chart drawn to SVG in Node by vega's headless View (renderer 'none', no DOM, no canvas). vega
 * and vega-lite load on the first chart drawn, so no other command pays for them.
 */
import { OmgError } from '../base/errors.js';
import { CONFIG, type Chart } from './charts.js';

type Vega = typeof import('vega');
type VegaLite = typeof import('vega-lite');
let engines: Promise<[Vega, VegaLite]> | undefined;

/** Load vega and vega-lite, once: `report` starts this while DuckDB loads the evidence, its main thread idle. */
export function loadChartEngines(): Promise<[Vega, VegaLite]> {
  engines ??= Promise.all([import('vega'), import('vega-lite')]);
  return engines;
}

/**
 * Draw a chart to SVG: compiled by vega-lite, run by a headless vega View. The page's charts are
 * transparent (its style sheet colours their text); a file of its own (render's format=svg) is white,
 * so it reads on any page that shows it.
 */
export async function chartSvg(chart: Chart, options: { standalone?: boolean } = {}): Promise<string> {
  const [vega, vl] = await loadChartEngines();
  const spec = options.standalone ? { ...chart.spec, config: { ...CONFIG, background: 'white' } } : chart.spec;
  // vega and vega-lite would print their warnings and errors to the console: they go to this logger,
  // and an error ends the drawing as one line of ours.
  const errors: string[] = [];
  const logger = quietLogger(errors);
  let view: InstanceType<Vega['View']> | undefined;
  try {
    const compiled = vl.compile(spec as unknown as Parameters<VegaLite['compile']>[0], { logger }).spec;
    compiled.data = [
      ...(compiled.data ?? []),
      ...Object.entries(chart.names).map(([f, names]) => ({ name: `names_${f}`, values: names.map((name) => ({ name })) })),
    ];
    view = new vega.View(vega.parse(compiled), { renderer: 'none', logger, logLevel: vega.Error });
    const svg = await view.toSVG();
    if (errors.length > 0) throw new Error(errors[0]);
    return svg;
  } catch (e) {
    const why = String((e as Error)?.message ?? e).split('\n')[0];
    throw new OmgError(
      `chart "${chart.id}": vega could not draw it: ${why}`,
      'report this as a bug of omg-evidence, with the evidence that made it',
    );
  } finally {
    view?.finalize();
  }
}

/** A vega logger that keeps errors (for the caller to throw) and drops the rest: nothing reaches the console. */
function quietLogger(errors: string[]) {
  let level = 0;
  const logger = {
    level(l?: number) {
      if (l === undefined) return level;
      level = l;
      return logger;
    },
    error(...args: unknown[]) {
      errors.push(args.map((a) => (a instanceof Error ? a.message : String(a))).join(' '));
      return logger;
    },
    warn: () => logger,
    info: () => logger,
    debug: () => logger,
  };
  return logger;
}
