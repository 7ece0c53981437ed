# lib.sh — shared helpers for the end-to-end tests (sourced). BIN, ROOT and TMP are set by
# run-all.sh. Every helper fails the test loudly.
set -eu
export SOURCE_DATE_EPOCH=1767225600
export LC_ALL=C
export PYTHONDONTWRITEBYTECODE=1   # no __pycache__ next to the tests' Python helpers
# JSV: the independent verifier in JavaScript (tools/umpire-verify.mjs, web/src/), run by node.
JSV="$ROOT/tools/umpire-verify.mjs"
# Nothing of the machine's configuration: a fresh HOME and XDG_CONFIG_HOME (global config of
# git and of libgit2), no system git config, and the identity the tests' own commits need.
export HOME="$TMP/.home" XDG_CONFIG_HOME="$TMP/.home/.config" GIT_CONFIG_NOSYSTEM=1
mkdir -p "$HOME"
export GIT_AUTHOR_NAME=umpire-tests GIT_AUTHOR_EMAIL=tests@umpire.invalid
export GIT_COMMITTER_NAME=umpire-tests GIT_COMMITTER_EMAIL=tests@umpire.invalid

die() { echo "FAILED: $*" >&2; exit 1; }
# skip REASON: this machine cannot run the test; run-all.sh reports it as SKIP, not PASS.
skip() { echo "$*"; exit 77; }

# expect CODE CMD...: runs CMD, requires exit code CODE; output in $TMP/out, $TMP/err.
# (Helpers use _-prefixed names: sh has no locals, and tests have their own variables.)
expect() {
    _want=$1; shift
    set +e; "$@" >"$TMP/out" 2>"$TMP/err"; _got=$?; set -e
    [ "$_got" -eq "$_want" ] || { cat "$TMP/out" "$TMP/err" >&2; die "'$*' exited $_got ($_want expected)"; }
}
# both_fail DIR [ARGS...]: a tamper both verifiers must refuse (issue 25): the JavaScript one
# (tools/umpire-verify.mjs: a 'verify: FAILED:' line, then 'verdict: failed' last) and
# `umpire verify` each exit 65 on DIR; $TMP/out and $TMP/err are then umpire verify's,
# $TMP/js.out the JavaScript verifier's.
both_fail() {
    expect 65 ${JSV_SERVING:-node "$JSV"} "$@"
    cp "$TMP/out" "$TMP/js.out"
    grep -q '^verify: FAILED: ' "$TMP/js.out" || { cat "$TMP/js.out" >&2; die "umpire-verify.mjs: no 'verify: FAILED:' line"; }
    [ "$(tail -n 1 "$TMP/js.out")" = "verdict: failed" ] || die "umpire-verify.mjs: verdict: failed is not the last line"
    expect 65 "$BIN" verify "$@"
}

# jsv_start: one node process (tests/e2e/jsv-serve.mjs) runs tools/umpire-verify.mjs for every
# later `jsv ARGS...` and both_fail of the test (node's start and the verifier's modules, 0.8 s
# of CPU each, paid once); it ends with the test (its input closed).
jsv_start() {
    mkfifo "$TMP/jsv.in" "$TMP/jsv.codes"
    node "$ROOT/tests/e2e/jsv-serve.mjs" <"$TMP/jsv.in" >"$TMP/jsv.codes" &
    exec 3>"$TMP/jsv.in" 4<"$TMP/jsv.codes"
    JSV_SERVING=jsv
}
# jsv ARGS...: tools/umpire-verify.mjs ARGS... by that process: its output and error on this
# shell's, its exit code returned.
jsv() {
    _q=$(python3 -c 'import json, sys; print(json.dumps({"args": sys.argv[3:], "out": sys.argv[1], "err": sys.argv[2]}))' \
        "$TMP/jsv.out" "$TMP/jsv.err" "$@")
    printf '%s\n' "$_q" >&3
    read -r _code <&4 || die "tests/e2e/jsv-serve.mjs ended"
    cat "$TMP/jsv.out"; cat "$TMP/jsv.err" >&2
    return "$_code"
}

