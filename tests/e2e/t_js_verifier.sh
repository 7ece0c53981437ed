# The independent verifier in JavaScript (tools/umpire-verify.mjs, the modules of web/src/ that
# the page runs too) against `umpire verify`: on every shipped demo and on harbour-raid closed
# under entropy beacon and players both pass and count the same turns and dice (and, once
# umpire verify prints the verdict of docs/fairness.md, the same verdict, reasons and exit);
# on every tampered clone t_verify.sh and t_js_tampers.sh make, both fail (exit 65: both_fail); the
# verdict's reasons, receipts (bare and as saved mail, their arrival), the remembered head,
# --commitment/--setup, --trust-chain, --json, and usage and input errors.
. "$ROOT/tests/e2e/lib.sh"
command -v node >/dev/null 2>&1 || skip "no node (tools/install-deps test installs it)"
[ -f "$ROOT/web/node_modules/.package-lock.json" ] || skip "web/node_modules missing: make web"
JS="$ROOT/tools/umpire-verify.mjs"
H="$ROOT/campaigns/harbour-raid"

# agree DIR NAME: both verifiers pass a clone of DIR with the same turns and dice; where
# umpire verify prints a verdict, the same verdict, reasons and exit status.
agree() {
    rm -rf "$TMP/clone-$2"; git clone -q "$1" "$TMP/clone-$2"
    set +e; "$BIN" verify "$TMP/clone-$2" >"$TMP/c.out" 2>"$TMP/c.err"; c_rc=$?
    node "$JS" "$TMP/clone-$2" >"$TMP/js.out" 2>"$TMP/js.err"; js_rc=$?; set -e
    [ "$c_rc" -eq 0 ] || [ "$c_rc" -eq 3 ] || { cat "$TMP/c.out" "$TMP/c.err"; die "$2: umpire verify exit $c_rc"; }
    [ "$js_rc" -eq 0 ] || [ "$js_rc" -eq 3 ] || { cat "$TMP/js.out" "$TMP/js.err"; die "$2: umpire-verify.mjs exit $js_rc"; }
    [ ! -s "$TMP/js.err" ] || { cat "$TMP/js.err"; die "$2: umpire-verify.mjs wrote to stderr"; }
    c=$(sed -n 's/^verify: ok: campaign [^:]*: \([0-9]*\) turns\{0,1\}, \([0-9]*\) dice.*/\1 \2/p' "$TMP/c.out")
    j=$(sed -n 's/^verify: ok: campaign [^:]*: \([0-9]*\) turns\{0,1\}, \([0-9]*\) dice.*/\1 \2/p' "$TMP/js.out")
    [ -n "$c" ] && [ "$c" = "$j" ] || die "$2: umpire verify says '$c', umpire-verify.mjs says '$j' (turns dice)"
    if grep -q '^verdict: ' "$TMP/c.out"; then
        grep '^\(reason\|verdict\): ' "$TMP/c.out" >"$TMP/c.v"
        grep '^\(reason\|verdict\): ' "$TMP/js.out" >"$TMP/js.v"
        diff "$TMP/c.v" "$TMP/js.v" || die "$2: the verdicts differ"
        [ "$c_rc" -eq "$js_rc" ] || die "$2: exit $c_rc and $js_rc"
    fi
    echo "$2: both verifiers: $c (turns dice), verdict exit $js_rc"
}
# passes CMD...: CMD verifies (exit 0, or 3 once umpire verify prints the verdict).
passes() {
    set +e; "$@" >"$TMP/out" 2>"$TMP/err"; _rc=$?; set -e
    [ "$_rc" -eq 0 ] || [ "$_rc" -eq 3 ] || { cat "$TMP/out" "$TMP/err" >&2; die "'$*' exited $_rc (0 or 3 expected)"; }
}

