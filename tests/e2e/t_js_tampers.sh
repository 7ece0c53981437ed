# tools/umpire-verify.mjs (the independent verifier in JavaScript, web/src/) audits a plain git
# clone of a played campaign and the fairness test vectors (--vectors), and names the first
# broken item of a clone tampered with (umpire verify refuses each too, both_fail): a die value, a committed order file, a revealed key, a missing tag, an export it
# cannot read, and a journal export changed after its tag (a campaign with entropy none);
# in closed turns (entropy beacon and players): receipts, the remembered head, a merge, a
# moved close tag, close files edited or forged (a round out before the close, a wrong
# round_at, other orders, another entropy commitment), a wrong beacon round and a nonce that
# does not match its commitment.
. "$ROOT/tests/e2e/lib.sh"
V="$JSV"
# every check below by one node process (jsv, and both_fail), but the command line's own:
# the shebang, usage and input errors
jsv_start
C="$TMP/c"
"$BIN" init --visibility open "$C" --scenario "$ROOT/campaigns/harbour-raid/scenario.yaml" \
    --secret-file "$ROOT/campaigns/harbour-raid/demo.secret" --entropy none >/dev/null
play harbour-raid "$C" 3  # the shipped orders follow the beacon demo's game, not this one
turns=$(git -C "$C" tag -l 'turn-*' | grep -vc '^turn-0000$')
[ "$turns" -ge 2 ] || die "harbour-raid played $turns turns (2 or more expected)"

# the tampered clones: tclone, tcommit, tamend and tforge (lib.sh)
# A die of turn 1 (the middle one, so the index is not trivially 0) and its journal line.
j1=journal/turn-0001.yaml
ndice=$(grep -c '^  value: ' "$C/$j1" || true)
[ "$ndice" -ge 1 ] || die "turn 1 of harbour-raid rolls no dice"
idx=$((ndice / 2))

# An untouched clone verifies, turn by turn.
tclone ok
expect 3 jsv "$TMP/ok"
t=1
while [ "$t" -le "$turns" ]; do
    has "$TMP/out" "turn $t: ok: key, digest, seed, "; t=$((t + 1))
done
has "$TMP/out" "turn 1: ok: key, digest, seed, $ndice dice"
has "$TMP/out" "verify: ok: campaign harbour-raid: $turns turns, "
has "$TMP/out" "reason: entropy-none: entropy none: the umpire knew every turn key before the orders arrived and could choose among outcomes"
# also when started directly (shebang), and on the campaign itself
expect 3 "$V" "$C"; has "$TMP/out" "verify: ok: campaign harbour-raid: $turns turns, "

