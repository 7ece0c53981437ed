# t_index_record.sh — a turn updates git's index for its own paths only when .git/umpire-index
# records that the index on disk holds the parent's tree (docs/design.md); a missing, stale or
# torn record, or an index changed since, takes the whole-tree path. Either way the index ends
# exactly the commit's tree: `git status` clean, nothing staged, fsck clean.
. "$ROOT/tests/e2e/lib.sh"
HR="$ROOT/campaigns/harbour-raid"
new_campaign harbour-raid c --entropy none --visibility open
# turns 4 to 6: an empty order file of the side due (the demo's later orders fit its own dice)
empty() {
    _p=attacker; [ $(($1 % 2)) -eq 1 ] || _p=defender
    printf 'campaign: harbour-raid\nturn: %d\nplayer: %s\norders: []\n' "$1" "$_p" > "e-$1.yaml"
    echo "e-$1.yaml"
}
clean() {
    [ -z "$(git -C c status --porcelain)" ] || { git -C c status --porcelain >&2; die "$1: work tree or index not clean"; }
    git -C c diff --cached --quiet HEAD || die "$1: the index differs from HEAD"
    git -C c fsck --strict --no-progress || die "$1: git fsck"
}
expect 0 "$BIN" turn c "$HR/orders/turn-0001/attacker.yaml"
[ -s c/.git/umpire-index ] || die "no index record after a turn"
[ "$(cut -d' ' -f1 c/.git/umpire-index)" = "$(git -C c rev-parse HEAD)" ] || die "the record names another commit than HEAD"
# written in version 4 (paths prefix-compressed: fewer bytes hashed at each read and write)
[ "$(head -c 8 c/.git/index | od -An -tx1 | tr -d ' \n')" = 4449524300000004 ] || die "the index is not version 4: $(head -c 8 c/.git/index | od -An -tx1)"
clean "turn 1"
# the record holds: turn 2 takes the turn's paths only
expect 0 "$BIN" turn c "$HR/orders/turn-0002/defender.yaml"
clean "turn 2 (record)"
# a record naming another commit: the whole tree is read
printf '%s %s\n' 0000000000000000000000000000000000000000 0000000000000000000000000000000000000000 > c/.git/umpire-index
expect 0 "$BIN" turn c "$HR/orders/turn-0003/attacker.yaml"
clean "turn 3 (stale record)"
# a torn record
printf '%s' "$(git -C c rev-parse HEAD)" > c/.git/umpire-index
expect 0 "$BIN" turn c "$(empty 4)"
clean "turn 4 (torn record)"
# the index changed since the record (a file staged by hand, then unstaged): checksum differs
echo "note" > c/scratch.txt; git -C c add scratch.txt; git -C c rm -q --cached scratch.txt; rm c/scratch.txt
expect 0 "$BIN" turn c "$(empty 5)"
clean "turn 5 (index changed)"
# no record at all
rm c/.git/umpire-index
expect 0 "$BIN" turn c "$(empty 6)"
clean "turn 6 (no record)"
# after the whole-tree path, the record holds again: libgit2's index gets the turn's paths only
expect 0 "$BIN" turn c "$(empty 7)"
clean "turn 7 (record again)"
# an index git rewrote in version 4 (prefix-compressed paths), recorded as holding HEAD: read
# and written by libgit2 like any other
git -C c update-index --index-version 4
printf '%s %s\n' "$(git -C c rev-parse HEAD)" "$(tail -c 20 c/.git/index | od -An -tx1 | tr -d ' \n')" > c/.git/umpire-index
expect 0 "$BIN" turn c "$(empty 8)"
clean "turn 8 (index version 4)"
