# Every limit at its exact edge, from both sides, through the umpire binary: the value at the
# limit is accepted and one past it is refused with a message naming the limit. Also the
# behaviours a mutation run found untested: SOURCE_DATE_EPOCH=0, a re-run of `turn` with a
# subset of the journaled files, a journal of another schema version, `-0` as an integer.
# Each check is announced as "LIMIT: side" so a failure in the log says which edge broke.
. "$ROOT/tests/e2e/lib.sh"
HR="$ROOT/campaigns/harbour-raid"
BS="$ROOT/campaigns/betio-seawall"
A1="$HR/orders/turn-0001/attacker.yaml"
A2="$HR/orders/turn-0002/defender.yaml"

side() { echo "-- $1: $2"; }
# hasnt FILE PATTERN: FILE does not contain the fixed string PATTERN.
hasnt() { ! grep -qF -- "$2" "$1" || { cat "$1" >&2; die "'$2' found in $1"; }; }
# unchanged DIR BEFORE: the campaign's fingerprint is still BEFORE.
unchanged() { [ "$(fingerprint "$1")" = "$2" ] || die "$1: the campaign changed"; }
# rep CHAR N: CHAR repeated N times.
rep() { awk -v c="$1" -v n="$2" 'BEGIN { s = ""; for (i = 0; i < n; i++) s = s c; printf "%s", s }'; }
# pad_to FILE SIZE: FILE followed by YAML comment lines, SIZE bytes in all (FILE ends with \n).
pad_to() {
    _n=$(( $2 - $(wc -c < "$1") ))
    [ "$_n" -ge 0 ] || die "pad_to: $1 is already larger than $2"
    cat "$1"
    awk -v n="$_n" 'BEGIN { while (n > 0) { k = n > 80 ? 80 : n; if (k == 1) { printf "\n"; n--; continue }
        s = "#"; for (i = 2; i < k; i++) s = s "x"; print s; n -= k } }'
}
size_is() { [ "$(wc -c < "$1")" -eq "$2" ] || die "$1 is $(wc -c < "$1") bytes ($2 expected)"; }
# umpire_file TURN [ROLL FOR]...: an umpire rulings file for harbour-raid.
umpire_file() {
    printf 'campaign: harbour-raid\nturn: %s\nplayer: umpire\norders:\n' "$1"; shift
    [ $# -gt 0 ] || echo "  []"
    while [ $# -gt 0 ]; do printf '  - roll: "%s"\n    for: "%s"\n' "$1" "$2"; shift 2; done
}
# head_time DIR: the commit time of HEAD.
head_time() { git -C "$1" log -1 --format=%ct; }

C="$TMP/c"
new_campaign harbour-raid "$C" --entropy none --visibility open
before=$(fingerprint "$C")

# --- ORDER_FILE_MAX_BYTES (1 MiB): a valid file padded with comments to the exact size -----
pad_to "$A1" 1048576 > "$TMP/max.yaml"; size_is "$TMP/max.yaml" 1048576
pad_to "$A1" 1048577 > "$TMP/over.yaml"; size_is "$TMP/over.yaml" 1048577
side ORDER_FILE_MAX_BYTES "one over: refused by check and turn, exit 65, nothing written"
expect 65 "$BIN" check "$C" "$TMP/over.yaml"
has "$TMP/err" "over.yaml:1:1: error: order file is larger than 1048576 bytes"
expect 65 "$BIN" turn "$C" "$TMP/over.yaml"
has "$TMP/err" "over.yaml:1:1: error: order file is larger than 1048576 bytes"
unchanged "$C" "$before"
side ORDER_FILE_MAX_BYTES "at the limit: accepted by check and turn, archived byte for byte"
expect 0 "$BIN" check "$C" "$TMP/max.yaml"; has "$TMP/out" "ok: orders of attacker for turn 1"
expect 0 "$BIN" turn "$C" "$TMP/max.yaml"; has "$TMP/out" "Turn 1:"
git -C "$C" show turn-0001:orders/turn-0001/attacker.yaml > "$TMP/archived.yaml"
cmp -s "$TMP/archived.yaml" "$TMP/max.yaml" || die "the 1 MiB order file was not archived as received"
expect 0 "$BIN" replay "$C"

# --- orders list length: core 10000, each rule system 64 ----------------------------------
# orders_list CAMPAIGN PLAYER N: an order file with N (invalid) entries, each checked.
orders_list() {
    printf 'campaign: %s\nturn: 1\nplayer: %s\norders:\n' "$1" "$2"
    awk -v n="$3" 'BEGIN { for (i = 0; i < n; i++) print "  - x" }'
}
D="$TMP/d"
new_campaign harbour-raid "$D" --entropy none --visibility open
B="$TMP/b"
new_campaign betio-seawall "$B" --entropy none
for rs in "land-raid $D harbour-raid attacker officer" "nhis $B betio-seawall usmc impulse"; do
    # shellcheck disable=SC2086
    set -- $rs
    orders_list "$3" "$4" 64 > "$TMP/o64.yaml"
    orders_list "$3" "$4" 65 > "$TMP/o65.yaml"
    orders_list "$3" "$4" 10000 > "$TMP/o10000.yaml"
    orders_list "$3" "$4" 10001 > "$TMP/o10001.yaml"
    side "$1 orders list (64)" "at the limit: every entry is checked, no list-length error"
    expect 65 "$BIN" check "$2" "$TMP/o64.yaml"; hasnt "$TMP/err" "too many items in orders"
    [ "$(grep -c "expected a mapping for $5" "$TMP/err")" -eq 64 ] || die "not every one of 64 entries checked"
    side "$1 orders list (64)" "one over: refused"
    expect 65 "$BIN" check "$2" "$TMP/o65.yaml"
    has "$TMP/err" "o65.yaml:5:3: error: too many items in orders: 65 (at most 64 expected)"
    side "core orders list (10000)" "at the limit: passed on to $1"
    expect 65 "$BIN" check "$2" "$TMP/o10000.yaml"
    has "$TMP/err" "too many items in orders: 10000 (at most 64 expected)"
    side "core orders list (10000)" "one over: refused before $1"
    expect 65 "$BIN" check "$2" "$TMP/o10001.yaml"
    has "$TMP/err" "too many items in orders: 10001 (at most 10000 expected)"
done


# --- land-raid: LR_MAX_ACTIONS (3 per officer), LR_MAX_DRAG (4 bases) ---------------------
sed 's/^      - plunder$/      - plunder\n      - shoot/' "$A1" > "$TMP/act3.yaml"
sed 's/^      - plunder$/      - plunder\n      - shoot\n      - shoot/' "$A1" > "$TMP/act4.yaml"
side "LR_MAX_ACTIONS (3)" "at the limit: no action-count error"
expect 65 "$BIN" check "$D" "$TMP/act3.yaml"; hasnt "$TMP/err" "at most 3 actions per officer"
side "LR_MAX_ACTIONS (3)" "one over: refused"
expect 65 "$BIN" check "$D" "$TMP/act4.yaml"
has "$TMP/err" "action 4 for 'blood' (§17: at most 3 actions per officer expected)"
sed 's/drag: \[b1, b2, b3\]/drag: [b1, b2, b3, cart]/' "$A1" > "$TMP/drag4.yaml"
sed 's/drag: \[b1, b2, b3\]/drag: [b1, b2, b3, cart, h1]/' "$A1" > "$TMP/drag5.yaml"
side "LR_MAX_DRAG (4)" "at the limit: accepted"
expect 0 "$BIN" check "$D" "$TMP/drag4.yaml"
side "LR_MAX_DRAG (4)" "one over: refused"
expect 65 "$BIN" check "$D" "$TMP/drag5.yaml"; has "$TMP/err" "too many items in drag: 5 (at most 4 expected)"

# --- YAML node limits of an order file: depth 16 and 4 096-byte scalars (node.h defaults),
# ORDER_FILE_MAX_NODES 200 000 nodes (campaign.h) -------------------------------------------
# The four required keys make 9 nodes; `x:` adds a key and its value. Only the limit's
# message tells the sides apart (x is an unknown key either way).
nested() { umpire_file 1; printf 'x: %s1%s\n' "$(rep '[' "$1")" "$(rep ']' "$1")"; }
items() { umpire_file 1; printf 'x: ['; awk -v n="$1" 'BEGIN { for (i = 1; i < n; i++) printf "1,"; print "1]" }'; }
nested 15 > "$TMP/depth16.yaml"; nested 16 > "$TMP/depth17.yaml"
items 199989 > "$TMP/nodes200000.yaml"; items 199990 > "$TMP/nodes200001.yaml"
{ umpire_file 1; echo "x: $(rep a 4096)"; } > "$TMP/scalar4096.yaml"
{ umpire_file 1; echo "x: $(rep a 4097)"; } > "$TMP/scalar4097.yaml"
for f in depth16 nodes200000 scalar4096; do
    side "node limit ($f)" "at the limit: parsed (only the unknown key is reported)"
    expect 65 "$BIN" check "$D" --rulings "$TMP/$f.yaml"; has "$TMP/err" "$f.yaml:6:1: error: unknown key 'x'"
    [ "$(grep -c ': error: ' "$TMP/err")" -eq 1 ] || die "$f: more than the unknown key reported"
done
side "node depth (16)" "one over: refused"
expect 65 "$BIN" check "$D" --rulings "$TMP/depth17.yaml"
has "$TMP/err" "collections nested 17 deep (at most 16 levels expected)"
side "node count (ORDER_FILE_MAX_NODES 200000)" "one over: refused"
expect 65 "$BIN" check "$D" --rulings "$TMP/nodes200001.yaml"
has "$TMP/err" "too many nodes: more than 200000 (at most 200000 expected)"
side "scalar length (4096)" "one over: refused"
expect 65 "$BIN" check "$D" --rulings "$TMP/scalar4097.yaml"
has "$TMP/err" "value is 4097 bytes long (at most 4096 expected)"

# --- integers (node.c parse_decimal): "0" or an optional '-' and digits, no leading zero ----
# turn is 1..TURN_MAX (999999, the highest turn anywhere) in an order file.
for t in '-0' '+1' '01' '1.0' '0x1' '1e0' '"1"' "'1'" '0' '1000000'; do
    printf 'campaign: harbour-raid\nturn: %s\nplayer: umpire\norders: []\n' "$t" > "$TMP/int.yaml"
    side "integer syntax / turn range" "'$t' refused"
    expect 65 "$BIN" check "$D" --rulings "$TMP/int.yaml"; has "$TMP/err" "int.yaml:2:7: error: turn is "
done
printf 'campaign: harbour-raid\nturn: 999999\nplayer: umpire\norders: []\n' > "$TMP/int.yaml"
side "order-file turn (1..999999)" "at the limit: an integer, then the wrong turn"
expect 65 "$BIN" check "$D" --rulings "$TMP/int.yaml"
has "$TMP/err" "this is turn 999999's file; turn 1 is open"
printf 'campaign: harbour-raid\nturn:   1  \nplayer: umpire\norders: []\n' > "$TMP/int.yaml"
side "integer syntax" "blanks around a plain scalar are YAML's, not the number's: accepted"
expect 0 "$BIN" check "$D" --rulings "$TMP/int.yaml"
# -0 where 0 is in range: only the syntax rule refuses it (max-shoot-actions is 0..100).
for v in 0 100 -0 +0 00 101 -1; do
    sed "s/^options:\$/options:\n  max-shoot-actions: $v/" "$HR/scenario.yaml" > "$TMP/opt.yaml"
    rm -rf "$TMP/opt"
    case $v in
    0|100) side "max-shoot-actions (0..100)" "'$v' accepted"
        expect 0 "$BIN" init --visibility open --entropy none "$TMP/opt" --scenario "$TMP/opt.yaml" --secret-file "$HR/demo.secret"
        grep -q "max-shoot-actions: $v\$" "$TMP/opt/campaign.yaml" || die "max-shoot-actions $v not kept" ;;
    *) side "max-shoot-actions (0..100)" "'$v' refused"
        expect 65 "$BIN" init "$TMP/opt" --scenario "$TMP/opt.yaml" --secret-file "$HR/demo.secret"
        has "$TMP/err" "opt.yaml:18:22: error: max-shoot-actions is '$v' (an integer from 0 to 100 expected)" ;;
    esac