# The test vectors.
expect 0 jsv --vectors "$ROOT"/tests/vectors/*.json
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
expect 65 jsv --vectors "$TMP/bad-vectors.json"
has "$TMP/out" "vector dice d"; has "$TMP/out" "j=3 value failed"
# drand's rule on the signature vector: a signature one digit off no longer gives the randomness
python3 - "$ROOT/tests/vectors/fairness.json" "$TMP/bad-sig.json" <<'EOF'
import json, sys
v = json.load(open(sys.argv[1]))
s = v["beacon_signatures"][0]
s["signature_hex"] = ("0" if s["signature_hex"][0] != "0" else "1") + s["signature_hex"][1:]
json.dump(v, open(sys.argv[2], "w"))
EOF
expect 65 jsv --vectors "$TMP/bad-sig.json"
has "$TMP/out" "vector beacon_signatures round 657413 randomness failed"

# A die value changed in the journal export, committed, tag moved.
tclone die
awk -v want="$idx" '
    /^- index: / { cur = $3 }
    /^  sides: / { sides = $2 }
    /^  value: / && cur == want { $0 = "  value: " ($2 % sides + 1) }
    { print }' "$C/$j1" >"$TMP/die/$j1"
[ "$(diff "$C/$j1" "$TMP/die/$j1" | grep -c '^[<>]')" -eq 2 ] || die "the die was not changed"
tcommit die turn-0001
both_fail "$TMP/die"
has "$TMP/js.out" "verify: FAILED: turn 1: die $idx differs from the seed: $j1 has d"

# The same change, tag left alone: main holds a commit that is no turn.
tclone head
cp "$TMP/die/$j1" "$TMP/head/$j1"
git -C "$TMP/head" -c user.name=m -c user.email=m@example.org commit -qam "edit" >/dev/null
both_fail "$TMP/head"
has "$TMP/js.out" "(\"edit\") is not a turn: there is no tag turn-$(printf %04d $((turns + 1)))"

# A committed order file changed (one byte more), tag moved.
tclone orders
of=$(cd "$TMP/orders" && find orders/turn-0001 -name '*.yaml' | sort | head -n 1)
printf '# edited later\n' >>"$TMP/orders/$of"
tcommit orders turn-0001
both_fail "$TMP/orders"
has "$TMP/js.out" "verify: FAILED: turn 1: order file $of differs from the one $j1 records"

# An order file added after the fact for a player who sent none is not in the digest.
tclone added
absent=$(awk '/^- player: / { p = $3 } /^  received: false/ { print p; exit }' "$C/$j1")
if [ -n "$absent" ]; then
    cp "$TMP/added/$of" "$TMP/added/orders/turn-0001/$absent.yaml"
    git -C "$TMP/added" add "orders/turn-0001/$absent.yaml"
    tcommit added turn-0001
    both_fail "$TMP/added"
    has "$TMP/js.out" "verify: FAILED: turn 1: orders/turn-0001/$absent.yaml: committed,"
    has "$TMP/js.out" "but the export says received: false"
fi

# Turn 2's key replaced by turn 1's (a key that does hash to the commitment, once too few).
tclone key
k1=$(sed -n 's/^key: //p' "$C/$j1")
sed "s/^key: .*/key: $k1/" "$C/journal/turn-0002.yaml" >"$TMP/key/journal/turn-0002.yaml"
tcommit key turn-0002
both_fail "$TMP/key"
has "$TMP/js.out" "verify: FAILED: turn 2: key: the key $k1 in journal/turn-0002.yaml does not chain to the commitment: SHA256 applied 2 times does not give"
# ... and by a made-up key.
tclone key2
k=$(printf 'forged' | sha256sum | cut -c1-64)
sed "s/^key: .*/key: $k/" "$C/$j1" >"$TMP/key2/$j1"
tcommit key2 turn-0001
both_fail "$TMP/key2"
has "$TMP/js.out" "verify: FAILED: turn 1: key: the key $k in $j1 does not chain to the commitment"

# A turn's tag deleted.
tclone gap
git -C "$TMP/gap" tag -d turn-0001 >/dev/null
both_fail "$TMP/gap"
has "$TMP/js.out" "verify: FAILED: turn 1: tag turn-0001 missing but turn-0002 exists"

# An export outside the canonical YAML subset (a flow mapping where a text is) is refused.
tclone yaml
sed 's/^summary: .*/summary: {a: b}/' "$C/$j1" >"$TMP/yaml/$j1"
tcommit yaml turn-0001
both_fail "$TMP/yaml"
has "$TMP/js.out" "verify: FAILED: turn 1: $j1: 'summary' must be a scalar"

# Closed turns, entropy beacon: Setup, close-1, turn-1, close-2, turn-2 and a pending
# close-3. Each close names the first round 600 s after it (drand quicknet's schedule); the
# turn runs once that round is out. The beacon is unsigned (no key in campaign.yaml), so the
# made-up values pass; t_beacon_bls checks signed rounds.
H="$ROOT/campaigns/harbour-raid"
B="$TMP/b"
"$BIN" init --visibility open "$B" --scenario "$H/scenario.yaml" --secret-file "$H/demo.secret" \
    --beacon unsigned-test-beacon --beacon-genesis 1692803367 --beacon-period 3 >/dev/null