# The tampered clones of the verifier tests (t_verify, t_js_verifier, t_js_tampers), as an
# umpire rewriting a published turn would make them:
# tclone NAME [SRC]: a fresh plain clone $TMP/NAME of SRC (default $C), tags and all, no .umpire/.
tclone() {
    rm -rf "${TMP:?}/$1"; git clone -q "${2:-$C}" "$TMP/$1"
    [ ! -e "$TMP/$1/.umpire" ] || die "the clone holds .umpire/"
}
# tcommit NAME TAG: commits the changes in $TMP/NAME (as mallory) and moves TAG onto it.
tcommit() {
    git -C "$TMP/$1" -c user.name=mallory -c user.email=mallory@example.org commit -qam tamper >/dev/null
    git -C "$TMP/$1" tag -f "$2" >/dev/null
}
# tamend NAME TAG: the changes replace the commit at main's tip, TAG moved onto it.
tamend() {
    git -C "$TMP/$1" -c user.name=mallory -c user.email=m@example.org commit -q -a --amend --no-edit >/dev/null
    git -C "$TMP/$1" tag -f "$2" >/dev/null
}
# tforge NAME DIR TAG FILE: main of the clone NAME of DIR moved back to before TAG, whose close
# file becomes FILE, committed again as umpire would (its identity, the close time, its message
# with the round FILE names) and tagged TAG: a close that rebuilds.
tforge() {
    git -C "$TMP/$1" reset -q --hard "$3^"
    _p=$(git -C "$TMP/$1" ls-tree -r --name-only "$3" | grep '\.close\.yaml$' | sort | tail -n 1)
    cp "$4" "$TMP/$1/$_p"; git -C "$TMP/$1" add "$_p"
    _r=$(sed -n 's/^  round: //p' "$4")
    git -C "$2" log -1 --format=%B "$3" | sed "s/beacon round [0-9]*/beacon round $_r/" >"$TMP/msg"
    _at=$(sed -n 's/^closed_at: //p' "$4")
    GIT_AUTHOR_NAME=umpire GIT_AUTHOR_EMAIL=umpire@localhost GIT_AUTHOR_DATE="@$_at +0000" \
        GIT_COMMITTER_NAME=umpire GIT_COMMITTER_EMAIL=umpire@localhost \
        GIT_COMMITTER_DATE="@$_at +0000" git -C "$TMP/$1" commit -q -F "$TMP/msg"
    git -C "$TMP/$1" tag -f "$3" >/dev/null
}
# has FILE PATTERN: FILE ($TMP/err by default) contains the fixed string PATTERN.
has() { grep -qF -- "$2" "$1" || { cat "$1" >&2; die "'$2' not found in $1"; }; }

# shows_source FILE PATTERN: the error line holding PATTERN is followed by its source line
# (` LINE | text`, LINE the error's line) and a caret line with the `^` under the error's
# column (counted as characters: for ASCII lines without tabs).
shows_source() {
    awk -v pat="$2" '
        !found && index($0, pat) {
            found = NR
            match($0, /:[0-9]+:[0-9]+: error:/)
            split(substr($0, RSTART + 1, RLENGTH), pos, ":")
            next
        }
        found && NR == found + 1 { src = $0 }
        found && NR == found + 2 { car = $0; exit }
        END {
            if (!found) exit 1
            if (src !~ "^ +" pos[1] " [|]") exit 2
            bar = index(car, "| ")
            if (bar == 0 || substr(car, 1, bar - 1) !~ /^ +$/ || car !~ /\^$/) exit 3
            if (index(car, "^") - (bar + 2) + 1 != pos[2]) exit 4
        }' "$1" || { cat "$1" >&2; die "no source line with a caret under the column after '$2'"; }
}

