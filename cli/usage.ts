export const MAIN_USAGE = `Usage: drainguard <command> [options]

Find and fix streamed HTTP responses that are closed right after their terminal
event instead of being drained to EOF (they destroy keep-alive connections).

Commands:
  lint [paths...]   report early closes (ESLint rule drainguard/no-early-stream-close)
  fix  [paths...]   rewrite them into bounded drains

Options:
  -h, --help        show this help
  --version         print the version

Run 'drainguard <command> --help' for the options of a command.
`;

export const LINT_USAGE = `Usage: drainguard lint [paths...] [--format stylish|json|sarif] [--types]

Lints .js .jsx .mjs .cjs .ts .tsx .mts .cts files (not .d.ts) and .py files with
the rule drainguard/no-early-stream-close. No ESLint configuration is needed or read.
Directories are walked (default: .), skipping node_modules, .git and files git
ignores; a path named explicitly is always linted.

Options:
  -f, --format <name>  stylish (default), json (ESLint's JSON formatter) or
                       sarif (SARIF 2.1.0; files that do not parse are results
                       of the rule drainguard/parse-error)
  --types              confirm streams with TypeScript type information
                       (nearest tsconfig.json; default options for other files)
  -h, --help           show this help
  --version            print the version

Exit codes: 0 no problems, 1 problems or files that do not parse,
            2 usage error or a path that does not exist.
Files whose text cannot contain a close (no close method name, no for await)
are not parsed: they are reported clean, even if they have syntax errors.
A stylish run ends with a summary on stderr: files found, files parsed, early
closes (and files that do not parse).

Environment: NO_COLOR disables colors. DRAINGUARD_NO_PREFILTER=1 parses every
file (debugging aid: the rule reports the same, only slower; syntax errors of
files without a close become visible). DRAINGUARD_ENGINE=eslint|oxlint runs
the rule through that engine only (default auto: oxlint for 256 KB or more of
text to parse; the output is the same).
`;

export const FIX_USAGE = `Usage: drainguard fix [paths...] [--dry] [--print] [--json] [--drain-timeout-ms N]
                      [--drain-max-bytes N] [--verify | --no-verify] [--types] [--terminal-pattern RE]...
                      [--close-method NAME]... [--helper-path PATH] [--force]

Rewrites every early close that drainguard lint reports into a bounded drain:
the result is handed over at the terminal event as before, and the rest of the
body is read to EOF in the background (discarded) so the connection goes back
to the pool; if EOF does not come within the budget, the original close (or an
abort of the request) ends it. Sites that cannot be rewritten safely are left
unchanged and reported as manual, with the reason.

Options:
  --dry                  write nothing; report what would change
  --print                show each rewrite as a unified diff
  --json                 print { files: [...], summary: {...} } as JSON
  --drain-timeout-ms N   the drain budget in ms (default 1000; 0 = no budget,
                         reported on every site as unbounded)
  --drain-max-bytes N    the drain's byte limit (default 131072, as undici's
                         body.dump(); 0 = no byte limit)
  --helper-path PATH     the helper module the rewritten files import (a file,
                         or a directory for drain-body.ts/.js; default: the
                         existing one, else drain-body.ts/.js in the rewritten
                         files' common directory)
  --verify               type-check every rewritten TypeScript file (by default
                         only those a tsconfig.json applies to); a rewrite that
                         adds a diagnostic is rolled back and reported manual
                         with the diagnostic
  --no-verify            do not type-check rewritten files
  --types                find sites with TypeScript type information, as
                         drainguard lint --types does
  --terminal-pattern RE  the rule option terminalPatterns (repeat it; replaces
                         the default completion words)
  --close-method NAME    the rule option closeMethods (repeat it; replaces the
                         default close methods)
  --force                rewrite files that have uncommitted changes (fix
                         refuses by default, naming them)
  -h, --help             show this help
  --version              print the version

With --print, stdout holds only the diffs (paths relative to the git work
tree's top level, else to the common directory of the files), so
'drainguard fix --dry --print > p.diff && git apply p.diff' works; the site
report goes to stderr.

Writes are atomic (temporary file + rename): an interrupted run leaves every
file either unchanged or fully rewritten.

Exit codes: 0 every site fixed (or none found), 1 some site manual or some
            file could not be read, parsed or written, 2 usage error, a path
            that does not exist, or refusal: a file to rewrite has
            uncommitted changes.
`;