done

# --- the umpire's rulings: TURN_MAX_RULINGS, DICE_MAX_PER_EXPR, sides, modifier, keep ------
side "dice notation bounds" "at each limit: accepted"
for r in 100d6 d2 d1000000 2d6+1000000 2d6-1000000 3d6kh3 3d6kl1 3d6kl3; do
    umpire_file 1 "$r" x > "$TMP/roll.yaml"
    expect 0 "$BIN" check "$D" --rulings "$TMP/roll.yaml"
done
side "dice notation bounds" "one over each: refused"
for case in "101d6|'101d6' rolls 101 dice (at most 100 expected)" \
    "0d6|'0d6' rolls 0 dice (at least 1 expected)" \
    "d1|'d1' rolls 1-sided dice (2 to 1000000 sides expected)" \
    "d1000001|'d1000001' rolls 1000001-sided dice (2 to 1000000 sides expected)" \
    "2d6+1000001|'2d6+1000001' has modifier +1000001 (at most 1000000 either way expected)" \
    "2d6-1000001|'2d6-1000001' has modifier -1000001 (at most 1000000 either way expected)" \
    "3d6kh4|'3d6kh4' keeps 4 of 3 dice (1 to 3 expected)" \
    "3d6kh0|'3d6kh0' keeps 0 of 3 dice (1 to 3 expected)" \
    "3d6kl4|'3d6kl4' keeps 4 of 3 dice (1 to 3 expected)"; do
    umpire_file 1 "${case%%|*}" x > "$TMP/roll.yaml"
    expect 65 "$BIN" check "$D" --rulings "$TMP/roll.yaml"; has "$TMP/err" "roll.yaml:5:11: error: ${case#*|}"