# shows_excerpt FILE PATTERN WIDTH CHAR: the error line holding PATTERN is followed by its
# source line cut to a window (`...` where cut) of at most WIDTH columns, and a caret line
# whose `^` stands under CHAR, the character at the error's column (ASCII lines: the window
# may start anywhere, so the caret is checked against what is shown above it).
shows_excerpt() {
    awk -v pat="$2" -v width="$3" -v ch="$4" '
        !found && index($0, pat) { found = NR; next }
        found && NR == found + 1 { src = $0 }
        found && NR == found + 2 { car = $0; exit }
        END {
            if (!found) exit 1
            bar = index(src, "| ")
            if (bar == 0 || substr(src, 1, bar - 1) !~ /^ +[0-9]+ $/) exit 2
            text = substr(src, bar + 2)
            sub(/^[.][.][.]/, "", text)
            sub(/[.][.][.]$/, "", text)
            if (length(text) > width) exit 3
            if (car !~ /^ +[|] +\^$/) exit 4
            if (substr(src, index(car, "^"), 1) != ch) exit 5
        }' "$1" || { cat "$1" >&2; die "no $3-column excerpt with a caret under '$4' after '$2'"; }
}

# journal_sql DIR STATEMENT: runs STATEMENT on the journal of the campaign DIR with the
# append-only triggers dropped (a tamper the verifiers must catch).
journal_sql() {
    _db="$1/.umpire/journal.sqlite"
    for _t in $(sqlite3 "$_db" "SELECT name FROM sqlite_master WHERE type = 'trigger'"); do
        sqlite3 "$_db" "DROP TRIGGER $_t"
    done
    sqlite3 "$_db" "$2"
}

# A campaign's fingerprint: HEAD, tags, journal row count, work-tree status.
fingerprint() {
    _d=$1
    printf '%s\n' "$(git -C "$_d" rev-parse HEAD)" "$(git -C "$_d" tag | tr '\n' ' ')" \
        "$(git -C "$_d" status --porcelain | tr '\n' ' ')"
    sqlite3 "$_d/.umpire/journal.sqlite" "SELECT (SELECT count(*) FROM turns)+(SELECT count(*) FROM orders)+(SELECT count(*) FROM dice)+(SELECT count(*) FROM events)+(SELECT count(*) FROM files)"
}

# with_emails SCENARIO ID=ADDRESS...: SCENARIO (a scenario.yaml) on standard output with an
# `email:` line under each named player (ADDRESS as YAML: one address or `[a, b]`).
with_emails() {
    awk 'BEGIN { for (i = 2; i < ARGC; i++) {
            k = substr(ARGV[i], 1, index(ARGV[i], "=") - 1); mail[k] = substr(ARGV[i], index(ARGV[i], "=") + 1)
            ARGV[i] = "" } }
        { print } /^  - id: / && ($3 in mail) { print "    email: " mail[$3] }' "$@"
}
# new_campaign NAME DIR [INIT-ARGS...]: initialises the shipped example campaign NAME in DIR
# as the demo does (its demo.init options, e.g. its entropy), then INIT-ARGS (which win:
# --entropy none for tests that process turns in one step).
new_campaign() {
    _name=$1 _dir=$2; shift 2
    _init=$(cat "$ROOT/campaigns/$_name/demo.init" 2>/dev/null || true)
    # demo.init's beacon options (--beacon S, --beacon-genesis T, ..., --demo-beacon) go with
    # entropy beacon: left out when the test asks for another entropy or names its own beacon.
    case " $* " in *" --entropy none "* | *" --entropy players "* | *" --beacon "*)
        # shellcheck disable=SC2086
        _init=$(printf '%s\n' $_init | awk '$0 == "--demo-beacon" { next }
            /^--beacon/ { skip = 1; next } skip { skip = 0; next } { print }' | tr '\n' ' ') ;;
    esac
    # shellcheck disable=SC2086
    "$BIN" init "$_dir" --scenario "$ROOT/campaigns/$_name/scenario.yaml" \
        --secret-file "$ROOT/campaigns/$_name/demo.secret" --visibility open \
        $_init "$@" >/dev/null
}
# play NAME DIR [LAST]: plays the shipped turns of NAME up to LAST (default all) as the demo
# does (tools/demo-play: each turn closed, then resolved with the demo's beacon value).
play() {
    (cd "$ROOT" && tools/demo-play "$BIN" "$1" "$2" "${3:-9999}" >/dev/null)
}