for t in 1 2 3; do
    n=$(printf %04d "$t")
    SOURCE_DATE_EPOCH=$((1767225600 + t * 3600)) "$BIN" close "$B" "$H/orders/turn-$n"/*.yaml \
        --receipts "$TMP/receipts-$t" >/dev/null
    [ "$t" -eq 3 ] || SOURCE_DATE_EPOCH=$((1767225600 + t * 3600 + 700)) \
        "$BIN" turn "$B" --beacon "demo value $t" >/dev/null
done
r1=$(sed -n 's/^  round: //p' "$B/journal/turn-0001.close.yaml")
tclone beacon "$B"
expect 3 jsv "$TMP/beacon" --receipt "$TMP/receipts-1/attacker.yaml" \
    --receipt "$TMP/receipts-3/attacker.yaml"
has "$TMP/out" "entropy beacon"
has "$TMP/out" "turn 1: ok: close, key, digest, beacon round $r1, seed, "
has "$TMP/out" "turn 2: ok: close, key, digest, beacon round "
has "$TMP/out" "turn 3: ok: closed (close-0003), awaiting its randomness"
has "$TMP/out" "receipt $TMP/receipts-1/attacker.yaml: ok: attacker's orders for turn 1 are the ones closed in $(git -C "$B" rev-parse close-0001)"
has "$TMP/out" "verify: ok: campaign harbour-raid: 2 turns, "
# the head verified is remembered, as umpire verify remembers it
[ "$(git -C "$TMP/beacon" rev-parse refs/umpire/verified)" = "$(git -C "$B" rev-parse close-0003)" ] ||
    die "refs/umpire/verified is not main's tip"
expect 3 "$BIN" verify "$TMP/beacon" --receipt "$TMP/receipts-3/attacker.yaml"

# The umpire rewrites the history the clone verified (turn 3 closed again, other files):
# the remembered head is gone from main.
git -C "$TMP/beacon" reset -q --hard turn-0002
git -C "$TMP/beacon" tag -d close-0003 >/dev/null
both_fail "$TMP/beacon"
has "$TMP/js.out" "verify: FAILED: history: this clone last verified main at commit $(git -C "$B" rev-parse close-0003) (refs/umpire/verified), which main's history (now at $(git -C "$B" rev-parse turn-0002)) no longer contains"
expect 65 "$BIN" verify "$TMP/beacon"
has "$TMP/out" "verify: FAILED: history: this clone last verified main at commit $(git -C "$B" rev-parse close-0003) (refs/umpire/verified), which main's history (now at $(git -C "$B" rev-parse turn-0002)) no longer contains"

# main must be linear: Setup, close-1, turn-1, close-2, ... A merge is refused, and so is a
# close tag moved off its place.
tclone merge "$B"
git -C "$TMP/merge" checkout -q -b side turn-0001
echo "# side" >"$TMP/merge/side.txt"; git -C "$TMP/merge" add side.txt
git -C "$TMP/merge" commit -qm side
git -C "$TMP/merge" checkout -q main
git -C "$TMP/merge" merge -q --no-ff -m merge side
both_fail "$TMP/merge"
has "$TMP/js.out" "verify: FAILED: history: main's commit $(git -C "$TMP/merge" rev-parse main) (\"merge\") is a merge: the history must be linear"
tclone moved "$B"
git -C "$TMP/moved" tag -f close-0002 turn-0001 >/dev/null
both_fail "$TMP/moved"
has "$TMP/js.out" "verify: FAILED: turn 2: tag close-0002 is commit $(git -C "$TMP/moved" rev-parse turn-0001), but main's 3rd commit after Setup is"

c3=journal/turn-0003.close.yaml
# The close file edited (a line added) and the close commit made again.
tclone close "$B"
echo "# nothing to see here" >>"$TMP/close/$c3"
tamend close close-0003
both_fail "$TMP/close"
has "$TMP/js.out" "verify: FAILED: turn 3: $c3 at close-0003 is not in the form umpire close writes"
# A close file edited by a later turn's commit.
tclone close1 "$B"
git -C "$TMP/close1" reset -q --hard turn-0002; git -C "$TMP/close1" tag -d close-0003 >/dev/null
sed 's/^  sha256: .*/  sha256: 0000000000000000000000000000000000000000000000000000000000000001/' \
    "$B/journal/turn-0001.close.yaml" >"$TMP/close1/journal/turn-0001.close.yaml"
tamend close1 turn-0002
both_fail "$TMP/close1"
has "$TMP/js.out" "verify: FAILED: turn 2: the committer of turn-0002 is 'umpire-tests <tests@umpire.invalid> "
# ... naming a round already out at the close, round_at fixed up, the commit rebuilt.
tclone round "$B"
at=$(sed -n 's/^closed_at: //p' "$B/$c3")
r=$(( (at - 1692803367) / 3 + 1 - 5 )); ra=$((1692803367 + (r - 1) * 3))
sed -e "s/^  round: .*/  round: $r/" -e "s/^  round_at: .*/  round_at: $ra/" \
    -e "s/^  round_at_utc: .*/  round_at_utc: \"$(date -u -d "@$ra" +%Y-%m-%dT%H:%M:%SZ)\"/" \
    "$B/$c3" >"$TMP/early-close"