# Every shipped demo, played as the demo plays it.
for scen in "$ROOT"/campaigns/*/scenario.yaml; do
    name=$(basename "$(dirname "$scen")")
    demo_played "$name" "$TMP/$name"
    agree "$TMP/$name" "$name"
done
# aspenbach-1809 plays on the demo beacon: every round's BLS signature is checked (noble).
node "$JS" "$TMP/clone-aspenbach-1809" >"$TMP/out" || true
has "$TMP/out" "BLS signature checked"
has "$TMP/out" "reason: secret-from-file: fair: false: the campaign secret came from a file, so whoever wrote it could compute every die in advance"
has "$TMP/out" "reason: demo-beacon: demo beacon: its secret key is published with umpire, so anyone could sign any round value"
has "$TMP/out" "reason: no-schedule: no schedule: the umpire chose when to close each turn, so he could close, see the outcome, and close again later"
has "$TMP/out" "reason: unwitnessed-close: closes without a witness: turns 1-9 (no receipt given, and no time-stamp token from an authority this verifier trusts)"
[ "$(grep '^verdict: ' "$TMP/out")" = "verdict: consistent, not proven fair" ] || die "aspenbach's verdict"
# the verdict line, then its reasons, last
[ "$(sed -n '/^verdict: /,$p' "$TMP/out" | sed 1d | grep -vc '^reason: ')" -eq 0 ] || die "lines after the verdict that are no reasons"
# a packed clone (as a git host gives it): its packs indexed in memory, each object resolved
# once (Repo.preloadPacks), the same lines as from its loose objects, nothing written to it
rm -rf "$TMP/packed"; git clone -q --no-hardlinks "$TMP/clone-aspenbach-1809" "$TMP/packed"
git -C "$TMP/packed" repack -adq && git -C "$TMP/packed" prune-packed
[ -z "$(find "$TMP/packed/.git/objects" -path '*/objects/[0-9a-f][0-9a-f]/*' -type f)" ] || die "the packed clone kept loose objects"
ls -lR "$TMP/packed/.git/objects" >"$TMP/packed.before"
node "$JS" "$TMP/packed" >"$TMP/packed.out" || true
grep -v '^verify: remembered' "$TMP/out" >"$TMP/loose.lines"; grep -v '^verify: remembered' "$TMP/packed.out" >"$TMP/packed.lines"
diff "$TMP/loose.lines" "$TMP/packed.lines" || die "a packed clone verified otherwise than its loose objects"
ls -lR "$TMP/packed/.git/objects" | diff "$TMP/packed.before" - || die "the verifier wrote into the packed clone's objects"
# --json: the same, as one object
expect 3 node "$JS" "$TMP/clone-aspenbach-1809" --json
node -e 'const o = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    if (o.verdict !== "consistent, not proven fair" || o.exit !== 3 || o.campaign !== "aspenbach-1809" || o.failure !== null
        || o.reasons.map((r) => r.code).join() !== "secret-from-file,demo-beacon,no-schedule,unwitnessed-close"
        || o.reasons[3].turns.join() !== "1,2,3,4,5,6,7,8,9" || "turns" in o.reasons[0]) process.exit(1)' "$TMP/out" ||
    { cat "$TMP/out"; die "--json"; }
# the announced commitment and Setup hash pin the Setup
A="$TMP/clone-aspenbach-1809"
cm=$(sed -n 's/^  commitment: //p' "$A/campaign.yaml")
st=$(git -C "$A" show turn-0000:campaign.yaml | sha256sum | cut -c1-64)
expect 3 node "$JS" "$A" --commitment "$cm" --setup "$st"
both_fail "$A" --commitment "$(printf x | sha256sum | cut -c1-64)"
has "$TMP/js.out" "verify: FAILED: setup: the commitment is $cm, not the "
both_fail "$A" --setup "$(printf x | sha256sum | cut -c1-64)"
has "$TMP/js.out" "verify: FAILED: setup: campaign.yaml hashes to $st, not the "
# --trust-chain: the demo chain with another key is refused
dk=$(sed -n 's/^  beacon_public_key: //p' "$A/campaign.yaml"); dc=$(sed -n 's/^  beacon_chain: //p' "$A/campaign.yaml")
expect 65 node "$JS" "$A" --trust-chain "$dc:$(printf '%s' "$dk" | tr 'b' 'c')"
has "$TMP/out" "but --trust-chain gives"
expect 64 node "$JS" "$A" --trust-chain "$dc"
# A round's signature swapped for another round's (a point of G1, of the wrong round), the
# value and B_t made to follow it, turn 5 amended and the last turn: the pairing check fails
# and the round is named, its turn not counted, whether the rounds' batch is checked on worker
# threads (UMPIRE_VERIFY_THREADS=3: two beside the main thread) or on the main thread alone,
# with the same lines.
tclone badround "$A"
git -C "$TMP/badround" reset -q --hard turn-0005
git -C "$TMP/badround" tag -l 'turn-*' 'close-*' | awk -F- '$2 + 0 > 5' | xargs git -C "$TMP/badround" tag -d >/dev/null
j5=journal/turn-0005.yaml
s2=$(sed -n 's/^beacon_signature: //p' "$A/journal/turn-0002.yaml")
r5=$(sed -n 's/^beacon_round: "\([0-9]*\)"$/\1/p' "$A/$j5")
v=$(printf %s "$s2" | xxd -r -p | sha256sum | cut -c1-64)
sed -e "s/^beacon_signature: .*/beacon_signature: $s2/" -e "s/^beacon_value: .*/beacon_value: $v/" \
    -e "s/^beacon: .*/beacon: $(printf %s "$v" | sha256sum | cut -c1-64)/" "$A/$j5" >"$TMP/badround/$j5"