done
# roll text at most 64 bytes, for text at most 200.
r64="d6+$(rep 0 60)1"
side "roll text (64 bytes)" "at the limit: accepted"
umpire_file 1 "$r64" x > "$TMP/roll.yaml"; expect 0 "$BIN" check "$D" --rulings "$TMP/roll.yaml"
side "roll text (64 bytes)" "one over: refused"
umpire_file 1 "${r64}0" x > "$TMP/roll.yaml"; expect 65 "$BIN" check "$D" --rulings "$TMP/roll.yaml"
has "$TMP/err" "roll is 65 bytes long (at most 64 expected)"
side "for text (200 bytes)" "at the limit: accepted"
umpire_file 1 d6 "$(rep f 200)" > "$TMP/roll.yaml"; expect 0 "$BIN" check "$D" --rulings "$TMP/roll.yaml"
side "for text (200 bytes)" "one over: refused"
umpire_file 1 d6 "$(rep f 201)" > "$TMP/roll.yaml"; expect 65 "$BIN" check "$D" --rulings "$TMP/roll.yaml"
has "$TMP/err" "for is 201 bytes long (at most 200 expected)"
# rulings_file N: N rulings, each at every dice bound at once.
rulings_file() {
    umpire_file 1
    awk -v n="$1" 'BEGIN { for (i = 1; i <= n; i++) printf "  - {roll: 100d1000000+1000000, for: \"r%d\"}\n", i }'
}
rulings_file 100 | sed '/^  \[\]$/d' > "$TMP/r100.yaml"
rulings_file 101 | sed '/^  \[\]$/d' > "$TMP/r101.yaml"
dbefore=$(fingerprint "$D")
side "TURN_MAX_RULINGS (100)" "one over: refused, nothing written"
expect 65 "$BIN" turn "$D" --rulings "$TMP/r101.yaml" "$A1"
has "$TMP/err" "r101.yaml:5:3: error: too many items in orders: 101 (at most 100 expected)"
unchanged "$D" "$dbefore"
side "TURN_MAX_RULINGS (100) x DICE_MAX_PER_EXPR (100)" "at the limit: the turn is processed"
expect 0 "$BIN" turn "$D" --rulings "$TMP/r100.yaml" "$A1"
[ "$(sqlite3 "$D/.umpire/journal.sqlite" "SELECT count(*) FROM dice WHERE turn = 1 AND purpose LIKE 'umpire ruling %'")" -eq 10000 ] ||
    die "100 rulings of 100 dice: not 10000 ruling dice journaled"
