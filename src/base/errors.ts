/**
 * Typed errors and exit codes. Every layer throws one of these; only `main()` in cli/main.ts prints them
 * and turns them into an exit code. A message is one line: where, what, and (as `hint`) what to do.
 */

/** Exit codes, the same in every command. */
export const EXIT = {
  ok: 0,
  /** bad input, I/O */
  error: 1,
  /** usage: unknown option, bad option value, missing argument */
  usage: 2,
  /** a check found a difference (`render --check`, `agree`, `audit`) */
  differs: 3,
  /** the verdict does not hold */
  verdict: 4,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Anything we expect and can explain to a user. */
export class OmgError extends Error {
  readonly exitCode: ExitCode = EXIT.error;
  /** What the user can do about it; printed after the message, on the same line. */
  readonly hint?: string;
  /** More problems of the same input, each a line of its own after the message (the first). */
  readonly details: readonly string[];
  constructor(message: string, hint?: string, options?: ErrorOptions & { details?: string[] }) {
    super(message, options);
    this.name = new.target.name;
    this.hint = hint;
    this.details = options?.details ?? [];
  }
}

/** A file or a record in it could not be read or validated. The message starts with `file:line`. */
export class InputError extends OmgError {}

/** A command line that cannot be acted on: commander cannot see these (e.g. a --format a command lacks). */
export class UsageError extends OmgError {
  override readonly exitCode = EXIT.usage;
}

/** A check ran and found a difference (stale region, derivations that disagree). */
export class DiffersError extends OmgError {
  override readonly exitCode = EXIT.differs;
}

/** stdout's reader stopped reading (`| head`): the end of the output, not an error; said by no message. */
export class OutputClosed extends OmgError {
  override readonly exitCode = EXIT.ok;
}

/** The verdict was computed and does not hold. */
export class VerdictError extends OmgError {
  override readonly exitCode = EXIT.verdict;
}

/**
 * DuckDB rejected a query; the message keeps DuckDB's own words on one line, prefixed by where the
 * query came from. DuckDB's quote of the statement (`LINE 1: …` and a caret) is left out: it quotes
 * the statement as omg-evidence wrapped it, and an error is one line.
 */
export class QueryError extends OmgError {
  constructor(message: string, hint?: string, options?: ErrorOptions) {
    // What DuckDB says before its quote of the statement (a Binder Error's candidates, say) stays, on one line.
    // The blank line before the quote holds no line break of its own: `\s*` there had tried every run of
    // them from each one, quadratic in a message of many line breaks (an error() a check raised).
    const said = message
      .split(/\n[^\S\n]*\nLINE \d+:/)[0]!
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    const [text, fix] = withoutSettingAdvice(said.join('; '));
    super(text, hint ?? fix, options);
  }
}

/**
 * DuckDB's advice to change a setting, sentence by sentence as DuckDB writes it, and what can be done
 * instead: user SQL runs with its configuration locked, so the advice cannot be taken. Only these
 * exact sentences, after DuckDB's own and at the message's end: a user's error() or a value quoted
 * in a message that holds one elsewhere is left as it is.
 */
const SETTING_ADVICE: readonly [RegExp, string][] = [
  [
    /(Max expression depth limit of \d+ exceeded\.)\s+Use "SET max_expression_depth TO x" to increase the maximum expression depth\.\s*$/,
    'nest fewer expressions, or call a recursive macro fewer levels deep: the limit of 1,000 cannot be raised here',
  ],
  [
    /(scalar subqueries can only return a single row\.)(?:;\s*|\s+)Use "SET scalar_subquery_error_on_multiple_rows=false" to revert to previous behavior of returning a random row\.\s*$/,
    'make the subquery return one row, with LIMIT 1 or an aggregate such as first(): the setting cannot be changed here',
  ],
  [
    /(ORDER BY non-integer literal has no effect\.)(?:;\s*|\s+)\* SET order_by_non_integer_literal=true to allow this behavior\.\s*$/,
    "order by a column's name without quotes, or by its position, as in ORDER BY 1",
  ],
  [
    /(Pivot column limit of \d+ exceeded\.)\s+Use SET pivot_limit=X to increase the limit\.\s*$/,
    'pivot on a column of fewer values, or name the values with PIVOT … ON x IN …: the limit cannot be raised here',
  ],
];

/** `message` without DuckDB's advice to change a setting, and what to do instead when it held some. */
export function withoutSettingAdvice(message: string): [string, string | undefined] {
  for (const [advice, fix] of SETTING_ADVICE) if (advice.test(message)) return [message.replace(advice, '$1'), fix];
  return [message, undefined];
}
