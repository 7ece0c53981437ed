# No turn stalls (issue 38, item 2): no turn packs git's objects, however long the campaign;
# the maintenance step between turns (umpire publish, umpire run) packs them once 50 turns
# were played since the last packing, remembers it in .umpire/packed and does nothing more
# until 50 more; a command reads only the open turn's part of .umpire/closed/, not every
# past turn's.
. "$ROOT/tests/e2e/lib.sh"
BS="$ROOT/campaigns/betio-seawall"
C="$TMP/c"
sed 's/^  turns: [0-9]*$/  turns: 60/' "$BS/scenario.yaml" >"$TMP/scen.yaml"
expect 0 "$BIN" init "$C" --scenario "$TMP/scen.yaml" --secret-file "$BS/demo.secret" \
    --entropy none --visibility open
packs() { git -C "$C" count-objects -v | sed -n 's/^packs: //p'; }
loose() { git -C "$C" count-objects -v | sed -n 's/^count: //p'; }
for t in $(seq 1 50); do
    printf 'campaign: betio-seawall\nturn: %s\nplayer: umpire\norders:\n  - {roll: 1d6, for: "a ruling"}\n' "$t" >"$TMP/r.yaml"
    "$BIN" turn "$C" --rulings "$TMP/r.yaml" --allow-missing >/dev/null
done
# turn 50 packed nothing (it did every 50th turn before)
[ "$(packs)" -eq 0 ] || die "turn 50 packed: $(packs) packs"
[ "$(loose)" -gt 500 ] || die "only $(loose) loose objects after 50 turns"
[ ! -e "$C/.umpire/packed" ] || die "a turn wrote .umpire/packed"
# the maintenance step: publish packs them all, then says so in .umpire/packed
expect 0 "$BIN" publish "$C" "$TMP/remote.git"
[ "$(packs)" -eq 1 ] && [ "$(loose)" -eq 0 ] || die "publish left $(packs) packs, $(loose) loose objects"
[ "$(cat "$C/.umpire/packed")" = 50 ] || die ".umpire/packed says '$(cat "$C/.umpire/packed")', 50 expected"
git -C "$C" fsck --strict >/dev/null 2>&1 || die "git fsck refuses the packed repository"
pack=$(ls "$C/.git/objects/pack/")
# ten more turns: not yet due, so publish leaves their objects loose and the pack alone
for t in $(seq 51 53); do
    printf 'campaign: betio-seawall\nturn: %s\nplayer: umpire\norders:\n  - {roll: 1d6, for: "a ruling"}\n' "$t" >"$TMP/r.yaml"
    "$BIN" turn "$C" --rulings "$TMP/r.yaml" --allow-missing >/dev/null
done
expect 0 "$BIN" publish "$C" "$TMP/remote.git"
[ "$(ls "$C/.git/objects/pack/")" = "$pack" ] || die "publish packed again before 50 more turns"
[ "$(loose)" -gt 0 ] || die "turns 51-53 left no loose objects"
expect 3 "$BIN" verify "$C"
has "$TMP/out" "verify: ok: campaign betio-seawall: 53 turns"

# A turn reads the open turn's folder of .umpire/closed/, not each past turn's (a stale
# temporary file in a past turn's folder is no killed run's: the next command after a kill
# already cleared the folder it was writing).
command -v strace >/dev/null 2>&1 || skip "no strace to see which folders a turn opens"
H="$ROOT/campaigns/harbour-raid"
K="$TMP/k"
"$BIN" init "$K" --scenario "$H/scenario.yaml" --secret-file "$H/demo.secret" --entropy beacon \
    --beacon unsigned-test-values --beacon-genesis 1692803367 --beacon-period 3 --visibility open \
    >/dev/null
for t in 1 2 3; do
    printf 'campaign: harbour-raid\nturn: %s\nplayer: umpire\norders: []\n' "$t" >"$TMP/u.yaml"
    expect 0 env SOURCE_DATE_EPOCH=$((1767225600 + t * 3600)) "$BIN" close "$K" --allow-missing --rulings "$TMP/u.yaml"
    expect 0 env SOURCE_DATE_EPOCH=$((1767225600 + t * 3600 + 700)) "$BIN" turn "$K" --beacon "demo value $t"
done
[ -d "$K/.umpire/closed/turn-0001" ] || die "no .umpire/closed/turn-0001"
printf 'campaign: harbour-raid\nturn: 4\nplayer: umpire\norders: []\n' >"$TMP/u.yaml"
# (the folders are opened one name at a time, relative to their parent: each name counts)
SOURCE_DATE_EPOCH=$((1767225600 + 4 * 3600)) strace -f -e trace=openat,open,newfstatat,statx \
    -o "$TMP/trace" "$BIN" close "$K" --allow-missing --rulings "$TMP/u.yaml" >/dev/null
if grep -E '"turn-000[12]"|closed/turn-000[12]' "$TMP/trace" >"$TMP/seen"; then
    cat "$TMP/seen" >&2; die "closing turn 4 looked into turn 1's or 2's folder of .umpire/closed/"
fi
grep -qE '"turn-0004"|closed/turn-0004' "$TMP/trace" || die "closing turn 4 never opened its own folder"