tforge round "$B" close-0003 "$TMP/early-close"
both_fail "$TMP/round"
has "$TMP/js.out" "verify: FAILED: turn 3: $c3: beacon round $r is out at $ra, not after the close ($at)"
expect 65 "$BIN" verify "$TMP/round"
has "$TMP/out" "verify: FAILED: turn 3: $c3: beacon round $r is out at $ra, not after the close ($at)"
# ... or a round_at that is not that round's.
tclone round3 "$B"
sed -e "s/^  round_at: .*/  round_at: $((ra + 1))/" \
    -e "s/^  round_at_utc: .*/  round_at_utc: \"$(date -u -d "@$((ra + 1))" +%Y-%m-%dT%H:%M:%SZ)\"/" \
    "$TMP/early-close" >"$TMP/odd-close"
tforge round3 "$B" close-0003 "$TMP/odd-close"
both_fail "$TMP/round3"
has "$TMP/js.out" "verify: FAILED: turn 3: $c3: beacon round $r is out at $ra (genesis 1692803367, period 3), not at $((ra + 1))"
expect 65 "$BIN" verify "$TMP/round3"
has "$TMP/out" "verify: FAILED: turn 3: $c3: beacon round $r is out at $ra (genesis 1692803367, period 3), not at $((ra + 1))"
# ... or a later round than the first one beacon_delay after the close (issue 34: a later
# round leaves the umpire time to see one outcome and close again).
tclone round4 "$B"
first=$(sed -n 's/^  round: //p' "$B/$c3"); late=$((first + 100)); la=$((1692803367 + (late - 1) * 3))
sed -e "s/^  round: .*/  round: $late/" -e "s/^  round_at: .*/  round_at: $la/" \
    -e "s/^  round_at_utc: .*/  round_at_utc: \"$(date -u -d "@$la" +%Y-%m-%dT%H:%M:%SZ)\"/" \
    "$B/$c3" >"$TMP/late-close"
tforge round4 "$B" close-0003 "$TMP/late-close"
both_fail "$TMP/round4"
has "$TMP/js.out" "verify: FAILED: turn 3: $c3: beacon round $late, but a close at $at names round $first, the first out 600 s after it"
has "$TMP/out" "verify: FAILED: turn 3: $c3: beacon round $late, but a close at $at names round $first, the first out 600 s after it"
# ... fixing other orders: the close rebuilds to another commit, and the receipt the player
# got at the first close names a commit the history no longer holds.
tclone reclose "$B"
sed "s/^  sha256: .*/  sha256: $(printf 'other orders' | sha256sum | cut -c1-64)/" \
    "$B/$c3" >"$TMP/reclose/$c3"
tamend reclose close-0003
both_fail "$TMP/reclose"
has "$TMP/js.out" "verify: FAILED: turn 3: close-0003 is commit $(git -C "$TMP/reclose" rev-parse close-0003), but the close rebuilds to "
tclone reclose2 "$B"
git -C "$TMP/reclose2" reset -q --hard turn-0002
git -C "$TMP/reclose2" tag -d close-0003 >/dev/null
cp "$H/orders/turn-0003/attacker.yaml" "$TMP/a3.yaml"; echo "# changed my mind" >>"$TMP/a3.yaml"
# the close made again by hand, as a cheating umpire would: same form and time, other file
# hash (D_t unchanged: the cheat is caught by the receipt, not by the close's own checks)
sed "s/^  sha256: .*/  sha256: $(sha256sum <"$TMP/a3.yaml" | cut -c1-64)/" "$B/$c3" >"$TMP/reclose2/$c3"
git -C "$TMP/reclose2" add "$c3"
git -C "$B" log -1 --format=%B close-0003 >"$TMP/msg"
GIT_AUTHOR_NAME=umpire GIT_AUTHOR_EMAIL=umpire@localhost GIT_AUTHOR_DATE="@$at +0000" \
    GIT_COMMITTER_NAME=umpire GIT_COMMITTER_EMAIL=umpire@localhost \
    GIT_COMMITTER_DATE="@$at +0000" git -C "$TMP/reclose2" commit -q -F "$TMP/msg"