has "$D/journal/turn-0001.yaml" "umpire ruling 100: r100"

# --- a re-run of `turn`: the same files answer "already processed", a subset is an error ----
"$BIN" turn "$B" "$BS/orders/turn-0001/ija.yaml" "$BS/orders/turn-0001/usmc.yaml" >/dev/null
bbefore=$(fingerprint "$B")
side "re-run with the journaled files" "the same files (any order): already processed, exit 0"
expect 0 "$BIN" turn "$B" "$BS/orders/turn-0001/usmc.yaml" "$BS/orders/turn-0001/ija.yaml"
has "$TMP/out" "Turn 1 was already processed with these order files; nothing to do"
unchanged "$B" "$bbefore"
for sub in usmc ija; do
    side "re-run with the journaled files" "a subset ($sub.yaml only): an error, nothing written"
    expect 65 "$BIN" turn "$B" "$BS/orders/turn-0001/$sub.yaml"
    hasnt "$TMP/out" "already processed"
    has "$TMP/err" "this is turn 1's file; turn 2 is open"
    unchanged "$B" "$bbefore"
done
side "re-run with the journaled files" "a superset (plus an umpire file): an error, nothing written"
printf 'campaign: betio-seawall\nturn: 1\nplayer: umpire\norders: []\n' > "$TMP/bump.yaml"
expect 65 "$BIN" turn "$B" "$BS/orders/turn-0001/usmc.yaml" "$BS/orders/turn-0001/ija.yaml" --rulings "$TMP/bump.yaml"
hasnt "$TMP/out" "already processed"
unchanged "$B" "$bbefore"
side "re-run with the journaled files" "one journaled file twice: an error, nothing written"
expect 65 "$BIN" turn "$B" "$BS/orders/turn-0001/usmc.yaml" "$BS/orders/turn-0001/usmc.yaml"
hasnt "$TMP/out" "already processed"
unchanged "$B" "$bbefore"

