# umpire verify checks a played campaign on a plain git clone and on the umpire's own copy,
# and names the first broken item of each tamper: a die value or an event changed in a
# journal export, a changed order file, a key that does not chain, a changed or deleted
# SQLite journal row, a truncated journal, extra journal turns, a rewritten history and a
# force-moved main.
. "$ROOT/tests/e2e/lib.sh"
C="$TMP/c"
# open and one step a turn, as verify re-runs every turn in full (sealed campaigns: t_sealed);
# the turns whose orders stay valid under those dice
new_campaign harbour-raid "$C" --entropy none --visibility open; play harbour-raid "$C" 3
N=$(git -C "$C" tag -l 'turn-*' | grep -vc '^turn-0000$')
[ "$N" -ge 3 ] || die "harbour-raid played $N turns (3 or more expected)"
last=$(printf 'turn-%04d' "$N")

# copy NAME: a copy of the umpire's campaign (with .umpire/).
# copy NAME: the umpire's copy as it was before any verify remembered its head (the check of a
# remembered head, refs/umpire/verified, has its own tests in t_closed_turns).
copy() {
    rm -rf "${TMP:?}/$1"; cp -a "$C" "$TMP/$1"
    git -C "$TMP/$1" update-ref -d refs/umpire/verified 2>/dev/null || true
}
# clones and commits of tampers: tclone, tcommit (lib.sh)

# The umpire's copy: every turn, the SQLite cross-check included; no progress off a terminal.
expect 3 "$BIN" verify "$C"
has "$TMP/out" "turn 0: ok: setup, chain, history, journal"
t=1
while [ "$t" -le "$N" ]; do
    has "$TMP/out" "turn $t: ok: key, digest, seed, "
    grep -q "^turn $t: ok: .*, state, chain, commit id, history, journal\$" "$TMP/out" || die "turn $t line"
    t=$((t + 1))
done
has "$TMP/out" "verify: ok: campaign harbour-raid: $N turns, "
has "$TMP/out" "and the SQLite journal matches git"
[ ! -s "$TMP/err" ] || { cat "$TMP/err"; die "verify wrote to stderr off a terminal"; }
n1=$(grep -c '^  value: ' "$C/journal/turn-0001.yaml")
has "$TMP/out" "turn 1: ok: key, digest, seed, $n1 dice,"

# A plain clone: the same without the journal.
tclone ok
expect 3 "$BIN" verify "$TMP/ok"
has "$TMP/out" "turn $N: ok: key, digest, seed, "
has "$TMP/out" "verify: ok: campaign harbour-raid: $N turns, "
if grep -q "journal matches" "$TMP/out"; then die "a clone has no SQLite journal"; fi
expect 66 "$BIN" verify "$TMP/nothing-here"
mkdir "$TMP/plain"; git -C "$TMP/plain" init -q
expect 66 "$BIN" verify "$TMP/plain"

# A die value changed in an export, committed, tag moved: named by turn and index.
tclone die
idx=$(( $(grep -c '^  value: ' "$TMP/die/journal/turn-0002.yaml") / 2 ))
awk -v k="$idx" '/^  value: / { if (n++ == k) { $0 = "  value: " ($2 % 6) + 1 } } { print }' \
    "$C/journal/turn-0002.yaml" > "$TMP/die/journal/turn-0002.yaml"
tcommit die turn-0002
both_fail "$TMP/die"
has "$TMP/out" "turn 1: ok: "
has "$TMP/out" "verify: FAILED: turn 2: die $idx differs from the seed: journal/turn-0002.yaml has d6 = "

# The same edit in a commit on top, tags untouched: the turn's file changed after the turn.
tclone later
cp "$TMP/die/journal/turn-0002.yaml" "$TMP/later/journal/turn-0002.yaml"
git -C "$TMP/later" -c user.name=m -c user.email=m@example.org commit -qam later
both_fail "$TMP/later"
has "$TMP/out" "verify: FAILED: turn 2: journal/turn-0002.yaml at main differs from turn-0002: changed after the turn"

# An event changed in an export.
tclone event
sed '/^events:/,/^void_orders:/ s/^  text: .*/  text: "nothing happened"/' \
    "$C/journal/turn-0003.yaml" > "$TMP/event/journal/turn-0003.yaml"
tcommit event turn-0003
both_fail "$TMP/event"
has "$TMP/out" "verify: FAILED: turn 3: event differs: event 0: re-resolved ["
has "$TMP/out" "journal/turn-0003.yaml has ["
has "$TMP/out" "\"nothing happened\""

