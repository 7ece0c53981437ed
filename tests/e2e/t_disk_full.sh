# A full disk or exhausted inodes during a turn: the turn fails (or completes), and once
# space is back, rerunning it finishes without hand work and gives the history and journal
# of a run that never ran out. The campaign lives on a small tmpfs mounted in a user and
# mount namespace (unshare -rm); where the system allows none, the test says so and skips.
. "$ROOT/tests/e2e/lib.sh"
if ! unshare -rm true 2>/dev/null; then
    echo "skipped: cannot mount a tmpfs here (unshare -rm is not allowed)"
    exit 0
fi
files2=$(ls "$ROOT"/campaigns/harbour-raid/orders/turn-0002/*.yaml | sort)
new_campaign harbour-raid "$TMP/ref" --entropy none; play harbour-raid "$TMP/ref" 2
new_campaign harbour-raid "$TMP/base" --entropy none; play harbour-raid "$TMP/base" 1
sqlite3 "$TMP/ref/.umpire/journal.sqlite" .dump >"$TMP/ref.sql"
mkdir -p "$TMP/mnt"

# trial KIND AMOUNT: the campaign after turn 1 on a fresh tmpfs; then KIND=space leaves
# AMOUNT KiB free, KIND=inodes leaves AMOUNT inodes; turn 2; the filler removed; turn 2 again.
cat >"$TMP/trial.sh" <<'EOF'
set -u
kind=$1 amount=$2
mount -t tmpfs -o size=16m,nr_inodes=4000 tmpfs "$TMP/mnt" || exit 3
cp -a "$TMP/base" "$TMP/mnt/c"
if [ "$kind" = space ]; then
    free=$(df -k "$TMP/mnt" | awk 'NR == 2 { print $4 }')
    [ "$free" -gt "$amount" ] && head -c $(( (free - amount) * 1024 )) /dev/zero >"$TMP/mnt/fill" 2>/dev/null
else
    mkdir "$TMP/mnt/fill"
    free=$(df -i "$TMP/mnt" | awk 'NR == 2 { print $4 }')
    i=0; while [ $i -lt $((free - amount)) ]; do : >"$TMP/mnt/fill/$i" 2>/dev/null || break; i=$((i + 1)); done
fi
# shellcheck disable=SC2086
"$BIN" turn "$TMP/mnt/c" $files2 >/dev/null 2>"$TMP/first.err"; first=$?
rm -rf "$TMP/mnt/fill"
# shellcheck disable=SC2086
"$BIN" turn "$TMP/mnt/c" $files2 >/dev/null 2>"$TMP/second.err" || { echo "rerun failed (first run: exit $first)"; cat "$TMP/first.err" "$TMP/second.err"; exit 1; }
[ "$(git -C "$TMP/mnt/c" rev-parse HEAD)" = "$(git -C "$TMP/ref" rev-parse HEAD)" ] || { echo "history differs"; exit 1; }
[ -z "$(git -C "$TMP/mnt/c" status --porcelain)" ] || { echo "work tree not clean"; exit 1; }
sqlite3 "$TMP/mnt/c/.umpire/journal.sqlite" .dump | cmp -s - "$TMP/ref.sql" || { echo "journal differs"; exit 1; }
[ "$(sqlite3 "$TMP/mnt/c/.umpire/journal.sqlite" 'PRAGMA integrity_check')" = ok ] || { echo "integrity_check"; exit 1; }
echo "first run exit $first: $(head -c 300 "$TMP/first.err" | tr "\n" " ")"
EOF
export files2
failed_runs=0
for trial in space:0 space:8 space:16 space:32 space:48 space:64 space:96 space:128 space:192 space:256 \
    inodes:0 inodes:1 inodes:2 inodes:4 inodes:8 inodes:16; do
    kind=${trial%%:*} amount=${trial#*:}
    out=$(unshare -rm sh "$TMP/trial.sh" "$kind" "$amount" 2>&1) || die "$kind $amount: $out"
    echo "$kind left $amount: recovered ($out)"
    case $out in
    *"exit 0:"*) ;;
    *"exit 74:"*) failed_runs=$((failed_runs + 1)) ;;
    *) die "$kind $amount: the first run did not fail as an I/O error (74): $out" ;;
    esac
done
[ $failed_runs -gt 0 ] || die "no trial ran out of space or inodes: the filler does not work"
echo "disk full: 16 trials, $failed_runs first runs failed, every rerun recovered"
