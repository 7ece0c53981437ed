# A second concurrent run exits 75; a crash after the journal transaction is finished by the
# next run, which says so, and the result is identical to a run that never crashed.
. "$ROOT/tests/e2e/lib.sh"
C="$TMP/c"
new_campaign harbour-raid "$C" --entropy none --visibility open
files1=$(ls "$ROOT"/campaigns/harbour-raid/orders/turn-0001/*.yaml | sort)
files2=$(ls "$ROOT"/campaigns/harbour-raid/orders/turn-0002/*.yaml | sort)

# Lock: hold the lock with flock(1) while a turn tries to run.
before=$(fingerprint "$C")
flock "$C/.umpire/lock" sh -c "\"$BIN\" turn \"$C\" $files1 >\"$TMP/out\" 2>\"$TMP/err\"; echo \$? > \"$TMP/rc\""
[ "$(cat "$TMP/rc")" = 75 ] || die "locked campaign: exit $(cat "$TMP/rc") (75 expected)"
has "$TMP/err" "is locked by another umpire run"
[ "$(fingerprint "$C")" = "$before" ] || die "a locked run changed the campaign"

# Crash after the journal commit, before git moves (durable points: git objects, journal, a work-tree file).
# shellcheck disable=SC2086
UMPIRE_CRASH_AFTER=3 "$BIN" turn "$C" $files1 >/dev/null 2>&1 && die "no simulated crash"
[ "$(git -C "$C" tag | wc -l)" -eq 1 ] || die "git advanced despite the crash"
# shellcheck disable=SC2086
expect 0 "$BIN" turn "$C" $files1
has "$TMP/err" "recovered turn 1"
has "$TMP/out" "Turn 1 was already processed"
# shellcheck disable=SC2086
expect 0 "$BIN" turn "$C" $files2

new_campaign harbour-raid "$TMP/ref" --entropy none --visibility open; play harbour-raid "$TMP/ref" 2
[ "$(git -C "$C" rev-parse HEAD)" = "$(git -C "$TMP/ref" rev-parse HEAD)" ] || die "recovered history differs"
[ -z "$(git -C "$C" status --porcelain)" ] || die "work tree not clean after recovery"
expect 0 "$BIN" replay "$C"
[ "$(sqlite3 "$C/.umpire/journal.sqlite" 'PRAGMA integrity_check')" = ok ] || die "integrity_check"

# git lock files a killed run left behind (kill -9 while libgit2 held them): the next turn,
# holding .umpire/lock, removes those older than its own run and says so. One made after the
# run began (a git command run by hand meanwhile) is left, and the error names it.
C="$TMP/stale"
new_campaign harbour-raid "$C" --entropy none --visibility open
# shellcheck disable=SC2086
UMPIRE_CRASH_AFTER=3 "$BIN" turn "$C" $files1 >/dev/null 2>&1 && die "no simulated crash"
for l in refs/heads/main.lock refs/tags/turn-0001.lock index.lock; do
    : >"$C/.git/$l"; touch -d '-1 minute' "$C/.git/$l"
done
# shellcheck disable=SC2086
expect 0 "$BIN" turn "$C" $files1
has "$TMP/err" "umpire: removed git lock file '$C/.git/refs/heads/main.lock': left by an umpire run that was killed"
has "$TMP/err" "removed git lock file '$C/.git/refs/tags/turn-0001.lock'"
has "$TMP/err" "removed git lock file '$C/.git/index.lock'"
has "$TMP/err" "recovered turn 1"
[ -z "$(find "$C/.git" -name '*.lock')" ] || die "lock files left: $(find "$C/.git" -name '*.lock')"
[ "$(git -C "$C" rev-parse HEAD)" = "$(git -C "$TMP/ref" rev-parse turn-0001)" ] || die "history after clearing locks differs"
# shellcheck disable=SC2086
UMPIRE_CRASH_AFTER=3 "$BIN" turn "$C" $files2 >/dev/null 2>&1 && die "no simulated crash"
: >"$C/.git/refs/heads/main.lock"; touch -d '+1 hour' "$C/.git/refs/heads/main.lock"
# shellcheck disable=SC2086
expect 74 "$BIN" turn "$C" $files2
has "$TMP/err" "failed to lock file '$C/.git/refs/heads/main.lock' for writing: (a git command run meanwhile holds that lock file: if none is running, remove the file)"
rm "$C/.git/refs/heads/main.lock"
# shellcheck disable=SC2086
expect 0 "$BIN" turn "$C" $files2
[ "$(git -C "$C" rev-parse HEAD)" = "$(git -C "$TMP/ref" rev-parse HEAD)" ] || die "history after removing the lock differs"
