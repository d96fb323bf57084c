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
    // DuckDB's advice to change a setting (`Use "SET max_expression_depth TO x" …`) cannot be taken:
    // user SQL runs with its configuration locked. What can be done is said instead.
    const text = said.join('; ');
    const set = SET_ADVICE.exec(text);
    super(set ? text.replace(SET_ADVICE, '') : text, hint ?? (set ? settingFixed(set[1]!) : undefined), options);
  }
}

/** DuckDB's sentence that suggests raising a setting. */
const SET_ADVICE = /\s*Use "SET (\w+) TO [^"]*"[^.;]*\.?/;

const settingFixed = (name: string) =>
  name === 'max_expression_depth'
    ? 'nest fewer expressions, or call a recursive macro fewer levels deep: the limit of 1,000 cannot be raised here'
    : `${name} cannot be changed here: ask for less`;
