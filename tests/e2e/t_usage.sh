# A usage error (issue 33): one line saying what is missing or wrong, then "see 'umpire help
# CMD'", exit 64 — never the whole help page — for every command of the command table.
. "$ROOT/tests/e2e/lib.sh"
# usage_error CMD ARGS...: exit 64, stderr exactly "umpire CMD: ..." and "see 'umpire help CMD'".
usage_error() {
    _cmd=$1
    expect 64 "$BIN" "$@"
    [ "$(wc -l < "$TMP/err")" -eq 2 ] || { cat "$TMP/err" >&2; die "'umpire $*': not two lines"; }
    head -n 1 "$TMP/err" | grep -q "^umpire $_cmd: ." || { cat "$TMP/err" >&2; die "'umpire $*': first line"; }
    [ "$(sed -n 2p "$TMP/err")" = "see 'umpire help $_cmd'" ] || { cat "$TMP/err" >&2; die "'umpire $*': no see line"; }
    [ ! -s "$TMP/out" ] || die "'umpire $*' wrote on stdout"
}
cmds=$("$BIN" --help | sed -n 's/^  umpire \([a-z]*\).*/\1/p')
[ "$(echo "$cmds" | wc -l)" -ge 21 ] || die "fewer commands than expected: $cmds"
for c in $cmds; do
    usage_error "$c" --no-such-option
    has "$TMP/err" "umpire $c: unrecognized option '--no-such-option'"
    case $c in
    nonce) usage_error nonce extra; has "$TMP/err" "unexpected argument 'extra' (it takes no arguments)" ;;
    rules) usage_error rules a b; has "$TMP/err" "unexpected argument 'b' (NAME expected, no more)" ;;
    seal) usage_error seal; has "$TMP/err" "umpire seal: missing ORDERS (the order file to seal)" ;;
    *) usage_error "$c"; has "$TMP/err" "umpire $c: missing DIR" ;;
    esac
done
usage_error check "$TMP"; has "$TMP/err" "missing ORDERS... (the order files to check)"
usage_error audit "$TMP" 3:1 extra; has "$TMP/err" "unexpected argument 'extra'"
usage_error status a b; has "$TMP/err" "unexpected argument 'b' (DIR expected, no more)"
usage_error inbox "$TMP"; has "$TMP/err" "missing --maildir PATH"
usage_error run "$TMP"; has "$TMP/err" "missing --maildir PATH"
usage_error turn "$TMP" --beacon-signature ab; has "$TMP/err" "--beacon-signature goes with --beacon VALUE"
usage_error turn "$TMP" --beacon-fetch --beacon 1; has "$TMP/err" "--beacon-fetch takes no --beacon"
usage_error init "$TMP/x" --scenario s.yaml --entropy dice; has "$TMP/err" "--entropy 'dice' (beacon, players or none expected)"
usage_error log "$TMP" --turn; has "$TMP/err" "option '--turn' requires an argument"
# No command at all: what is missing and the commands, in one line.
expect 64 "$BIN"
[ "$(wc -l < "$TMP/err")" -eq 2 ] || die "umpire without a command: not two lines"
has "$TMP/err" "umpire: missing COMMAND (one of: init check close"
has "$TMP/err" "see 'umpire help'"
