/**
 * The process's I/O, injected so commands run in-process in tests: stdout for data only, stderr
 * for everything else.
 */
export interface IO {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Whether stdout is a terminal: picks the default format and colour. */
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  env: NodeJS.ProcessEnv;
}

export const processIO: IO = {
  stdout: (t) => void process.stdout.write(t),
  stderr: (t) => void process.stderr.write(t),
  stdoutIsTTY: Boolean(process.stdout.isTTY),
  stderrIsTTY: Boolean(process.stderr.isTTY),
  env: process.env,
};

/** Print a warning line on stderr. */
export function warn(io: IO, message: string): void {
  io.stderr(`omg-evidence: warning: ${message}\n`);
}

/** Colour only on a terminal, and never when NO_COLOR is set. */
export function useColor(io: IO): boolean {
  return io.stdoutIsTTY && !io.env.NO_COLOR;
}
