# Crash safety, proven: UMPIRE_CRASH_AFTER=N makes the binary _exit right after the Nth
# durable write of a turn. For N = 1, 2, … until a run completes: crash, rerun the same turn,
# and require the git history, the journal's contents and the work tree to be identical to a
# run that never crashed, PRAGMA integrity_check ok, git fsck clean.
. "$ROOT/tests/e2e/lib.sh"
files1=$(ls "$ROOT"/campaigns/harbour-raid/orders/turn-0001/*.yaml | sort)
files2=$(ls "$ROOT"/campaigns/harbour-raid/orders/turn-0002/*.yaml | sort)
new_campaign harbour-raid "$TMP/ref" --entropy none; play harbour-raid "$TMP/ref" 2
dump() { sqlite3 "$1/.umpire/journal.sqlite" .dump; }
# from_base KIND DIR: DIR a copy of a campaign made once per KIND (each crash point starts from
# the same bytes; making it again for each point was most of this test's time):
# open1 / sealed1 after turn 1 (entropy none, open or sealed), beacon0 just initialised.
from_base() {
    _b="$TMP/base-$1"
    if [ ! -d "$_b" ]; then
        case $1 in
        open1) new_campaign harbour-raid "$_b" --entropy none ;;
        sealed1) new_campaign harbour-raid "$_b" --entropy none --visibility sealed ;;
        beacon0) new_campaign harbour-raid "$_b" --entropy beacon ;;
        esac
        case $1 in *1) play harbour-raid "$_b" 1 ;; esac
    fi
    cp -a "$_b" "$2"
}
dump "$TMP/ref" > "$TMP/ref.sql"
point=1
while :; do
    C="$TMP/c$point"
    from_base open1 "$C"
    set +e
    # shellcheck disable=SC2086
    UMPIRE_CRASH_AFTER=$point "$BIN" turn "$C" $files2 >/dev/null 2>"$TMP/crash"; rc=$?
    set -e
    if [ $rc -ne 99 ]; then
        [ $rc -eq 0 ] || die "N=$point: exit $rc"
        break
    fi
    # shellcheck disable=SC2086
    expect 0 "$BIN" turn "$C" $files2
    [ "$(git -C "$C" rev-parse HEAD)" = "$(git -C "$TMP/ref" rev-parse HEAD)" ] || die "N=$point: history differs"
    [ "$(git -C "$C" tag | tr '\n' ' ')" = "$(git -C "$TMP/ref" tag | tr '\n' ' ')" ] || die "N=$point: tags differ"
    diff -r -x .git -x .umpire "$TMP/ref" "$C" >/dev/null || die "N=$point: work tree differs"
    [ -z "$(git -C "$C" status --porcelain)" ] || die "N=$point: work tree not clean"
    dump "$C" | cmp -s - "$TMP/ref.sql" || die "N=$point: journal differs"
    [ "$(sqlite3 "$C/.umpire/journal.sqlite" 'PRAGMA integrity_check')" = ok ] || die "N=$point: integrity_check"
    git -C "$C" fsck --strict --no-progress 2>&1 | grep -v '^dangling' | grep . && die "N=$point: git fsck"
    echo "crash point $point ($(sed 's/.*(\(.*\))/\1/' "$TMP/crash")): recovered"
    rm -rf "$C"
    point=$((point + 1))
    [ $point -le 200 ] || die "more than 200 crash points: the run never completes"
done
[ $point -gt 5 ] || die "only $((point - 1)) crash points: the hook is not wired in"
echo "crash points covered: $((point - 1)), all recovered"

# kill -9 at random moments, not only at durable points (bounded: KILLS trials, default 12;
# the moments spread over the length of an uncrashed turn, from a fixed seed so a failure can
# be rerun). Every rerun must finish the turn without hand work, whatever lock files the
# killed run left, and give the history and journal of a run that never crashed.
KILLS=${UMPIRE_TEST_KILLS:-12}
C="$TMP/timing"
new_campaign harbour-raid "$C" --entropy none; play harbour-raid "$C" 1
t0=$(date +%s%N)
# shellcheck disable=SC2086
"$BIN" turn "$C" $files2 >/dev/null
span=$(( ($(date +%s%N) - t0) / 1000 ))   # microseconds one turn takes here
rm -rf "$C"
k=1
while [ $k -le "$KILLS" ]; do
    C="$TMP/k$k"
    from_base open1 "$C"
    delay=$(awk -v k=$k -v span=$span 'BEGIN { srand(k); printf "%.6f", rand() * span * 1.2 / 1000000 }')
    # shellcheck disable=SC2086
    "$BIN" turn "$C" $files2 >/dev/null 2>&1 &
    pid=$!
    sleep "$delay"
    kill -9 $pid 2>/dev/null || true
    wait $pid 2>/dev/null || true
    # shellcheck disable=SC2086
    expect 0 "$BIN" turn "$C" $files2
    [ "$(git -C "$C" rev-parse HEAD)" = "$(git -C "$TMP/ref" rev-parse HEAD)" ] || die "kill $k (after ${delay}s): history differs"
    [ -z "$(git -C "$C" status --porcelain)" ] || die "kill $k: work tree not clean"
    dump "$C" | cmp -s - "$TMP/ref.sql" || die "kill $k: journal differs"
    echo "kill $k after ${delay}s: recovered$(grep -c 'removed git lock file' "$TMP/err" | sed 's/^0$//; s/^[1-9].*/ (stale git lock files removed)/')"
    rm -rf "$C"
    k=$((k + 1))
done
echo "random-moment kills: $KILLS, all recovered"

# A close (entropy beacon) crashed at each durable point: the rerun of the same close finishes
# it (tags a close whose branch moved, rewrites what was not yet written) and gives the close
# commit and tag of a close that never crashed.
new_campaign harbour-raid "$TMP/cref" --entropy beacon
"$BIN" close "$TMP/cref" $files1 >/dev/null
point=1
while :; do
    C="$TMP/cc$point"
    from_base beacon0 "$C"
    set +e
    # shellcheck disable=SC2086
    UMPIRE_CRASH_AFTER=$point "$BIN" close "$C" $files1 >/dev/null 2>"$TMP/crash"; rc=$?
    set -e
    if [ $rc -ne 99 ]; then
        [ $rc -eq 0 ] || die "close N=$point: exit $rc"
        break
    fi
    # shellcheck disable=SC2086
    expect 0 "$BIN" close "$C" $files1
    [ "$(git -C "$C" rev-parse main)" = "$(git -C "$TMP/cref" rev-parse main)" ] || die "close N=$point: history differs"
    [ "$(git -C "$C" rev-parse close-0001)" = "$(git -C "$TMP/cref" rev-parse close-0001)" ] || die "close N=$point: tag differs"
    [ -z "$(git -C "$C" status --porcelain)" ] || die "close N=$point: work tree not clean"
    echo "close crash point $point ($(sed 's/.*(\(.*\))/\1/' "$TMP/crash")): recovered"
    rm -rf "$C"
    point=$((point + 1))
    [ $point -le 50 ] || die "more than 50 close crash points: the close never completes"
done
[ $point -gt 3 ] || die "only $((point - 1)) close crash points"

# A sealed turn crashed at each durable point, the seal step's included (the withheld files,
# salts and whole state in .umpire/sealed/, each player's report, view, salt and file in his
# outbox): the rerun of the same turn gives the history, journal, kept files and outboxes of a
# turn that never crashed.
sealed_campaign() { new_campaign harbour-raid "$1" --entropy none --visibility sealed; }
sealed_campaign "$TMP/sref"; play harbour-raid "$TMP/sref" 2
dump "$TMP/sref" > "$TMP/sref.sql"
point=1 seal_points=0
while :; do
    C="$TMP/sc$point"
    from_base sealed1 "$C"
    set +e
    # shellcheck disable=SC2086
    UMPIRE_CRASH_AFTER=$point "$BIN" turn "$C" $files2 >/dev/null 2>"$TMP/crash"; rc=$?
    set -e
    if [ $rc -ne 99 ]; then
        [ $rc -eq 0 ] || die "sealed N=$point: exit $rc"
        break
    fi
    what=$(sed 's/.*(\(.*\))/\1/' "$TMP/crash")
    case $what in seal:*) seal_points=$((seal_points + 1)) ;; esac
    # shellcheck disable=SC2086
    expect 0 "$BIN" turn "$C" $files2
    [ "$(git -C "$C" rev-parse HEAD)" = "$(git -C "$TMP/sref" rev-parse HEAD)" ] || die "sealed N=$point ($what): history differs"
    [ "$(git -C "$C" tag | tr '\n' ' ')" = "$(git -C "$TMP/sref" tag | tr '\n' ' ')" ] || die "sealed N=$point: tags differ"
    [ -z "$(git -C "$C" status --porcelain)" ] || die "sealed N=$point: work tree not clean"
    dump "$C" | cmp -s - "$TMP/sref.sql" || die "sealed N=$point ($what): journal differs"
    diff -r "$TMP/sref/.umpire/sealed" "$C/.umpire/sealed" || die "sealed N=$point ($what): .umpire/sealed differs"
    diff -r "$TMP/sref/.umpire/outbox" "$C/.umpire/outbox" || die "sealed N=$point ($what): the outbox differs"
    echo "sealed crash point $point ($what): recovered"
    rm -rf "$C"
    point=$((point + 1))
    [ $point -le 200 ] || die "more than 200 sealed crash points: the run never completes"
