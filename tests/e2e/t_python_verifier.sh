# tools/umpire-verify (Python standard library only) audits a plain git clone of a played
# campaign and the fairness test vectors, and names the first broken item of a clone tampered
# with: a die value, a committed order file, a revealed key, a missing tag, an export it
# cannot read, and a journal export changed after its tag.
. "$ROOT/tests/e2e/lib.sh"
V="$ROOT/tools/umpire-verify"
C="$TMP/c"
new_campaign harbour-raid "$C"; play harbour-raid "$C"
turns=$(git -C "$C" tag -l 'turn-*' | grep -vc '^turn-0000$')
[ "$turns" -ge 2 ] || die "harbour-raid played $turns turns (2 or more expected)"

# clone NAME [SRC]: a fresh plain clone of the campaign SRC (default $C; no .umpire/), with
# its tags.
clone() {
    rm -rf "${TMP:?}/$1"
    git clone -q "${2:-$C}" "$TMP/$1"
    [ ! -e "$TMP/$1/.umpire" ] || die "the clone holds .umpire/"
}
# commit NAME TAG: commits the clone's changes and moves TAG onto that commit, as an umpire
# rewriting a published turn would.
commit() {
    git -C "$TMP/$1" -c user.name=mallory -c user.email=mallory@example.org \
        commit -qam "tamper" >/dev/null
    git -C "$TMP/$1" tag -f "$2" >/dev/null
}
# A die of turn 1 (the middle one, so the index is not trivially 0) and its journal line.
j1=journal/turn-0001.yaml
ndice=$(grep -c '^  value: ' "$C/$j1" || true)
[ "$ndice" -ge 1 ] || die "turn 1 of harbour-raid rolls no dice"
idx=$((ndice / 2))

# An untouched clone verifies, turn by turn.
clone ok
expect 0 python3 "$V" "$TMP/ok"
t=1
while [ "$t" -le "$turns" ]; do
    has "$TMP/out" "turn $t: ok: key, digest, seed, "; t=$((t + 1))
done
has "$TMP/out" "turn 1: ok: key, digest, seed, $ndice dice"
has "$TMP/out" "verdict: ok: $turns turns, "
# also when started directly (shebang), and on the campaign itself
expect 0 "$V" "$C"; has "$TMP/out" "verdict: ok: $turns turns, "

# The test vectors.
expect 0 python3 "$V" --vectors "$ROOT"/tests/vectors/*.json
has "$TMP/out" "verdict: ok: "
n=$(sed -n 's/^verdict: ok: \([0-9]*\) vectors passed$/\1/p' "$TMP/out")
[ "${n:-0}" -ge 50 ] || die "only '${n:-no}' vectors checked"
python3 - "$ROOT/tests/vectors/fairness.json" "$TMP/bad-vectors.json" <<'EOF'
import json, sys
v = json.load(open(sys.argv[1]))
r = v["dice"]["cases"][1]["rolls"][3]
r["value"] = r["value"] % v["dice"]["cases"][1]["sides"] + 1
json.dump(v, open(sys.argv[2], "w"))
EOF
expect 65 python3 "$V" --vectors "$TMP/bad-vectors.json"
has "$TMP/out" "vector dice d"; has "$TMP/out" "j=3 value failed"

# A die value changed in the journal export, committed, tag moved.
clone die
awk -v want="$idx" '
    /^- index: / { cur = $3 }
    /^  sides: / { sides = $2 }
    /^  value: / && cur == want { $0 = "  value: " ($2 % sides + 1) }
    { print }' "$C/$j1" >"$TMP/die/$j1"
[ "$(diff "$C/$j1" "$TMP/die/$j1" | grep -c '^[<>]')" -eq 2 ] || die "the die was not changed"
commit die turn-0001
expect 65 python3 "$V" "$TMP/die"
has "$TMP/out" "verdict: FAILED: turn 1: die $idx: $j1:"
has "$TMP/out" "but the seed gives"

# The same change, tag left alone: HEAD no longer shows what the tag verified.
clone head
cp "$TMP/die/$j1" "$TMP/head/$j1"
git -C "$TMP/head" -c user.name=m -c user.email=m@example.org commit -qam "edit" >/dev/null
expect 65 python3 "$V" "$TMP/head"
has "$TMP/out" "verdict: FAILED: turn 1: $j1 at HEAD differs from the file at tag turn-0001"

# A committed order file changed (one byte more), tag moved.
clone orders
of=$(cd "$TMP/orders" && find orders/turn-0001 -name '*.yaml' | sort | head -n 1)
printf '# edited later\n' >>"$TMP/orders/$of"
commit orders turn-0001
expect 65 python3 "$V" "$TMP/orders"
has "$TMP/out" "verdict: FAILED: turn 1: $of: SHA256 "

# An order file added after the fact for a player who sent none is not in the digest.
clone added
absent=$(awk '/^- player: / { p = $3 } /^  received: false/ { print p; exit }' "$C/$j1")
if [ -n "$absent" ]; then
    cp "$TMP/added/$of" "$TMP/added/orders/turn-0001/$absent.yaml"
    git -C "$TMP/added" add "orders/turn-0001/$absent.yaml"
    commit added turn-0001
    expect 65 python3 "$V" "$TMP/added"
    has "$TMP/out" "verdict: FAILED: turn 1: orders/turn-0001/$absent.yaml: committed,"
    has "$TMP/out" "but the export says received: false"
fi

# Turn 2's key replaced by turn 1's (a key that does hash to the commitment, once too few).
clone key
k1=$(sed -n 's/^key: //p' "$C/$j1")
sed "s/^key: .*/key: $k1/" "$C/journal/turn-0002.yaml" >"$TMP/key/journal/turn-0002.yaml"
commit key turn-0002
expect 65 python3 "$V" "$TMP/key"
has "$TMP/out" "verdict: FAILED: turn 2: key: journal/turn-0002.yaml:"
has "$TMP/out" "SHA256 applied t = 2 times to $k1 does not give the commitment"
# ... and by a made-up key.
clone key2
k=$(printf 'forged' | sha256sum | cut -c1-64)
sed "s/^key: .*/key: $k/" "$C/$j1" >"$TMP/key2/$j1"
commit key2 turn-0001
expect 65 python3 "$V" "$TMP/key2"
has "$TMP/out" "verdict: FAILED: turn 1: key: $j1:"