# demo_played NAME DIR: DIR holds the shipped campaign NAME played whole as the demo plays it
# (new_campaign NAME DIR, then play NAME DIR): a copy of the one run-all.sh played with this
# binary for the whole run (E2E_DEMOS), or played here when there is none.
demo_played() {
    if [ -n "${E2E_DEMOS:-}" ] && [ -d "$E2E_DEMOS/$1" ]; then
        cp -a "$E2E_DEMOS/$1" "$2"
    else
        new_campaign "$1" "$2"
        play "$1" "$2"
    fi
}
# demo_shows NAME DIR: every line `TURN TEXT` of campaigns/NAME/demo-shows.txt holds: TEXT (a
# fixed string) is in turn TURN's journal export or one of its reports in the played campaign
# DIR (a sealed campaign's player reports: in .umpire/outbox/PLAYER/turn-NNNN/). That file
# says what each demo turn is there to show; tools/demo-tune reads the same file when it
# chooses a demo's beacon values.
demo_shows() {
    _f="$ROOT/campaigns/$1/demo-shows.txt"
    [ -f "$_f" ] || die "no $_f"
    grep -v '^[[:space:]]*\(#\|$\)' "$_f" | while IFS= read -r _line; do
        _t=$(printf '%s\n' "$_line" | cut -d' ' -f1)
        _text=$(printf '%s\n' "$_line" | cut -d' ' -f2-)
        _n=$(printf '%04d' "$_t")
        # open campaigns commit reports/turn-NNNN/PLAYER.md; sealed ones the public
        # reports/turn-NNNN.md, and each player's report goes to his outbox
        cat "$2/journal/turn-$_n.yaml" "$2/reports/turn-$_n"/*.md "$2/reports/turn-$_n.md" \
            "$2/.umpire/outbox"/*/"turn-$_n"/report.md 2>/dev/null |
            grep -qF -- "$_text" || die "$1 turn $_t does not show '$_text' (campaigns/$1/demo-shows.txt)"
    done
}

# doc_table NAME DIR PAGE: the turn-by-turn table of PAGE (a docs/ page: its section "Example
# campaign: `campaigns/NAME/`", rows `| TURN | ... |`) tells the truth about the demo played
# in DIR: it has one row for each shipped turn, each row quotes ("...") at least one text, and
# each quoted text is in that turn's journal export or one of its reports (read as demo_shows
# reads them, HTML entities decoded), so that the page cannot drift from the demo's dice.
doc_table() {
    python3 - "$ROOT/campaigns/$1" "$2" "$ROOT/$3" "$1" <<'PY' || die "$3: its table of $1's demo does not match the demo played in $2"
import glob, html, os, re, sys
camp, dest, page, name = sys.argv[1:5]
text = open(page, encoding="utf-8").read()
head = "## Example campaign: `campaigns/%s/`" % name
if head not in text:
    sys.exit("%s: no section '%s'" % (page, head))
section = text.split(head, 1)[1].split("\n## ", 1)[0]
rows = [l for l in section.splitlines() if re.match(r"^\| [0-9]+ \|", l)]
turns = sorted(int(d[5:]) for d in os.listdir(os.path.join(camp, "orders")) if d.startswith("turn-"))
got = [int(l.split("|")[1]) for l in rows]
if got != turns:
    sys.exit("%s: the table's rows are turns %s, the demo's turns %s" % (page, got, turns))
bad = 0
for row, n in zip(rows, got):
    files = [os.path.join(dest, "journal", "turn-%04d.yaml" % n), os.path.join(dest, "reports", "turn-%04d.md" % n)]
    files += sorted(glob.glob(os.path.join(dest, "reports", "turn-%04d" % n, "*.md")))
    files += sorted(glob.glob(os.path.join(dest, ".umpire", "outbox", "*", "turn-%04d" % n, "report.md")))
    seen = "\n".join(html.unescape(open(f, encoding="utf-8").read()) for f in files if os.path.exists(f))
    quotes = re.findall(r'"([^"]+)"', row)
    if not quotes:
        print("%s: turn %d's row quotes no text of the turn" % (page, n), file=sys.stderr)
        bad += 1
    for q in quotes:
        if html.unescape(q) not in seen:
            print("%s: turn %d: \"%s\" is not in the turn's journal or reports" % (page, n, q), file=sys.stderr)
            bad += 1
sys.exit(1 if bad else 0)
PY
}