done
[ $seal_points -ge 8 ] || die "only $seal_points crash points in the seal step"
echo "sealed crash points covered: $((point - 1)) ($seal_points in seal), all recovered"

# A sealed turn that crashed in seal after keeping the umpire's rulings file, rerun without it
# (the journal, not the crashed run, decides what the turn had): the stale file is removed, so
# neither the reveal nor a player's outbox holds a file the turn never received.
cat > "$TMP/rulings2.yaml" <<'YAML'
campaign: harbour-raid
turn: 2
player: umpire
orders:
  - roll: 1d6
    for: "weather 2"
YAML
C="$TMP/stale"
sealed_campaign "$C"; play harbour-raid "$C" 1
point=1
while :; do
    rm -rf "$C.try"; cp -a "$C" "$C.try"
    set +e
    # shellcheck disable=SC2086
    UMPIRE_CRASH_AFTER=$point "$BIN" turn "$C.try" $files2 --rulings "$TMP/rulings2.yaml" >/dev/null 2>"$TMP/crash"; rc=$?
    set -e
    [ $rc -eq 99 ] || die "the turn with rulings never crashed in seal"
    [ -f "$C.try/.umpire/sealed/turn-0002/orders/umpire.yaml" ] && break
    point=$((point + 1))
done
has "$TMP/crash" "seal: withheld order file"
# shellcheck disable=SC2086
expect 0 "$BIN" turn "$C.try" $files2
[ "$(git -C "$C.try" rev-parse HEAD)" = "$(git -C "$TMP/sref" rev-parse HEAD)" ] || die "stale: history differs from a turn without rulings"
[ -f "$C.try/.umpire/sealed/turn-0002/orders/umpire.yaml" ] && die "the stale rulings file is still kept"
diff -r "$TMP/sref/.umpire/sealed" "$C.try/.umpire/sealed" || die "stale: .umpire/sealed differs"
expect 0 "$BIN" reveal "$C.try"
git -C "$C.try" ls-tree -r --name-only reveal | grep -q 'orders/umpire.yaml' && die "the reveal published a stale file"
expect 3 "$BIN" verify "$C.try"

# A kept file changed after its turn was journaled: the reveal refuses and names it.
C="$TMP/changed"
sealed_campaign "$C"; play harbour-raid "$C" 2
echo "# changed later" >> "$C/.umpire/sealed/turn-0002/orders/defender.yaml"
expect 65 "$BIN" reveal "$C"
has "$TMP/err" "cannot reveal turn 2: $C/.umpire/sealed/turn-0002/orders/defender.yaml is not the file the journal received from defender"
git -C "$C" rev-parse -q --verify reveal >/dev/null && die "a refused reveal was tagged"
true
