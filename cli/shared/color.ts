/** Colors on stdout (stylish output, `fix --print`'s diff): only on a terminal that supports them, never with NO_COLOR. */
export function stdoutSupportsColor(): boolean {
  if (process.env.NO_COLOR) return false;
  return Boolean(process.stdout.isTTY && process.stdout.hasColors?.());
}
