# t_object_swap.sh — a command holding the campaign's writer lock reads the umpire's own
# objects without hashing each again (libgit2's strict hash verification off: issue 38); a
# swapped object still stops the next turn, by the journal's hashes of the last turn's files,
# and `umpire verify` (which keeps the check) still fails on it. The swap: the loose object of
# a committed file replaced by another blob's (valid zlib, another id's bytes).
. "$ROOT/tests/e2e/lib.sh"
HR="$ROOT/campaigns/harbour-raid"
new_campaign harbour-raid c --entropy none --visibility open
expect 0 "$BIN" turn c "$HR/orders/turn-0001/attacker.yaml"
obj() { _id=$(git -C "$1" rev-parse "HEAD:$2"); echo "$1/.git/objects/$(echo "$_id" | cut -c1-2)/$(echo "$_id" | cut -c3-)"; }
swap() { # swap DIR PATH OTHER: PATH's object gets OTHER's bytes
    _to=$(obj "$1" "$2"); _from=$(obj "$1" "$3")
    [ -f "$_to" ] && [ -f "$_from" ] || die "no loose objects for $2 and $3"
    chmod u+w "$_to"; cp "$_from" "$_to"
}
# a file of the last turn swapped: the turn refuses, by the journal's files row
cp -a c d
swap d reports/turn-0001/attacker.md reports/turn-0000/defender.md
expect 65 "$BIN" turn d "$HR/orders/turn-0002/defender.yaml"
has "$TMP/err" "the journal's files row for reports/turn-0001/attacker.md differs from the blob committed"
[ "$(git -C d rev-parse HEAD)" = "$(git -C c rev-parse HEAD)" ] || die "the refused turn moved main"
# verify of the same: failed, not fair
expect 65 "$BIN" verify d
has "$TMP/out" "verdict: failed"
# an earlier turn's file swapped (the turn does not read it): verify still fails on it
cp -a c e
swap e reports/turn-0000/attacker.md reports/turn-0000/defender.md
expect 65 "$BIN" verify e
has "$TMP/out" "verdict: failed"
# the untouched campaign plays on
expect 0 "$BIN" turn c "$HR/orders/turn-0002/defender.yaml"
