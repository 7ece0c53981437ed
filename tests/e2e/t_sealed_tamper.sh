# Tampers with a sealed turn before the reveal, and the tampers the two verifiers once
# disagreed on (issue 25, items 3 and 4). Everything public in a sealed turn is bound by what
# verify checks: the public report and the public state by their hashes in the export, so an
# edit with the commit rebuilt (same parent, message, trailers, author and time) fails in
# both verifiers; on the umpire's own copy the SQLite journal is checked against the export,
# and the next turn refuses a journal edited under the history, as on an open campaign.
. "$ROOT/tests/e2e/lib.sh"
H="$ROOT/campaigns/harbour-raid"
V="$JSV"

# rebuild DIR TAG: commits DIR's index as TAG's commit rebuilt (same parent, message, author,
# committer and time), TAG and main (at TAG) moved onto it.
rebuild() {
    _old=$(git -C "$1" rev-parse "$2^{commit}")
    _when=$(git -C "$1" log -1 --format=%at "$_old")
    git -C "$1" cat-file commit "$_old" | sed '1,/^$/d' >"$TMP/msg"
    _tree=$(git -C "$1" write-tree)
    _new=$(GIT_AUTHOR_NAME=umpire GIT_AUTHOR_EMAIL=umpire@localhost GIT_AUTHOR_DATE="$_when +0000" \
        GIT_COMMITTER_NAME=umpire GIT_COMMITTER_EMAIL=umpire@localhost GIT_COMMITTER_DATE="$_when +0000" \
        git -C "$1" commit-tree "$_tree" -p "$_old^" -F "$TMP/msg")
    git -C "$1" reset -q --soft "$_new"
    git -C "$1" tag -f "$2" "$_new" >/dev/null
}

S="$TMP/sealed"
"$BIN" init "$S" --scenario "$H/scenario.yaml" --secret-file "$H/demo.secret" --entropy none \
    --visibility sealed >/dev/null
for t in 1 2 3; do
    # shellcheck disable=SC2046
    "$BIN" turn "$S" $(ls "$H/orders/turn-000$t"/*.yaml) >/dev/null
done
expect 3 "$BIN" verify "$S"
expect 3 node "$V" "$S"
grep -q '^public_report_sha256: ' "$S/journal/turn-0003.yaml" || die "no public_report_sha256 in a sealed export"

# The public report edited, the commit rebuilt with the same trailers, the tag moved.
git clone -q "$S" "$TMP/report"
echo "The defender surrendered." >>"$TMP/report/reports/turn-0003.md"
git -C "$TMP/report" add reports/turn-0003.md
rebuild "$TMP/report" turn-0003
both_fail "$TMP/report"
has "$TMP/out" "verify: FAILED: turn 3: reports/turn-0003.md at turn-0003 hashes to "
has "$TMP/out" "the export says public_report_sha256 "
has "$TMP/js.out" "verify: FAILED: turn 3: public report: reports/turn-0003.md hashes to "
# The public state alike.
git clone -q "$S" "$TMP/state"
echo "# edited" >>"$TMP/state/state.yaml"
git -C "$TMP/state" add state.yaml
rebuild "$TMP/state" turn-0003
both_fail "$TMP/state"
has "$TMP/out" "verify: FAILED: turn 3: state.yaml at turn-0003 hashes to "
has "$TMP/js.out" "state_sha256 is not SHA256 of the committed state.yaml"

# An order file made executable in an open campaign's history (the commit rebuilt as above):
# umpire verify refused it, tools/umpire-verify.mjs passed it.
O="$TMP/open"
new_campaign harbour-raid "$O" --entropy none --visibility open
play harbour-raid "$O" 2
git clone -q "$O" "$TMP/exec"
of=$(cd "$TMP/exec" && ls orders/turn-0002/*.yaml | head -n 1)
git -C "$TMP/exec" update-index --chmod=+x "$of"
rebuild "$TMP/exec" turn-0002
both_fail "$TMP/exec"
has "$TMP/js.out" "$of: committed with mode 100755, not 100644"

# The umpire's own copy: the journal's append-only triggers dropped, a die of the last turn
# changed, or its files rows deleted. Git is untouched, so tools/umpire-verify.mjs (which reads
# git only) passes; umpire verify, which also reads the journal, fails, and the next turn
# refuses to build on it, sealed as open.
for vis in sealed open; do
    src=$S; last=3
    [ "$vis" = sealed ] || { src=$O; last=2; }
    next=$((last + 1))
    for what in die files; do
        D="$TMP/$vis-$what"
        cp -a "$src" "$D"
        if [ "$what" = die ]; then
            journal_sql "$D" "UPDATE dice SET value = value % sides + 1 WHERE turn = $last AND idx = 0"
        else
            journal_sql "$D" "DELETE FROM files WHERE turn = $last"
        fi
        expect 3 node "$V" "$D"
        expect 65 "$BIN" verify "$D"
        has "$TMP/out" "verify: FAILED: turn $last: "
        before=$(fingerprint "$D")
        # shellcheck disable=SC2046
        expect 65 "$BIN" turn "$D" $(ls "$H/orders/turn-000$next"/*.yaml)
        has "$TMP/err" "umpire: the journal no longer matches git (restore .umpire/journal.sqlite from a backup, or run 'umpire verify' to see more): turn $last: "
        [ "$(fingerprint "$D")" = "$before" ] || die "a turn was added on a journal that no longer matches git"
    done
done
echo "sealed tampers: ok"