git -C "$TMP/reclose2" tag close-0003
both_fail "$TMP/reclose2" --receipt "$TMP/receipts-3/attacker.yaml"
has "$TMP/js.out" "verify: FAILED: receipt $TMP/receipts-3/attacker.yaml: turn 3 was closed in commit $(git -C "$B" rev-parse close-0003), but the history's close-0003 is commit $(git -C "$TMP/reclose2" rev-parse close-0003): the history was rewritten"
expect 65 "$BIN" verify "$TMP/reclose2" --receipt "$TMP/receipts-3/attacker.yaml"
has "$TMP/out" "the history's close-0003 is commit $(git -C "$TMP/reclose2" rev-parse close-0003)"
# A receipt whose file hash is not the one closed.
x=$(printf x | sha256sum | cut -c1-64)
sed -e "s/^file_sha256: .*/file_sha256: $x/" -e "s/^commitment: .*/commitment: $x/" \
    "$TMP/receipts-1/attacker.yaml" >"$TMP/bad-receipt.yaml"
tclone beacon2 "$B"
both_fail "$TMP/beacon2" --receipt "$TMP/bad-receipt.yaml"
has "$TMP/js.out" "verify: FAILED: receipt $TMP/bad-receipt.yaml: attacker's file for turn 1 has commitment $x on the receipt, "
# The export's beacon round is not the round the close named (B_t left as it was).
tclone round2 "$B"
git -C "$TMP/round2" reset -q --hard turn-0002; git -C "$TMP/round2" tag -d close-0003 >/dev/null
sed "s/^beacon_round: .*/beacon_round: \"$((r1 + 1))\"/" "$B/journal/turn-0002.yaml" \
    >"$TMP/round2/journal/turn-0002.yaml"
tamend round2 turn-0002
both_fail "$TMP/round2"
has "$TMP/js.out" "verify: FAILED: turn 2: beacon: journal/turn-0002.yaml:"
has "$TMP/js.out" "but the close (tag close-0002) named round"

# Closed turns, entropy players: each order file commits to a nonce (umpire nonce); turn 1's
# nonce is revealed (umpire reveal), turn 2's is not, and its commitment stands in.
P="$TMP/p"
"$BIN" init --visibility open "$P" --scenario "$H/scenario.yaml" --secret-file "$H/demo.secret" \
    --entropy players >/dev/null