[ "$(diff "$A/$j5" "$TMP/badround/$j5" | grep -c '^>')" -eq 3 ] || die "turn 5's round was not swapped"
tamend badround turn-0005
export UMPIRE_VERIFY_THREADS=3
both_fail "$TMP/badround"
unset UMPIRE_VERIFY_THREADS
has "$TMP/js.out" "verify: FAILED: turn 5: beacon: $j5: round $r5: signature $s2: the signature fails the pairing check for round $r5 under the chain's public key"
has "$TMP/js.out" "turn 4: ok: "
! grep -q '^turn 5: ok' "$TMP/js.out" || die "turn 5 counted"
expect 65 env UMPIRE_VERIFY_THREADS=1 node "$JS" "$TMP/badround"
cmp "$TMP/js.out" "$TMP/out" || die "the lines differ on one thread and on three"

# Entropy none, open, one step a turn (t_verify.sh's tampers).
C="$TMP/c"
new_campaign harbour-raid "$C" --entropy none --visibility open; play harbour-raid "$C" 3
agree "$C" none
has "$TMP/js.out" "reason: entropy-none: entropy none: the umpire knew every turn key before the orders arrived and could choose among outcomes"
tclone die
idx=$(( $(grep -c '^  value: ' "$TMP/die/journal/turn-0002.yaml") / 2 ))
awk -v k="$idx" '/^  value: / { if (n++ == k) { $0 = "  value: " ($2 % 6) + 1 } } { print }' \
    "$C/journal/turn-0002.yaml" > "$TMP/die/journal/turn-0002.yaml"
