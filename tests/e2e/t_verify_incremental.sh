# Incremental verify (issue 38, item 1): a clone that verified checks, the next time, only the
# turns after the head it remembers (refs/umpire/verified), with the same count of turns and
# dice as a full check, which --full still makes; a tag of an earlier turn moved since makes
# it check every turn again (and fail); the umpire's own copy is checked whole every time.
. "$ROOT/tests/e2e/lib.sh"
H="$ROOT/campaigns/betio-seawall"
C="$TMP/c"
"$BIN" init --visibility open "$C" --scenario "$H/scenario.yaml" --secret-file "$H/demo.secret" \
    --entropy beacon --demo-beacon >/dev/null
# play_turn T: turn T closed with the umpire's one ruling (the players' orders missing) at
# day T, then resolved with the demo beacon's round the close named
BLS="$(dirname "$(readlink -f "$BIN")")/umpire-bls"
play_turn() {
    printf 'campaign: betio-seawall\nturn: %s\nplayer: umpire\norders:\n  - {roll: 1d6, for: "a ruling"}\n' "$1" >"$TMP/r.yaml"
    SOURCE_DATE_EPOCH=$((1767225600 + $1 * 86400)) "$BIN" close "$C" --allow-missing --rulings "$TMP/r.yaml" >/dev/null
    round=$(sed -n 's/^  round: //p' "$C/journal/turn-000$1.close.yaml")
    # shellcheck disable=SC2046
    set -- $(UMPIRE_BLS="$BLS" "$ROOT/tools/demo-beacon" "$round") "$1"
    SOURCE_DATE_EPOCH=$((1767225600 + $3 * 86400 + 3600)) "$BIN" turn "$C" --beacon "$1" --beacon-signature "$2" >/dev/null
}
for t in 1 2 3; do play_turn "$t"; done
git clone -q "$C" "$TMP/clone"
expect 3 "$BIN" verify "$TMP/clone"
has "$TMP/out" "turn 3: ok: close"
# turn 4 played and fetched: only it is checked
play_turn 4
git -C "$TMP/clone" pull -q --ff-only
git -C "$TMP/clone" fetch -q --tags
expect 3 "$BIN" verify "$TMP/clone"
has "$TMP/out" "turns 1-3: ok: verified before by this clone (refs/umpire/verified"
has "$TMP/out" "turn 4: ok: close"
if grep -q "^turn [123]: ok" "$TMP/out"; then die "turns 1-3 were checked again"; fi
sed -n 's/^verify: ok: campaign [^:]*: \([0-9]* turns, [0-9]* dice\).*/\1/p' "$TMP/out" >"$TMP/incr"
# --full: every turn again, the same count
expect 3 "$BIN" verify --full "$TMP/clone"
has "$TMP/out" "turn 1: ok: close"
sed -n 's/^verify: ok: campaign [^:]*: \([0-9]* turns, [0-9]* dice\).*/\1/p' "$TMP/out" >"$TMP/full"
[ -s "$TMP/full" ] && cmp -s "$TMP/incr" "$TMP/full" ||
    die "incremental says '$(cat "$TMP/incr")', --full says '$(cat "$TMP/full")'"
expect 3 node "$JSV" "$TMP/clone"
has "$TMP/out" ": $(cat "$TMP/full"): every key chains to the commitment"
# a tag of a turn verified before, moved: every turn is checked again, and turn 2 fails
git -C "$TMP/clone" tag -f turn-0002 turn-0003 >/dev/null
expect 65 "$BIN" verify "$TMP/clone"
has "$TMP/out" "turn 1: ok: close"
has "$TMP/out" "verify: FAILED: turn 2:"
# the umpire's own copy: every turn, every time
expect 3 "$BIN" verify "$C"
expect 3 "$BIN" verify "$C"
has "$TMP/out" "turn 1: ok: close"
