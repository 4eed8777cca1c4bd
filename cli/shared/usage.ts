export const MAIN_USAGE = `Usage: drainguard <command> [options]

Find and fix streamed HTTP responses that are closed right after their terminal
event instead of being drained to EOF (they destroy keep-alive connections).

Commands:
  lint [paths...]   report early closes (ESLint rule drainguard/no-early-stream-close)
  fix  [paths...]   rewrite them into bounded drains
  serve             run a connection-counting streaming test server
  prove -- <cmd>    run your calls against ending, silent, trickling,
                    flooding and reset bodies, and print what the server saw
  help [command]    show this help, or the options of a command

Options:
  -h, --help        show this help
  -v, --version     print the version

Run 'drainguard help <command>' (or 'drainguard <command> --help') for the
options of a command.
`;

export const LINT_USAGE = `Usage: drainguard lint [paths...] [--format stylish|json|sarif] [--types]
                       [--terminal-pattern RE]... [--close-method NAME]...

Lints .js .jsx .mjs .cjs .ts .tsx .mts .cts files (not .d.ts) and .py files with
the rule drainguard/no-early-stream-close. No ESLint configuration is needed or read.
Directories are walked (default: .), skipping node_modules, .git and files git
ignores; a path named explicitly is always linted.

Options:
  -f, --format <name>    stylish (default), json (ESLint's JSON formatter) or
                         sarif (SARIF 2.1.0; files that do not parse are results
                         of the rule drainguard/parse-error); --json is --format json
  --types                confirm streams with TypeScript type information
                         (nearest tsconfig.json; default options for other files)
  --terminal-pattern RE  the rule option terminalPatterns (repeat it; replaces
                         the default completion words)
  --close-method NAME    the rule option closeMethods (repeat it; replaces the
                         default close methods)
  --color, --no-color    force colors on or off (default: on a terminal, unless
                         NO_COLOR is set)
  -h, --help             show this help
  -v, --version          print the version

Exit codes: 0 no problems, 1 problems, or files that do not parse or cannot be
            checked, 2 usage error or a path that does not exist.
A file that cannot be read, is too large, binary or not UTF-8 is not checked:
it gets a fatal message saying why (in SARIF a tool execution notification),
and the other files are linted.
Files found by walking whose text cannot contain a close (no close method name,
no for await) are not parsed: they are reported clean, even if they have syntax
errors. A file named on the command line is always parsed.
A stylish run ends with a summary on stderr: files found, files parsed, early
closes (and files that do not parse).

Environment: NO_COLOR disables colors. DRAINGUARD_NO_PREFILTER=1 parses every
file (debugging aid: the rule reports the same, only slower; syntax errors of
files without a close become visible). DRAINGUARD_ENGINE=native|eslint|oxlint
runs the rule through that engine only: ESLint in process with oxc-parser, ESLint
with espree and typescript-eslint's parser, or oxlint's JS plugin host (default
auto: oxlint when it costs less than linting in process, from about 100 KB of
text to parse; the output is the same). DRAINGUARD_MAX_FILE_BYTES=N sets the size
limit of one file (default 16 MiB, less where Node's heap limit is under 2 GiB).
`;

export const FIX_USAGE = `Usage: drainguard fix [paths...] [--dry] [--print] [--json] [--drain-timeout-ms N]
                      [--drain-max-bytes N] [--drain-wait-ms N] [--verify | --no-verify] [--types] [--terminal-pattern RE]...
                      [--close-method NAME]... [--helper-path PATH] [--no-test] [--force]

Rewrites every early close that drainguard lint reports into a bounded drain:
the result is handed over at the terminal event as before, and the rest of the
body is read to EOF in the background (discarded) so the connection goes back
to the pool; if EOF does not come within the budget, the original close (or an
abort of the request) ends it. Sites that cannot be rewritten safely are left
unchanged and reported as manual, with the reason.

Options:
  --dry                  write nothing; report what would change (also
                         --dry-run, -n)
  --print                show each rewrite as a unified diff (--diff is
                         --dry --print)
  --json                 print { files: [...], summary: {...} } as JSON
  --drain-timeout-ms N   the drain budget in ms (default 1000; 0 = no budget,
                         reported on every site as unbounded)
  --drain-max-bytes N    the drain's byte limit (default 131072, as undici's
                         body.dump(); 0 = no byte limit)
  --drain-wait-ms N      the budget of a drain the caller waits for (Python: a
                         generator or with block that drains before it returns;
                         default 50, at most --drain-timeout-ms; 0 = the whole
                         --drain-timeout-ms)
  --helper-path PATH     the helper module the rewritten files import (a file,
                         or a directory for drain-body.ts/.js; default: the
                         existing one, else drain-body.ts/.js in the rewritten
                         files' common directory)
  --verify               type-check every rewritten TypeScript file (by default
                         only those a tsconfig.json applies to); a rewrite that
                         adds a diagnostic is rolled back and reported manual
                         with the diagnostic
  --no-verify            do not type-check rewritten files
  --no-test              write no test of the helper module (by default one
                         is written with it, in the repository's test
                         framework and place, so that coverage gates hold)
  --types                find sites with TypeScript type information, as
                         drainguard lint --types does
  --terminal-pattern RE  the rule option terminalPatterns (repeat it; replaces
                         the default completion words)
  --close-method NAME    the rule option closeMethods (repeat it; replaces the
                         default close methods)
  --force                rewrite files that have uncommitted changes (fix
                         refuses by default, naming them)
  -h, --help             show this help
  -v, --version          print the version

With --print, stdout holds only the diffs (paths relative to the git work
tree's top level, else to the common directory of the files), so
'drainguard fix --dry --print > p.diff && git apply p.diff' works; the site
report goes to stderr.

Writes are atomic (temporary file + rename), and nothing is written before
every rewrite is checked: Ctrl-C stops a run within a second, leaves every file
either unchanged or fully rewritten, and the report lists only what was
written.

Exit codes: 0 every site fixed (or none found), 1 some site manual or some
            file could not be read, parsed or written, 2 usage error, a path
            that does not exist, or refusal: a file to rewrite has
            uncommitted changes, 130 interrupted (Ctrl-C).
`;

