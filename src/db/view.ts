/** A documented view (views.ts): its name, grain, source and what each column means. */
export interface View {
  name: string;
  /** One row per … */
  grain: string;
  /**
   * What fills it: a probe's records (the default; a `probe` column says which), the transcripts
   * (empty unless some are loaded), or the price table, which every load holds.
   */
  source?: 'transcripts' | 'pricing';
  columns: Record<string, string>;
}