# A turn's tag deleted.
clone gap
git -C "$TMP/gap" tag -d turn-0001 >/dev/null
expect 65 python3 "$V" "$TMP/gap"
has "$TMP/out" "verdict: FAILED: turn 1: tag turn-0001 missing but turn-0002 exists"

# An export outside the canonical YAML subset is refused with file:line:column.
clone yaml
sed 's/^summary: .*/summary: {a: b}/' "$C/$j1" >"$TMP/yaml/$j1"
commit yaml turn-0001
expect 65 python3 "$V" "$TMP/yaml"
has "$TMP/out" "verdict: FAILED: turn 1: $j1:"
has "$TMP/out" "flow collections are not supported"

# A campaign with a public beacon: B_t = SHA256(beacon_value), and the seed depends on it.
B="$TMP/b"
"$BIN" init --visibility open "$B" --scenario "$ROOT/campaigns/harbour-raid/scenario.yaml" \
    --secret-file "$ROOT/campaigns/harbour-raid/demo.secret" --beacon "drand quicknet" >/dev/null
# shellcheck disable=SC2046
"$BIN" turn "$B" $(find "$ROOT/campaigns/harbour-raid/orders/turn-0001" -name '*.yaml' | sort) \
    --beacon "0a1b2c: the value" --beacon-round 42 >/dev/null
clone beacon "$B"
expect 0 python3 "$V" "$TMP/beacon"
has "$TMP/out" "turn 1: ok: key, digest, beacon (round 42: 0a1b2c: the value), seed, "
has "$TMP/out" "verdict: ok: 1 turn, "
clone beacon2 "$B"
sed 's/^beacon_value: .*/beacon_value: "0a1b2d: the value"/' "$B/$j1" >"$TMP/beacon2/$j1"
commit beacon2 turn-0001
expect 65 python3 "$V" "$TMP/beacon2"
has "$TMP/out" "verdict: FAILED: turn 1: beacon: $j1:"
# ... and with B_t recomputed for the new value, the seed no longer matches.
clone beacon3 "$B"
b=$(printf '%s' "0a1b2d: the value" | sha256sum | cut -c1-64)
sed -e 's/^beacon_value: .*/beacon_value: "0a1b2d: the value"/' -e "s/^beacon: .*/beacon: $b/" \
    "$B/$j1" >"$TMP/beacon3/$j1"
commit beacon3 turn-0001
expect 65 python3 "$V" "$TMP/beacon3"
has "$TMP/out" "verdict: FAILED: turn 1: seed: $j1:"

# An untagged commit on top of the last turn that edits what no turn verifies: refused, as
# `umpire verify` refuses it.
for f in campaign.yaml state.yaml "$(cd "$C" && ls reports/turn-0001/*.md | head -n 1)"; do
    clone top "$C"
    echo "# edited" >>"$TMP/top/$f"
    git -C "$TMP/top" -c user.name=mallory -c user.email=m@example.org commit -qam "tamper" >/dev/null
    expect 65 python3 "$V" "$TMP/top"
    has "$TMP/out" "verdict: FAILED: HEAD: $f differs from tag turn-$(printf %04d "$turns") (an untagged commit on top of the last turn)"
done
# git replace: the git command line would show the replacement, libgit2 the committed
# object; the clone is refused rather than read either way.
clone repl "$C"
sed 's/^ *value: .*/  value: 1/' "$C/$j1" >"$TMP/j1-replaced"
git -C "$TMP/repl" replace "$(git -C "$TMP/repl" rev-parse "turn-0001:$j1")" \
    "$(git -C "$TMP/repl" hash-object -w "$TMP/j1-replaced")"
expect 65 python3 "$V" "$TMP/repl"
has "$TMP/out" "verdict: FAILED: the clone has replace refs (refs/replace/"

# Usage and input errors.
expect 64 python3 "$V"
expect 66 python3 "$V" "$TMP/nonexistent"
mkdir "$TMP/empty" && git -C "$TMP/empty" init -q
expect 66 python3 "$V" "$TMP/empty"; has "$TMP/err" "no tag turn-0000"
expect 66 python3 "$V" --vectors "$TMP/nonexistent.json"