# A committed order file changed.
tclone orders
of=$(cd "$TMP/orders" && ls orders/turn-0003/*.yaml | head -n 1)
printf '# edited later\n' >> "$TMP/orders/$of"
tcommit orders turn-0003
both_fail "$TMP/orders"
has "$TMP/out" "verify: FAILED: turn 3: order file $of differs from the one journal/turn-0003.yaml records"

# A key that does not chain to the commitment (turn 1's key put in turn 2's export).
tclone key
k1=$(sed -n 's/^key: //p' "$C/journal/turn-0001.yaml")
sed "s/^key: .*/key: $k1/" "$C/journal/turn-0002.yaml" > "$TMP/key/journal/turn-0002.yaml"
tcommit key turn-0002
both_fail "$TMP/key"
has "$TMP/out" "verify: FAILED: turn 2: the key $k1 in journal/turn-0002.yaml does not chain to the commitment"

# A SQLite journal row changed, and rows deleted, with the triggers dropped.
copy row
journal_sql "$TMP/row" "UPDATE dice SET value = value % sides + 1 WHERE turn = 2 AND idx = 1"
expect 65 "$BIN" verify "$TMP/row"
has "$TMP/out" "verify: FAILED: turn 2: die 1 differs from the seed: the SQLite journal has d6 = "
copy gone
n3=$(sqlite3 "$TMP/gone/.umpire/journal.sqlite" "SELECT COUNT(*) FROM dice WHERE turn = 3")
journal_sql "$TMP/gone" "DELETE FROM dice WHERE turn = 3 AND idx = $((n3 - 1))"
expect 65 "$BIN" verify "$TMP/gone"
has "$TMP/out" "verify: FAILED: turn 3: dice count differs: $n3 re-resolved, $((n3 - 1)) in the SQLite journal (die $((n3 - 1)), d6 for "
copy ev
journal_sql "$TMP/ev" "DELETE FROM events WHERE turn = 3 AND seq = 0"
expect 65 "$BIN" verify "$TMP/ev"
has "$TMP/out" "verify: FAILED: turn 3: event differs: event 0: re-resolved ["
copy file
journal_sql "$TMP/file" "UPDATE files SET sha256 = '$(printf edited | sha256sum | cut -c1-64)' WHERE turn = 2 AND path = 'state.yaml'"
expect 65 "$BIN" verify "$TMP/file"
has "$TMP/out" "verify: FAILED: turn 2: the journal's files row state.yaml differs from the blob committed at turn-0002"
copy cid
journal_sql "$TMP/cid" "UPDATE turns SET commit_id = '0123456789012345678901234567890123456789' WHERE turn = 1"
expect 65 "$BIN" verify "$TMP/cid"
has "$TMP/out" "verify: FAILED: turn 1: tag turn-0001 is commit "
has "$TMP/out" "but the journal says turn 1 is commit 0123456789012345678901234567890123456789"

# A truncated journal: the last turn's rows deleted.
copy trunc
journal_sql "$TMP/trunc" "DELETE FROM dice WHERE turn = $N; DELETE FROM events WHERE turn = $N;
    DELETE FROM orders WHERE turn = $N; DELETE FROM files WHERE turn = $N;
    DELETE FROM turns WHERE turn = $N"
expect 65 "$BIN" verify "$TMP/trunc"
has "$TMP/out" "verify: FAILED: turn $N: git has $last but the journal has no turn $N: the journal was truncated (it ends at turn $((N - 1)))"

# Extra journal turns: git lost the last turn (tag deleted, main moved back).
copy extra
git -C "$TMP/extra" tag -d "$last" >/dev/null
git -C "$TMP/extra" reset -q --hard HEAD~1
expect 65 "$BIN" verify "$TMP/extra"
has "$TMP/out" "verify: FAILED: journal: the journal has turn $N, but git ends at turn $((N - 1)): extra journal turns"

# A force-moved main: reset back one commit, tags left as they were.
copy moved
git -C "$TMP/moved" reset -q --hard HEAD~1
expect 65 "$BIN" verify "$TMP/moved"
has "$TMP/out" "verify: FAILED: turn $N: tag $last is commit "
has "$TMP/out" "which is not on main: main ends at turn $((N - 1))"
# A player's clone of it holds tags past main's end that lead back to it: a publish not
# finished (tags first) or a main moved back, which a fresh clone cannot tell apart (the
# umpire's journal does, above). It verifies main alone and says both, in both verifiers.
tclone moved-clone "$TMP/moved"
git -C "$TMP/moved-clone" fetch -q --tags
expect 3 "$BIN" verify "$TMP/moved-clone"
has "$TMP/out" "note: tags turn-$(printf %04d "$N") to $last are ahead of main, which ends at turn $((N - 1)) (commit $(git -C "$TMP/moved" rev-parse main)) and leads to them"
has "$TMP/out" "verify: ok: campaign harbour-raid: $((N - 1)) turns"
# A clone that verified turn N before is not fooled: its remembered head left main.
tclone seen
expect 3 "$BIN" verify "$TMP/seen"
git -C "$TMP/seen" fetch -q "$TMP/moved" +main:refs/remotes/origin/main
git -C "$TMP/seen" reset -q --hard origin/main
both_fail "$TMP/seen"
has "$TMP/out" "verify: FAILED: history: this clone last verified main at commit $(git -C "$C" rev-parse main)"

# A rewritten history: an old commit amended (same files, trailers and message) and re-tagged.
for where in copy tclone; do
    $where amend
    git -C "$TMP/amend" checkout -q turn-0001
    git -C "$TMP/amend" -c user.name=mallory -c user.email=mallory@example.org \
        commit -q --amend --no-edit
    git -C "$TMP/amend" tag -f turn-0001 >/dev/null
    git -C "$TMP/amend" checkout -q main
    both_fail "$TMP/amend"
    has "$TMP/out" "verify: FAILED: turn 1: tag turn-0001 is commit "
    has "$TMP/out" "but main's 1st commit after Setup is $(git -C "$C" rev-parse turn-0001): the history was rewritten or the tag moved"
done
# ... and the whole history rebuilt on the amended commit: every file and trailer is the same,
# so only the umpire's journal, which holds the commit ids, can tell.
copy rebuilt
git -C "$TMP/rebuilt" checkout -q turn-0001
git -C "$TMP/rebuilt" -c user.name=mallory -c user.email=mallory@example.org commit -q --amend --no-edit
git -C "$TMP/rebuilt" tag -f turn-0001 >/dev/null
t=2
while [ "$t" -le "$N" ]; do
    tag=$(printf 'turn-%04d' "$t")
    git -C "$TMP/rebuilt" -c user.name=mallory -c user.email=mallory@example.org \
        cherry-pick "$(git -C "$C" rev-parse "$tag")" >/dev/null
    git -C "$TMP/rebuilt" tag -f "$tag" >/dev/null
    t=$((t + 1))
done
git -C "$TMP/rebuilt" branch -f main HEAD
git -C "$TMP/rebuilt" checkout -q main
both_fail "$TMP/rebuilt"
has "$TMP/out" "turn 0: ok: setup, chain, history, journal"
# Every file and trailer is kept, but the commits are new: rebuilding the commit id (from the
# replayed files, the expected message and the commit's time) finds it, clone or not.
has "$TMP/out" "verify: FAILED: turn 1: turn-0001 is commit $(git -C "$TMP/rebuilt" rev-parse turn-0001), but the turn rebuilds to commit "

# The last turn's commit amended with an extra file, tag and main moved onto it: files,
# trailers and history all look right; only rebuilding the commit id finds it.
tclone extra
git -C "$TMP/extra" checkout -q -B main origin/main
echo "a note" > "$TMP/extra/notes.txt"
git -C "$TMP/extra" add notes.txt
git -C "$TMP/extra" -c user.name=mallory -c user.email=mallory@example.org commit -q --amend --no-edit
last=$(printf 'turn-%04d' "$N")
git -C "$TMP/extra" tag -f "$last" >/dev/null
both_fail "$TMP/extra"
has "$TMP/out" "verify: FAILED: turn $N: $last is commit $(git -C "$TMP/extra" rev-parse HEAD), but the turn rebuilds to commit "
has "$TMP/out" ": the commit holds other files, another message or another parent"

# A campaign with a public beacon: B_t = SHA256(beacon_value) is checked every turn.
"$BIN" init --visibility open "$TMP/bc" --scenario "$ROOT/campaigns/harbour-raid/scenario.yaml" \
    --secret-file "$ROOT/campaigns/harbour-raid/demo.secret" --beacon "drand, first round after the deadline" \
    --beacon-genesis 1767225600 --beacon-period 30 >/dev/null
for t in 1 2; do
    # shellcheck disable=SC2046
    env SOURCE_DATE_EPOCH=$((1767225600 + t * 86400)) "$BIN" close "$TMP/bc" \
        $(ls "$ROOT"/campaigns/harbour-raid/orders/turn-000$t/*.yaml | sort) >/dev/null
    env SOURCE_DATE_EPOCH=$((1767225600 + t * 86400 + 3600)) "$BIN" turn "$TMP/bc" \
        --beacon "randomness-$t" >/dev/null
done
expect 3 "$BIN" verify "$TMP/bc"; has "$TMP/out" "verify: ok: campaign harbour-raid: 2 turns, "
tclone bcc "$TMP/bc"
sed -i 's/^beacon_value: .*/beacon_value: randomness-9/' "$TMP/bcc/journal/turn-0002.yaml"
tcommit bcc turn-0002
both_fail "$TMP/bcc"
has "$TMP/out" "verify: FAILED: turn 2: beacon differs: SHA256 of the beacon value is $(printf randomness-9 | sha256sum | cut -c1-64), journal/turn-0002.yaml says "

# replay (the same re-resolution, the SQLite journal as the record) agrees on the untouched copy.
expect 0 "$BIN" replay "$C"; has "$TMP/out" "replay: $N turns identical"