# --- the journal's schema version (meta.schema_version, docs/journal.md) -------------------
# set_schema DIR VALUE: rewrites meta.schema_version past the append-only trigger (VALUE
# empty: the row is deleted).
set_schema() {
    if [ -n "$2" ]; then sql="UPDATE meta SET value = '$2' WHERE key = 'schema_version'"
    else sql="DELETE FROM meta WHERE key = 'schema_version'"; fi
    sqlite3 "$1/.umpire/journal.sqlite" "DROP TRIGGER meta_no_update; DROP TRIGGER meta_no_delete; $sql"
}
for v in 3 0 ""; do
    J="$TMP/j$v"
    cp -R "$B" "$J"
    set_schema "$J" "$v"
    jbefore=$(fingerprint "$J")
    if [ -n "$v" ]; then want="schema_version '$v' is not one this umpire reads ('1' to '2')"; else want="meta has no schema_version"; fi
    side "journal schema_version 1 or 2" "version '${v:-none}': refused by turn, replay, log, verify, audit"
    for cmd in "turn $J $BS/orders/turn-0002/ija.yaml $BS/orders/turn-0002/usmc.yaml" \
        "replay $J" "log $J" "verify $J" "audit $J 1:0"; do
        set +e
        # shellcheck disable=SC2086
        "$BIN" $cmd >"$TMP/out" 2>"$TMP/err"; rc=$?; set -e
        [ "$rc" -ne 0 ] || die "'umpire $cmd' accepted a journal of schema version '${v:-none}'"
        has "$TMP/err" "$want"
    done
    unchanged "$J" "$jbefore"
done
side "journal schema_version 1 or 2" "the supported version: accepted"
expect 0 "$BIN" log "$B" --turn 1

# --- SOURCE_DATE_EPOCH (clock_now): 0 is honoured, garbage falls back to the clock -----------
Z="$TMP/z"
side "SOURCE_DATE_EPOCH" "0 (the lowest valid value): commit times, journal times are 0"
env SOURCE_DATE_EPOCH=0 "$BIN" init --visibility open --entropy none "$Z" --scenario "$HR/scenario.yaml" --secret-file "$HR/demo.secret" >/dev/null
expect 0 env SOURCE_DATE_EPOCH=0 "$BIN" turn "$Z" "$A1"
[ "$(git -C "$Z" log --format='%ct %at' | sort -u)" = "0 0" ] || die "SOURCE_DATE_EPOCH=0 not honoured: $(git -C "$Z" log --format='%ct %at')"
[ "$(sqlite3 "$Z/.umpire/journal.sqlite" 'SELECT group_concat(processed_at) FROM turns')" = "0,0" ] ||
    die "SOURCE_DATE_EPOCH=0 not journaled"
side "SOURCE_DATE_EPOCH" "not a number, negative, out of range, empty, unset: the clock"
turn=1
for v in abc -1 -5 12abc 99999999999999999999 "" unset; do
    turn=$((turn + 1))
    t0=$(date +%s)
    # an empty order file of the side due (the demo's orders fit the demo's own dice, not these)
    side_due=attacker; [ $((turn % 2)) -eq 1 ] || side_due=defender
    printf 'campaign: harbour-raid\nturn: %d\nplayer: %s\norders: []\n' "$turn" "$side_due" >"$TMP/z-$turn.yaml"
    if [ "$v" = unset ]; then expect 0 env -u SOURCE_DATE_EPOCH "$BIN" turn "$Z" "$TMP/z-$turn.yaml"
    else expect 0 env SOURCE_DATE_EPOCH="$v" "$BIN" turn "$Z" "$TMP/z-$turn.yaml"; fi
    t1=$(date +%s)
    ct=$(head_time "$Z")
    { [ "$ct" -ge "$t0" ] && [ "$ct" -le "$t1" ]; } || die "SOURCE_DATE_EPOCH='$v': commit time $ct not the clock ($t0..$t1)"
    has "$TMP/out" "Turn $turn:"
done
expect 0 "$BIN" replay "$Z"

# --- `umpire init --chain-length` (1..1000000), and the chain's end -------------------------
for n in 0 -1 1000001 1x ""; do
    side "--chain-length (1..1000000)" "'$n' refused"
    expect 64 "$BIN" init "$TMP/cl" --scenario "$HR/scenario.yaml" --secret-file "$HR/demo.secret" --chain-length "$n"
    has "$TMP/err" "--chain-length '$n' (an integer from 1 to 1000000 expected)"
    [ ! -e "$TMP/cl" ] || die "a refused init created the campaign"