for t in 1 2; do
    n=$(printf %04d "$t")
    f=$(ls "$H/orders/turn-$n"/*.yaml); pl=$(basename "$f" .yaml)
    # a fixed nonce per turn (not `umpire nonce`'s random one): turn 1's dice, and so whether
    # the shipped turn-2 orders are still legal, must not change from run to run
    nh=$(printf "%064d" 0 | tr 0 "$t")
    printf 'nonce: %s\nentropy: %s\n' "$nh" "$(printf %s "$nh" | xxd -r -p | sha256sum | cut -c1-64)" >"$TMP/nonce-$t"
    cp "$f" "$TMP/$pl-$t.yaml"; grep '^entropy: ' "$TMP/nonce-$t" >>"$TMP/$pl-$t.yaml"
    SOURCE_DATE_EPOCH=$((1767225600 + t * 3600)) "$BIN" close "$P" "$TMP/$pl-$t.yaml" >/dev/null
    if [ "$t" -eq 1 ]; then
        mkdir -p "$TMP/reveal"
        printf 'campaign: harbour-raid\nturn: %s\nplayer: %s\n' "$t" "$pl" >"$TMP/reveal/$pl"
        grep '^nonce: ' "$TMP/nonce-$t" >>"$TMP/reveal/$pl"
        "$BIN" reveal "$P" "$TMP/reveal/$pl" >/dev/null
        "$BIN" turn "$P" >/dev/null
    else
        "$BIN" turn "$P" --allow-missing >/dev/null
    fi
done
tclone players "$P"
expect 3 jsv "$TMP/players"
has "$TMP/out" "turn 1: ok: close, key, digest, reveals (1 of 1 nonces), seed, "
has "$TMP/out" "turn 2: ok: close, key, digest, reveals (0 of 1 nonces; committed hash standing in for defender), seed, "
has "$TMP/out" "verify: ok: campaign harbour-raid: 2 turns, "
expect 3 "$BIN" verify "$TMP/players"
# A nonce claimed for the commitment that stood in: it does not hash to it.
tclone reveals "$P"
j2=journal/turn-0002.yaml
v=$(sed -n 's/^beacon_value: //p' "$P/$j2" | sed 's/ committed / nonce /')
sed -e "s/^beacon_value: .*/beacon_value: $v/" \
    -e "s/^beacon: .*/beacon: $(printf '%s' "$v" | sha256sum | cut -c1-64)/" "$P/$j2" >"$TMP/reveals/$j2"
tamend reveals turn-0002
both_fail "$TMP/reveals"
has "$TMP/js.out" "verify: FAILED: turn 2: reveals: the nonce of defender does not hash to the entropy its order file committed to"
# An entropy commitment in the close that is not the order file's: close-2 and turn 2 made
# again by hand, the close in exactly umpire's form (it rebuilds), the turn with its files.
E="$TMP/entropy"
tclone entropy "$P"
c2=journal/turn-0002.close.yaml
e=$(printf y | sha256sum | cut -c1-64)
sed "s/^  entropy: .*/  entropy: $e/" "$P/$c2" >"$TMP/forged-close"
git -C "$E" reset -q --hard turn-0001
cp "$TMP/forged-close" "$E/$c2"; git -C "$E" add "$c2"
git -C "$P" log -1 --format=%B close-0002 >"$TMP/msg"
at=$(sed -n 's/^closed_at: //p' "$P/$c2")
GIT_AUTHOR_NAME=umpire GIT_AUTHOR_EMAIL=umpire@localhost GIT_AUTHOR_DATE="@$at +0000" \
    GIT_COMMITTER_NAME=umpire GIT_COMMITTER_EMAIL=umpire@localhost \
    GIT_COMMITTER_DATE="@$at +0000" git -C "$E" commit -q -F "$TMP/msg"
git -C "$E" tag -f close-0002 >/dev/null
git -C "$E" checkout -q turn-0002 -- .
cp "$TMP/forged-close" "$E/$c2"; git -C "$E" add -A
git -C "$P" log -1 --format=%B turn-0002 >"$TMP/msg"
git -C "$E" commit -q -F "$TMP/msg"
git -C "$E" tag -f turn-0002 >/dev/null
expect 65 jsv "$E"
has "$TMP/out" "turn 1: ok: close, "
has "$TMP/out" "verify: FAILED: turn 2: orders/turn-0002/defender.yaml: entropy $(sed -n 's/^entropy: //p' "$TMP/nonce-2"), $c2 (tag close-0002) fixed $e"
expect 65 "$BIN" verify "$E"
has "$TMP/out" "entropy differs from the close's"

# An untagged commit on top of the last turn that edits what no turn verifies: refused, as
# `umpire verify` refuses it.
for f in campaign.yaml state.yaml "$(cd "$C" && ls reports/turn-0001/*.md | head -n 1)"; do
    tclone top "$C"
    echo "# edited" >>"$TMP/top/$f"
    git -C "$TMP/top" -c user.name=mallory -c user.email=m@example.org commit -qam "tamper" >/dev/null
    both_fail "$TMP/top"
    has "$TMP/js.out" "(\"tamper\") is not a turn: there is no tag turn-$(printf %04d $((turns + 1)))"
done
# git replace: the git command line would show the replacement, libgit2 the committed
# object; the clone is refused rather than read either way.
tclone repl "$C"
sed 's/^ *value: .*/  value: 1/' "$C/$j1" >"$TMP/j1-replaced"
git -C "$TMP/repl" replace "$(git -C "$TMP/repl" rev-parse "turn-0001:$j1")" \
    "$(git -C "$TMP/repl" hash-object -w "$TMP/j1-replaced")"
both_fail "$TMP/repl"
has "$TMP/js.out" "verify: FAILED: the clone has replace refs (refs/replace/"
has "$TMP/out" "verify: FAILED: the clone has replace refs (refs/replace/)"
# A grafts file, which git honours even then (libgit2 does not): refused too.
tclone graft "$C"
git -C "$TMP/graft" rev-parse turn-0001 >"$TMP/graft/.git/info/grafts"
both_fail "$TMP/graft"
has "$TMP/js.out" "verify: FAILED: the clone has a grafts file (.git/info/grafts): git would show other parents"
has "$TMP/out" "verify: FAILED: the clone has a grafts file (.git/info/grafts)"

# Usage and input errors.
expect 64 node "$V"
expect 66 node "$V" "$TMP/nonexistent"
mkdir "$TMP/empty" && git -C "$TMP/empty" init -q
expect 66 node "$V" "$TMP/empty"; has "$TMP/err" "no tag turn-0000"
expect 66 node "$V" --vectors "$TMP/nonexistent.json"