const SERVER_OPTIONS = `  --format <name>        sse (default: data: [DONE] ends it), ndjson
                         ({"type":"done"} ends it) or jsonrpc (SSE event: message
                         frames; the JSON-RPC reply to the request's id ends it)
  --events N             events before the terminal event (default 3)
  --tail-delay-ms N      terminal event to the end (end) or reset (reset),
                         default 20
  --event-delay-ms N     between events (default 0)
  --trickle-interval-ms N  between keep-alive comments (trickle; default 100)
  --flood-bytes N        filler written (flood; default 67108864), then silence
  --hold-max-ms N        the server destroys a held-open body after this long
  --script FILE          a JSON file of these options ({"mode", "format",
                         "events": N or [payloads], "terminal", "tail",
                         "tailDelayMs", ...}); flags override it`;

export const SERVE_USAGE = `Usage: drainguard serve [--mode end|silent|trickle|flood|endless|reset] [--format sse|ndjson|jsonrpc]
                        [--events N] [--port N] [--script FILE] [options]

A streaming HTTP/1.1 test server on 127.0.0.1 that counts connections, for
tests in any language. Every request (any method, any path) gets a body of
events and a terminal event; what follows it is the mode's. The first line of
stdout is the server's URL (http://127.0.0.1:PORT). The counts are JSON at
GET <url>/__drainguard/stats: {"connections", "requests", "closedEarly",
"finished"} (connections used only for /__drainguard/ requests are not
counted); POST <url>/__drainguard/reset zeroes them. It runs until SIGINT or
SIGTERM.

Options:
  --mode <name>          after the terminal event: end (default: the body ends
                         shortly after), silent (held open), trickle (keep-alive
                         comments), flood (filler bytes), endless (one line
                         that never ends) or reset (TCP RST)
  --port N               the port (default 0: any free port)
  --keep-alive-timeout-ms N  idle keep-alive connections close after this long
                         (default 5000)
${SERVER_OPTIONS}
  -h, --help             show this help
  -v, --version          print the version

Exit codes: 0 stopped by a signal, 1 could not listen, 2 usage error.
`;

export const PROVE_USAGE = `Usage: drainguard prove [--calls N] [--modes LIST] [--timeout-ms N] [--markdown | --json]
                        [--transport] [server options] -- <command> [args...]

Runs the command once per mode, each time against a fresh test server (the
one drainguard serve starts), and prints a table: requests, TCP connections,
bodies closed before their end, the slowest return after a terminal event,
and the command's exit status. The command makes its calls, one after the
other, to the URL in its environment:
  DRAINGUARD_URL        the server (http://127.0.0.1:PORT; any path works)
  DRAINGUARD_CALLS      how many calls to make (--calls)
  DRAINGUARD_MODE       this run's mode (end, silent, trickle, flood, endless, reset)
  DRAINGUARD_STATS_URL  the server's counts as JSON

Options:
  --calls N              calls per run (default 10)
  --modes LIST           comma-separated modes to run (default
                         end,silent,trickle,flood,endless,reset)
  --timeout-ms N         a run still going after this long is killed
                         (default 20000)
  --markdown             print the table as Markdown (for a pull request)
  --json                 print { command, calls, format, timeoutMs, runs }
  --transport            run each mode twice, the second time with drainguard/undici
                         installed in every Node process the command starts
                         (NODE_OPTIONS=--import=drainguard/undici/register): the
                         effect of the transport on your calls, with no change to
                         them (Node commands only)
${SERVER_OPTIONS}
  -h, --help             show this help
  -v, --version          print the version

Exit codes: 0 every run exited 0, 1 some run failed or was killed at the time
            limit, 2 usage error or a command that cannot be started.
`;