done
side "--chain-length (1..1000000)" "1000000 accepted, its turn 1 processed"
expect 0 "$BIN" init --visibility open --entropy none "$TMP/clmax" --scenario "$HR/scenario.yaml" --secret-file "$HR/demo.secret" --chain-length 1000000
has "$TMP/out" "chain of 1000000 turn keys"
expect 0 "$BIN" turn "$TMP/clmax" "$A1"
side "--chain-length (1..1000000)" "1 accepted; turn 1 is the last turn, turn 2 is beyond the chain"
expect 0 "$BIN" init --visibility open --entropy none "$TMP/cl1" --scenario "$HR/scenario.yaml" --secret-file "$HR/demo.secret" --chain-length 1
expect 0 "$BIN" turn "$TMP/cl1" "$A1"
cbefore=$(fingerprint "$TMP/cl1")
expect 65 "$BIN" turn "$TMP/cl1" "$A2"; has "$TMP/err" "turn 2 is beyond the key chain (1 turns)"
unchanged "$TMP/cl1" "$cbefore"
expect 3 "$BIN" verify "$TMP/cl1"

# --- `--turn` of log and state (0..999999), and the last turn -------------------------------
for cmd in log state; do
    for t in -1 1000000 ""; do
        side "$cmd --turn (0..999999)" "'$t' refused"
        expect 64 "$BIN" "$cmd" "$B" --turn "$t"; has "$TMP/err" "--turn '$t' (a turn number from 0 to 999999 expected)"
    done
    side "$cmd --turn (0..999999)" "0 and the last turn accepted; the next turn and 999999: no such turn"
    expect 0 "$BIN" "$cmd" "$B" --turn 0
    expect 0 "$BIN" "$cmd" "$B" --turn 1
    expect 66 "$BIN" "$cmd" "$B" --turn 2
    expect 66 "$BIN" "$cmd" "$B" --turn 999999
done

# --- audit T:J: the last die of a turn, and one past it; stats --sides; audit --vector ------
n=$(sqlite3 "$B/.umpire/journal.sqlite" "SELECT count(*) FROM dice WHERE turn = 1")
side "audit T:J (die index)" "the last die: explained; one past it: refused"
expect 0 "$BIN" audit "$B" "1:$((n - 1))"
expect 66 "$BIN" audit "$B" "1:$n"; has "$TMP/err" "turn 1 drew $n dice (0 to $((n - 1))): no die $n"
expect 64 "$BIN" audit "$B" 0:0
side "stats --sides (from 2)" "2 accepted, 1 refused"
expect 0 "$BIN" stats "$B" --sides 2
expect 64 "$BIN" stats "$B" --sides 1; has "$TMP/err" "--sides '1' (a number of faces from 2 expected)"
seed=$(rep 0 64)
side "audit --vector (N from 2, J up to 2^64-1)" "at the limits: accepted; one past: refused"
expect 0 "$BIN" audit --vector "$seed:18446744073709551615:2"
expect 64 "$BIN" audit --vector "$seed:0:1"
expect 64 "$BIN" audit --vector "$seed:18446744073709551616:2"

# --- beacon: init --beacon SOURCE (at most 200 bytes), turn --beacon (1..1024) --beacon-round (<=200)
BC="--beacon-genesis 1767225600 --beacon-period 30"
side "init --beacon SOURCE (200 bytes)" "one over: refused"
# shellcheck disable=SC2086
expect 65 "$BIN" init "$TMP/bc" --scenario "$HR/scenario.yaml" --secret-file "$HR/demo.secret" --beacon "$(rep s 201)" $BC
has "$TMP/err" "beacon is 201 bytes long (at most 200 expected)"
side "init --beacon SOURCE (200 bytes)" "at the limit: accepted"
# shellcheck disable=SC2086
expect 0 "$BIN" init --visibility open "$TMP/bc" --scenario "$HR/scenario.yaml" --secret-file "$HR/demo.secret" --beacon "$(rep s 200)" $BC
# Closed at the campaign's start: the round named is the first 600 s (beacon_delay) later,
# round 21 of a 30-second beacon whose round 1 was out then.
expect 0 "$BIN" close "$TMP/bc" "$A1"
has "$TMP/out" "round 21, out at 2026-01-01 00:10:00 UTC, in 10 minutes"
bcbefore=$(fingerprint "$TMP/bc")
side "turn --beacon (1..1024 bytes), --beacon-round (200)" "0 bytes, 1025 bytes, a 201-byte round: refused"
for args in "--beacon=" "--beacon=$(rep v 1025)" "--beacon=x --beacon-round=$(rep r 201)"; do
    # shellcheck disable=SC2086
    expect 64 env SOURCE_DATE_EPOCH=1767226200 "$BIN" turn "$TMP/bc" $args
    has "$TMP/err" "--beacon must be 1 to 1024 bytes, --beacon-round at most 200"
    unchanged "$TMP/bc" "$bcbefore"