tcommit die turn-0002
both_fail "$TMP/die"
has "$TMP/js.out" "verify: FAILED: turn 2: die $idx differs from the seed: journal/turn-0002.yaml has d6 = "
tclone later
cp "$TMP/die/journal/turn-0002.yaml" "$TMP/later/journal/turn-0002.yaml"
git -C "$TMP/later" -c user.name=m -c user.email=m@example.org commit -qam later
both_fail "$TMP/later"
has "$TMP/js.out" "is not a turn: there is no tag turn-0004"
tclone orders
of=$(cd "$TMP/orders" && ls orders/turn-0003/*.yaml | head -n 1)
printf '# edited later\n' >> "$TMP/orders/$of"
tcommit orders turn-0003
both_fail "$TMP/orders"
has "$TMP/js.out" "verify: FAILED: turn 3: order file $of differs from the one journal/turn-0003.yaml records"
tclone added
absent=$(awk '/^- player: / { p = $3 } /^  received: false/ { print p; exit }' "$C/journal/turn-0001.yaml")
if [ -n "$absent" ]; then
    cp "$TMP/added/$(cd "$TMP/added" && ls orders/turn-0001/*.yaml | head -n 1)" "$TMP/added/orders/turn-0001/$absent.yaml"
    git -C "$TMP/added" add "orders/turn-0001/$absent.yaml"; tcommit added turn-0001
    both_fail "$TMP/added"
    has "$TMP/js.out" "orders/turn-0001/$absent.yaml: committed, but the export says received: false"
fi
tclone key
k1=$(sed -n 's/^key: //p' "$C/journal/turn-0001.yaml")
sed "s/^key: .*/key: $k1/" "$C/journal/turn-0002.yaml" > "$TMP/key/journal/turn-0002.yaml"
tcommit key turn-0002
both_fail "$TMP/key"
has "$TMP/js.out" "verify: FAILED: turn 2: key: the key $k1 in journal/turn-0002.yaml does not chain to the commitment"
tclone gap
git -C "$TMP/gap" tag -d turn-0001 >/dev/null
both_fail "$TMP/gap"
has "$TMP/js.out" "tag turn-0001 missing but turn-0002 exists"
for f in campaign.yaml state.yaml; do
    tclone top; echo "# edited" >>"$TMP/top/$f"
    git -C "$TMP/top" -c user.name=mallory -c user.email=m@example.org commit -qam tamper >/dev/null
    both_fail "$TMP/top"
done
tclone amend
git -C "$TMP/amend" checkout -q turn-0001
git -C "$TMP/amend" -c user.name=mallory -c user.email=mallory@example.org commit -q --amend --no-edit
git -C "$TMP/amend" tag -f turn-0001 >/dev/null; git -C "$TMP/amend" checkout -q main
both_fail "$TMP/amend"
has "$TMP/js.out" "verify: FAILED: turn 1: the committer of turn-0001 is 'umpire-tests <tests@umpire.invalid> "
# the whole history rebuilt on the amended commit: every file and trailer kept
tclone rebuilt
git -C "$TMP/rebuilt" checkout -q turn-0001
git -C "$TMP/rebuilt" -c user.name=mallory -c user.email=mallory@example.org commit -q --amend --no-edit
git -C "$TMP/rebuilt" tag -f turn-0001 >/dev/null
for t in 2 3; do
    git -C "$TMP/rebuilt" -c user.name=mallory -c user.email=mallory@example.org cherry-pick "$(git -C "$C" rev-parse "turn-000$t")" >/dev/null
    git -C "$TMP/rebuilt" tag -f "turn-000$t" >/dev/null
done
git -C "$TMP/rebuilt" branch -f main HEAD; git -C "$TMP/rebuilt" checkout -q main
both_fail "$TMP/rebuilt"
has "$TMP/js.out" "not umpire's (umpire <umpire@localhost>): the commit was rewritten"
# the last turn's commit amended with an extra file
tclone extra
echo "a note" > "$TMP/extra/notes.txt"; git -C "$TMP/extra" add notes.txt
git -C "$TMP/extra" -c user.name=mallory -c user.email=mallory@example.org commit -q --amend --no-edit
git -C "$TMP/extra" tag -f turn-0003 >/dev/null
both_fail "$TMP/extra"
# a clone that verified before, then main reset back: the remembered head (shared with umpire
# verify, refs/umpire/verified) is gone from main
tclone seen
expect 3 node "$JS" "$TMP/seen"
[ "$(git -C "$TMP/seen" rev-parse refs/umpire/verified)" = "$(git -C "$C" rev-parse main)" ] || die "refs/umpire/verified not written"
git -C "$TMP/seen" reset -q --hard HEAD~1; git -C "$TMP/seen" tag -d turn-0003 >/dev/null
both_fail "$TMP/seen"
has "$TMP/js.out" "verify: FAILED: history: this clone last verified main at commit $(git -C "$C" rev-parse main) (refs/umpire/verified)"
# a fresh clone of main moved back, tags ahead of it: main alone, with a note (both verifiers)
tclone moved; git -C "$TMP/moved" reset -q --hard HEAD~1
tclone moved2 "$TMP/moved"; git -C "$TMP/moved2" fetch -q --tags "$TMP/moved"
expect 3 node "$JS" "$TMP/moved2"
has "$TMP/out" "note: tags turn-0003 to turn-0003 are ahead of main, which ends at turn 2"
passes "$BIN" verify "$TMP/moved2"
# replace refs and a grafts file are refused (as umpire verify refuses them)
tclone repl
git -C "$TMP/repl" replace "$(git -C "$TMP/repl" rev-parse turn-0001:state.yaml)" "$(printf x | git -C "$TMP/repl" hash-object -w --stdin)"
both_fail "$TMP/repl"
has "$TMP/js.out" "verify: FAILED: the clone has replace refs (refs/replace/"
tclone graft; git -C "$TMP/graft" rev-parse turn-0001 >"$TMP/graft/.git/info/grafts"
both_fail "$TMP/graft"
has "$TMP/js.out" "verify: FAILED: the clone has a grafts file"

# Closed turns, an unsigned beacon: Setup, close-1, turn-1, close-2, turn-2, a pending close-3.
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
agree "$B" closed-unsigned
has "$TMP/js.out" "turn 3: ok: closed (close-0003), awaiting its randomness"
has "$TMP/js.out" "reason: unsigned-beacon: unsigned beacon unsigned-test-beacon: its round values carry no signature and could have been chosen after the close"
has "$TMP/js.out" "reason: unwitnessed-close: closes without a witness: turns 1-2 "
# receipts: the bare text is checked against the close but witnesses nothing (its arrival is
# unknown); the mail as saved, received between the close and its round, witnesses the close
R1="$TMP/receipts-1/attacker.yaml"
tclone rc "$B"
expect 3 node "$JS" "$TMP/rc" --receipt "$R1"
has "$TMP/out" "receipt $R1: ok: attacker's orders for turn 1 are the ones closed in $(git -C "$B" rev-parse close-0001)"
has "$TMP/out" "note: receipt $R1 is the bare text, not the saved mail: when it arrived is not checked"
has "$TMP/out" "reason: unwitnessed-close: closes without a witness: turns 1-2 "
# mail TURN PLAYER WHEN: the receipt as a saved mail, its topmost Received: header at WHEN
mail() {
    printf 'Received: from mx.example.org by mail.player.example (Postfix) with ESMTPS id 1;\n\t%s\nReceived: from umpire.example by mx.example.org; Thu, 01 Jan 2026 00:00:00 +0000\nFrom: umpire@umpire.example\nTo: %s@player.example\nSubject: turn %s closed\nMIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\nYour orders are closed.\n\n' \
        "$(date -u -R -d "@$3")" "$2" "$1"
    cat "$TMP/receipts-$1/$2.yaml"
}
# (turn 2 names only the defender: he alone sent orders, and the attacker was not due)
for t in 1 2 3; do
    # the due player's receipt (every player gets one of each close: the attacker is due on
    # turns 1 and 3, the defender on turn 2)
    pl=attacker; [ "$t" -ne 2 ] || pl=defender
    at=$(sed -n 's/^closed_at: //p' "$B/journal/turn-000$t.close.yaml")
    mail "$t" "$pl" "$((at + 60))" >"$TMP/r$t.eml"
done
expect 3 node "$JS" "$TMP/rc" --receipt "$TMP/r1.eml"
has "$TMP/out" "receipt $TMP/r1.eml: ok: attacker's orders for turn 1 are the ones closed in $(git -C "$B" rev-parse close-0001); received "
has "$TMP/out" "reason: unwitnessed-close: closes without a witness: turns 2 "
# every resolved turn witnessed (turn 3's close, pending, drew no die yet)
expect 3 node "$JS" "$TMP/rc" --receipt "$TMP/r1.eml" --receipt "$TMP/r2.eml"
if grep -q '^reason: unwitnessed-close' "$TMP/out"; then die "closes left unwitnessed"; fi
passes "$BIN" verify "$TMP/rc" --receipt "$TMP/r1.eml" --receipt "$TMP/r2.eml"
# --receipts-of: the player's receipt of every close on main (every player gets each close's
# receipt, due or not; an umpire from before that gave the attacker none for turn 2, whose
# only file was the defender's: his receipt of it made here from the defender's)
[ -f "$TMP/receipts-2/attacker.yaml" ] ||
    sed -e 's/^player: defender$/player: attacker/' -e 's/^file_sha256: .*/file_sha256: none/' \
        -e 's/^commitment: .*/commitment: none/' "$TMP/receipts-2/defender.yaml" >"$TMP/receipts-2/attacker.yaml"
at=$(sed -n 's/^closed_at: //p' "$B/journal/turn-0002.close.yaml")
mail 2 attacker "$((at + 60))" >"$TMP/r2a.eml"
expect 3 node "$JS" "$TMP/rc" --receipt "$TMP/r1.eml" --receipt "$TMP/r2a.eml" --receipt "$TMP/r3.eml" --receipts-of attacker
has "$TMP/out" "receipts of attacker: ok: a receipt for every close"
expect 65 node "$JS" "$TMP/rc" --receipt "$TMP/r1.eml" --receipt "$TMP/r3.eml" --receipts-of attacker
has "$TMP/out" "receipts of attacker: turn 2's close (commit $(git -C "$B" rev-parse close-0002)) has no receipt of his among those given"
# a mail received after the round was out: a backdated close
ra=$(sed -n 's/^  round_at: //p' "$B/journal/turn-0001.close.yaml")
mail 1 attacker "$((ra + 5))" >"$TMP/late.eml"
both_fail "$TMP/rc" --receipt "$TMP/late.eml"
has "$TMP/js.out" "(a backdated close)"
# ... or before the close it witnesses was made
mail 1 attacker "$((ra - 3600))" >"$TMP/early.eml"
expect 65 node "$JS" "$TMP/rc" --receipt "$TMP/early.eml"
has "$TMP/out" "before it: the close's time is not when it was made"
# a receipt whose file hash is not the one closed
x=$(printf x | sha256sum | cut -c1-64)
sed -e "s/^file_sha256: .*/file_sha256: $x/" -e "s/^commitment: .*/commitment: $x/" "$R1" >"$TMP/bad-receipt.yaml"
both_fail "$TMP/rc" --receipt "$TMP/bad-receipt.yaml"
has "$TMP/js.out" "attacker's file for turn 1 has commitment $x on the receipt"
# main moved back past turn 3's close: the receipt witnesses a close main does not hold
tclone short "$B"; git -C "$TMP/short" reset -q --hard turn-0002; git -C "$TMP/short" tag -d close-0003 >/dev/null
expect 3 node "$JS" "$TMP/short" --receipt "$TMP/r3.eml"
has "$TMP/out" "reason: history-lacks-close: receipts witness closes this clone's main does not hold: turns 3 (the last turns were dropped, or main was moved back)"
expect 66 node "$JS" "$TMP/short" --receipt "$TMP/no-such.eml"

# Closed-turn tampers (as t_js_tampers.sh's): a merge, a close tag moved, a close file edited,
# a round out before the close, a close rebuilt with other orders against a receipt, the
# export's round not the close's.
tclone merge "$B"
git -C "$TMP/merge" checkout -q -b side turn-0001
echo "# side" >"$TMP/merge/side.txt"; git -C "$TMP/merge" add side.txt; git -C "$TMP/merge" commit -qm side
git -C "$TMP/merge" checkout -q main; git -C "$TMP/merge" merge -q --no-ff -m merge side
both_fail "$TMP/merge"
has "$TMP/js.out" "(\"merge\") is a merge: the history must be linear"
tclone moved "$B"; git -C "$TMP/moved" tag -f close-0002 turn-0001 >/dev/null
both_fail "$TMP/moved"
c3=journal/turn-0003.close.yaml
tclone close "$B"; echo "# nothing to see here" >>"$TMP/close/$c3"; tamend close close-0003
both_fail "$TMP/close"
has "$TMP/js.out" "verify: FAILED: turn 3: $c3 at close-0003 is not in the form umpire close writes"
tclone round "$B"
at=$(sed -n 's/^closed_at: //p' "$B/$c3")
r=$(( (at - 1692803367) / 3 + 1 - 5 )); ra=$((1692803367 + (r - 1) * 3))
sed -e "s/^  round: .*/  round: $r/" -e "s/^  round_at: .*/  round_at: $ra/" \
    -e "s/^  round_at_utc: .*/  round_at_utc: \"$(date -u -d "@$ra" +%Y-%m-%dT%H:%M:%SZ)\"/" "$B/$c3" >"$TMP/early-close"
tforge round "$B" close-0003 "$TMP/early-close"
both_fail "$TMP/round"
has "$TMP/js.out" "verify: FAILED: turn 3: $c3: beacon round $r is out at $ra, not after the close ($at)"
tclone reclose "$B"
sed "s/^  sha256: .*/  sha256: $(printf 'other orders' | sha256sum | cut -c1-64)/" "$B/$c3" >"$TMP/reclose/$c3"
tamend reclose close-0003
both_fail "$TMP/reclose"
tclone reclose2 "$B"
git -C "$TMP/reclose2" reset -q --hard turn-0002; git -C "$TMP/reclose2" tag -d close-0003 >/dev/null
cp "$H/orders/turn-0003/attacker.yaml" "$TMP/a3.yaml"; echo "# changed my mind" >>"$TMP/a3.yaml"
sed "s/^  sha256: .*/  sha256: $(sha256sum <"$TMP/a3.yaml" | cut -c1-64)/" "$B/$c3" >"$TMP/reclose2/$c3"
git -C "$TMP/reclose2" add "$c3"
git -C "$B" log -1 --format=%B close-0003 >"$TMP/msg"
GIT_AUTHOR_NAME=umpire GIT_AUTHOR_EMAIL=umpire@localhost GIT_AUTHOR_DATE="@$at +0000" \
    GIT_COMMITTER_NAME=umpire GIT_COMMITTER_EMAIL=umpire@localhost \
    GIT_COMMITTER_DATE="@$at +0000" git -C "$TMP/reclose2" commit -q -F "$TMP/msg"
git -C "$TMP/reclose2" tag close-0003
both_fail "$TMP/reclose2" --receipt "$TMP/receipts-3/attacker.yaml"
has "$TMP/js.out" "but the history's close-0003 is commit $(git -C "$TMP/reclose2" rev-parse close-0003): the history was rewritten (a re-close)"
r1=$(sed -n 's/^  round: //p' "$B/journal/turn-0001.close.yaml")
tclone round2 "$B"
git -C "$TMP/round2" reset -q --hard turn-0002; git -C "$TMP/round2" tag -d close-0003 >/dev/null
sed "s/^beacon_round: .*/beacon_round: \"$((r1 + 1))\"/" "$B/journal/turn-0002.yaml" >"$TMP/round2/journal/turn-0002.yaml"
tamend round2 turn-0002
both_fail "$TMP/round2"
has "$TMP/js.out" "but the close (tag close-0002) named round"
tclone bv "$B"
git -C "$TMP/bv" reset -q --hard turn-0002; git -C "$TMP/bv" tag -d close-0003 >/dev/null
sed 's/^beacon_value: .*/beacon_value: randomness-9/' "$B/journal/turn-0002.yaml" >"$TMP/bv/journal/turn-0002.yaml"
tamend bv turn-0002
both_fail "$TMP/bv"
has "$TMP/js.out" "verify: FAILED: turn 2: beacon differs: SHA256 of the beacon value is $(printf randomness-9 | sha256sum | cut -c1-64), journal/turn-0002.yaml says "

# Closed turns, entropy players: turn 1's nonce revealed, turn 2's commitment standing in.
P="$TMP/p"
"$BIN" init --visibility open "$P" --scenario "$H/scenario.yaml" --secret-file "$H/demo.secret" --entropy players >/dev/null
for t in 1 2; do
    n=$(printf %04d "$t"); f=$(ls "$H/orders/turn-$n"/*.yaml); pl=$(basename "$f" .yaml)
    nh=$(printf "%064d" 0 | tr 0 "$t")
    cp "$f" "$TMP/$pl-$t.yaml"
    echo "entropy: $(printf %s "$nh" | xxd -r -p | sha256sum | cut -c1-64)" >>"$TMP/$pl-$t.yaml"
    SOURCE_DATE_EPOCH=$((1767225600 + t * 3600)) "$BIN" close "$P" "$TMP/$pl-$t.yaml" >/dev/null
    if [ "$t" -eq 1 ]; then
        printf 'campaign: harbour-raid\nturn: 1\nplayer: %s\nnonce: %s\n' "$pl" "$nh" >"$TMP/reveal"
        "$BIN" reveal "$P" "$TMP/reveal" >/dev/null; "$BIN" turn "$P" >/dev/null
    else
        "$BIN" turn "$P" --allow-missing >/dev/null
    fi
done
agree "$P" players
has "$TMP/js.out" "turn 1: ok: close, key, digest, reveals (1 of 1 nonces), seed"
has "$TMP/js.out" "reason: few-contributors: entropy players: fewer than two independent contributors in turns 1-2"
tclone reveals "$P"
j2=journal/turn-0002.yaml
v=$(sed -n 's/^beacon_value: //p' "$P/$j2" | sed 's/ committed / nonce /')
sed -e "s/^beacon_value: .*/beacon_value: $v/" -e "s/^beacon: .*/beacon: $(printf '%s' "$v" | sha256sum | cut -c1-64)/" "$P/$j2" >"$TMP/reveals/$j2"
tamend reveals turn-0002
both_fail "$TMP/reveals"
has "$TMP/js.out" "verify: FAILED: turn 2: reveals: the nonce of defender does not hash to the entropy its order file committed to"

# Sealed (visibility sealed): the salted hashes before the reveal; after it, every revealed
# file and salt opens its commitment; a revealed file edited fails.
S="$TMP/s"
new_campaign betio-seawall "$S" --visibility sealed; play betio-seawall "$S" 3
agree "$S" sealed
"$BIN" reveal "$S" >/dev/null
agree "$S" sealed-revealed
tclone rv "$S"
rf=$(cd "$TMP/rv" && ls reveal/turn-0002/orders/*.yaml | head -n 1)
echo "# edited after the reveal" >>"$TMP/rv/$rf"
tamend rv reveal
both_fail "$TMP/rv"
has "$TMP/js.out" "verify: FAILED: turn 2: reveal: "

# Usage and input errors.
expect 64 node "$JS"
expect 64 node "$JS" "$C" --bogus
expect 64 node "$JS" "$C" --commitment 12
expect 66 node "$JS" "$TMP/nonexistent"
mkdir "$TMP/empty" && git -C "$TMP/empty" init -q
expect 66 node "$JS" "$TMP/empty"; has "$TMP/err" "no tag turn-0000"
mkdir "$TMP/plain"
expect 66 node "$JS" "$TMP/plain"; has "$TMP/err" "not a git repository"
