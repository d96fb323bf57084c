/**
 * The process's I/O, injected so commands run in-process in tests: stdout for data only, stderr
 * for everything else.
 */
import { visibleFormat } from '../output/shown.js';

export interface IO {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Whether stdout is a terminal: picks the default format and colour. */
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** The terminal's width when stdout is one. */
  stdoutColumns?: number;
  env: Record<string, string | undefined>;
}

let stdoutGone = false;
/** Whether stdout's reader has gone (EPIPE, src/bin.ts): what is written after is dropped. */
export const stdoutClosed = (): boolean => stdoutGone;
/** Said by bin.ts when stdout's reader has gone; the command goes on to its exit code (a verdict's 4). */
export function closeStdout(): void {
  stdoutGone = true;
}

let stdoutUsed = false;
/** Whether anything was written to stdout: bin.ts waits for it to be flushed, and only then. */
export const stdoutWritten = (): boolean => stdoutUsed;

export const processIO: IO = {
  stdout: (t) => {
    stdoutUsed = true;
    if (!stdoutGone) process.stdout.write(t);
  },
  stderr: (t) => void process.stderr.write(t),
  stdoutIsTTY: Boolean(process.stdout.isTTY),
  stderrIsTTY: Boolean(process.stderr.isTTY),
  // Read when a table is drawn: the terminal may have been resized since the start.
  get stdoutColumns() {
    return process.stdout.isTTY ? process.stdout.columns : undefined;
  },
  env: process.env,
};

/** Print a note on stderr, one line whatever paths or names it quotes. */
export function say(io: IO, message: string): void {
  io.stderr(`omg-evidence: ${visible(message)}\n`);
}

/** Print a warning line on stderr. */
export function warn(io: IO, message: string): void {
  say(io, `warning: ${message}`);
}

/**
 * `text` with its control characters (C0, DEL, C1) and the bidirectional overrides written as
 * \u escapes: a model id or a path from hostile input may hold an escape sequence or a newline,
 * which would otherwise drive the terminal or split a one-line message.
 */
export function visible(text: string): string {
  // The invisible ones left (a zero-width space after a model id) as code points, as tables show them.
  return visibleFormat(
    text.replace(
      /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    ),
  );
}

/**
 * Colour on a terminal unless NO_COLOR is set (to anything but '') or TERM is dumb; FORCE_COLOR turns it on
 * anywhere, and off when it is 0 or false. As Node reads them, FORCE_COLOR wins over NO_COLOR.
 */
export function useColor(io: IO): boolean {
  const force = io.env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force !== 'false';
  if (io.env.NO_COLOR) return false;
  // A terminal that says it cannot show colour (TERM=dumb: Emacs' shell, some CI logs) gets none, as Node's hasColors() says.
  if (io.env.TERM === 'dumb') return false;
  return io.stdoutIsTTY;
}