done
side "turn --beacon (1..1024 bytes)" "1 byte, no --beacon-round (the close named it): accepted, journaled"
expect 0 env SOURCE_DATE_EPOCH=1767226200 "$BIN" turn "$TMP/bc" --beacon x
has "$TMP/bc/journal/turn-0001.yaml" 'beacon_round: "21"'
side "turn --beacon (1..1024 bytes)" "1024 bytes: accepted, journaled"
expect 0 env SOURCE_DATE_EPOCH=1767312000 "$BIN" close "$TMP/bc" "$A2"
expect 0 env SOURCE_DATE_EPOCH=1767315600 "$BIN" turn "$TMP/bc" --beacon "$(rep v 1024)"
has "$TMP/bc/journal/turn-0002.yaml" "beacon_value: $(rep v 1024)"
expect 0 "$BIN" replay "$TMP/bc"
expect 3 "$BIN" verify "$TMP/bc"

# --- CAMPAIGN_MAX_PLAYERS (16), and at least one ------------------------------------------
# players_scenario N: harbour-raid with attacker, defender and N-2 more players.
players_scenario() {
    awk -v k="$1" '/^players:/ { print; print "  - id: attacker"; print "  - id: defender"
            for (i = 3; i <= k; i++) print "  - id: extra" i; skip = 1; next }
        skip && /^  - id:|^    name:/ { next } { skip = 0; print }' "$HR/scenario.yaml"
}
players_scenario 16 > "$TMP/p16.yaml"; players_scenario 17 > "$TMP/p17.yaml"
side "CAMPAIGN_MAX_PLAYERS (16)" "at the limit: the campaign takes them (land-raid's player count then refuses them)"
expect 65 "$BIN" init "$TMP/p" --scenario "$TMP/p16.yaml" --secret-file "$HR/demo.secret"
hasnt "$TMP/err" "too many items in players"
has "$TMP/err" "16 players (land-raid is played by 2 to 2 players)"
side "CAMPAIGN_MAX_PLAYERS (16)" "one over: refused"
expect 65 "$BIN" init "$TMP/p" --scenario "$TMP/p17.yaml" --secret-file "$HR/demo.secret"
has "$TMP/err" "too many items in players: 17 (at most 16 expected)"
sed '/^players:/,/^options:/{/^players:/!{/^options:/!d}}; s/^players:$/players: []/' "$HR/scenario.yaml" > "$TMP/p0.yaml"
side "players (at least 1)" "none: refused"
expect 65 "$BIN" init "$TMP/p" --scenario "$TMP/p0.yaml" --secret-file "$HR/demo.secret"
has "$TMP/err" "no players (at least one expected)"
[ ! -e "$TMP/p" ] || die "a refused init created the campaign"

# --- identifiers: campaign id (--id), order-file campaign and player (1..64 bytes) ----------
id64=$(rep i 64)
side "campaign id (64 bytes)" "one over: refused"
expect 65 "$BIN" init "$TMP/id" --scenario "$HR/scenario.yaml" --secret-file "$HR/demo.secret" --id "${id64}i"
has "$TMP/err" "campaign id is 'iiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiii...' (an identifier of 1 to 64"
[ ! -e "$TMP/id" ] || die "a refused init created the campaign"
side "campaign id (64 bytes)" "one over: the error does not point into the scenario"
expect 65 "$BIN" init "$TMP/id" --scenario "$HR/scenario.yaml" --secret-file "$HR/demo.secret" --id "${id64}i"
hasnt "$TMP/err" "scenario.yaml:2:5:"
expect 65 "$BIN" init "$TMP/p" --scenario "$TMP/p17.yaml" --secret-file "$HR/demo.secret"
hasnt "$TMP/err" "p17.yaml:6:1:"
side "campaign id (64 bytes)" "at the limit: accepted, order files name it"
expect 0 "$BIN" init --visibility open --entropy none "$TMP/id" --scenario "$HR/scenario.yaml" --secret-file "$HR/demo.secret" --id "$id64"
sed "s/^campaign: harbour-raid\$/campaign: $id64/" "$A1" > "$TMP/id.yaml"
expect 0 "$BIN" turn "$TMP/id" "$TMP/id.yaml"; has "$TMP/out" "Turn 1:"
side "order-file campaign (64 bytes)" "one over: refused as too long"
sed "s/^campaign: harbour-raid\$/campaign: ${id64}i/" "$A1" > "$TMP/id.yaml"
expect 65 "$BIN" check "$D" "$TMP/id.yaml"; has "$TMP/err" "campaign is 65 bytes long (at most 64 expected)"
side "order-file player (64 bytes)" "at the limit: an identifier, not a player; one over: not an identifier"
umpire_file 2 | sed "s/^player: umpire\$/player: $id64/" > "$TMP/pl.yaml"
expect 65 "$BIN" check "$D" "$TMP/pl.yaml"; has "$TMP/err" "'$id64' is not a player of this campaign"
umpire_file 2 | sed "s/^player: umpire\$/player: ${id64}i/" > "$TMP/pl.yaml"
expect 65 "$BIN" check "$D" "$TMP/pl.yaml"; has "$TMP/err" "player is 'iiii"; has "$TMP/err" "(a player id: 1 to 64 letters"

# --- init's scenario (SCENARIO_MAX_BYTES, 4 MiB) and secret file (64 hex digits) -------------
pad_to "$HR/scenario.yaml" 4194304 > "$TMP/s4m.yaml"; size_is "$TMP/s4m.yaml" 4194304
pad_to "$HR/scenario.yaml" 4194305 > "$TMP/s4m1.yaml"
side "scenario size (SCENARIO_MAX_BYTES, 4 MiB)" "one over: refused"
expect 65 "$BIN" init "$TMP/s" --scenario "$TMP/s4m1.yaml" --secret-file "$HR/demo.secret"
has "$TMP/err" "s4m1.yaml:1:1: error: file is larger than 4194304 bytes"
side "scenario size (SCENARIO_MAX_BYTES, 4 MiB)" "at the limit: accepted"
expect 0 "$BIN" init --visibility open --entropy none "$TMP/s" --scenario "$TMP/s4m.yaml" --secret-file "$HR/demo.secret"
h=$(head -c 64 "$HR/demo.secret")
for s in "$(echo "$h" | cut -c 2-)" "${h}0"; do
    printf '%s\n' "$s" > "$TMP/secret"
    side "secret file (64 hex digits)" "${#s} digits: refused"
    expect 65 "$BIN" init "$TMP/k" --scenario "$HR/scenario.yaml" --secret-file "$TMP/secret"
    has "$TMP/err" "not a secret (64 hex digits expected)"
done

# --- a 10,000-order turn (issue 17): 12 Border Reivers sides of 800 orders each --------------
# bench/big-reivers.sh: 9,600 one-figure groups (RV_MAX_FIGURES 10,000), each ordered.
sh "$ROOT/bench/big-reivers.sh" "$TMP/big"
side "12 sides x 800 orders (9,600)" "at 12 x 800: every file checks"
expect 0 "$BIN" init --visibility open --entropy none "$TMP/bigc" --scenario "$TMP/big/scenario.yaml" --secret-file "$HR/demo.secret"
expect 0 "$BIN" check "$TMP/bigc" "$TMP"/big/orders/*.yaml
[ "$(grep -c ': ok: orders of p' "$TMP/out")" -eq 12 ] || die "not 12 files accepted"
# RV_MAX_ORDERS (1,000 orders in one file): two sides of 1,001 groups
sh "$ROOT/bench/big-reivers.sh" "$TMP/wide" 2 1001
expect 0 "$BIN" init --visibility open --entropy none "$TMP/widec" --scenario "$TMP/wide/scenario.yaml" --secret-file "$HR/demo.secret"
head -n 1004 "$TMP/wide/orders/p01.yaml" > "$TMP/o1000.yaml"
side "RV_MAX_ORDERS (1000)" "at the limit: accepted"
expect 0 "$BIN" check "$TMP/widec" "$TMP/o1000.yaml"
side "RV_MAX_ORDERS (1000)" "one over: refused"
expect 65 "$BIN" check "$TMP/widec" "$TMP/wide/orders/p01.yaml"
has "$TMP/err" "too many items in orders: 1001 (at most 1000 expected)"
# RV_MAX_FIGURES (10,000 figures and groups): 10 sides of 1,000, then one group more
sh "$ROOT/bench/big-reivers.sh" "$TMP/full" 10 1000
side "RV_MAX_FIGURES (10000)" "at the limit: accepted"
expect 0 "$BIN" init --visibility open --entropy none "$TMP/fullc" --scenario "$TMP/full/scenario.yaml" --secret-file "$HR/demo.secret"
sed 's/^  figures:$/    - {id: one-more, side: p01}\n  figures:/' "$TMP/full/scenario.yaml" > "$TMP/over.yaml"
side "RV_MAX_FIGURES (10000)" "one over: refused"
expect 65 "$BIN" init "$TMP/overc" --scenario "$TMP/over.yaml" --secret-file "$HR/demo.secret"
has "$TMP/err" "too many items in groups: 10001 (at most 10000 expected)"
