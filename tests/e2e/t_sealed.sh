# Sealed turns (docs/fairness.md, "Sealed turns"): a sealed campaign commits no order file and
# no private state; an opponent's clone holds no byte of a side's standing orders or of its
# order files' comments (every object of the clone, packs included); each player's outbox
# holds his report, his view and his salt, and the salt opens the commitment the export shows;
# verify on the clone checks keys, closes, the salted D_t, seeds, dice, chain and commit
# contents, and says what it cannot check before the reveal.
. "$ROOT/tests/e2e/lib.sh"
HR="$ROOT/campaigns/harbour-raid"
C="$TMP/c"
at() { _t=$1; shift; env SOURCE_DATE_EPOCH="$_t" "$@"; }

# Sealed is the default; turns 1-4 closed, each resolved with a value of an unsigned beacon
# (the values once chosen by hand for harbour-raid's demo, under which its orders of turns 1-4
# play: the demo itself now takes the demo beacon's signed rounds, and this test is about
# sealing, not the beacon).
UNSIGNED="--beacon unsigned-demo-values-chosen-by-hand --beacon-genesis 1692803367 --beacon-period 3"
value() {
    case $1 in
    1) echo 68397e944df9d2230afa327b7a9b2b1a92e3cd7eaa3bc7d107705df5622570ef ;;
    2) echo c4dbede6776111a20565322ac91ffc09cc51b3a8c1ed4c54d5019a38e193810f ;;
    3) echo d6866f114b6084e1705e4b830eda1ad6afc24f13877b31fe66eecc60aec2f305 ;;
    4) echo 3bfd1474c87481b76e8c74dd7860898bcbe9d5d349c97d166bdedb2d76d2d97a ;;
    esac
}
# shellcheck disable=SC2086
expect 0 "$BIN" init "$C" --scenario "$HR/scenario.yaml" --secret-file "$HR/demo.secret" $UNSIGNED
has "$TMP/out" "visibility sealed: order files and private state stay in .umpire/"
grep -qx 'visibility: sealed' "$C/campaign.yaml" || die "campaign.yaml does not say visibility: sealed"
T=1767229200
for n in 1 2 3 4; do
    f=$(ls "$HR"/orders/turn-000$n/*.yaml)
    mkdir "$TMP/receipts-$n"
    at $T "$BIN" close "$C" $f --receipts "$TMP/receipts-$n" >/dev/null
    at $((T + 700)) "$BIN" turn "$C" --beacon "$(value "$n")" >/dev/null
    T=$((T + 3600))
done

# A sealed receipt carries its player's salt: he checks the salted hash against his own file
# at once, and verify --receipt accepts it.
R2="$TMP/receipts-2/defender.yaml"
salt=$(sed -n 's/^salt: //p' "$R2")
want=$(sed -n 's/^commitment: //p' "$R2")
[ "$(sed -n 's/^file_sha256: //p' "$R2")" = "$(sha256sum < "$HR/orders/turn-0002/defender.yaml" | cut -c1-64)" ] ||
    die "the receipt's file_sha256 is not the SHA-256 of his file"
got=$({ printf 'umpire/sealed/v1'; printf %s "$salt" | xxd -r -p; cat "$HR/orders/turn-0002/defender.yaml"; } |
    sha256sum | cut -c1-64)
[ -n "$salt" ] && [ "$got" = "$want" ] || die "the receipt's salt does not open its commitment"

# The commits hold the public files only.
git -C "$C" ls-tree -r --name-only turn-0004 > "$TMP/tree"
grep -q '^orders/' "$TMP/tree" && die "a sealed turn committed an order file"
grep -q '^reports/turn-0001/' "$TMP/tree" && die "a sealed turn committed a player's report"
has "$TMP/tree" "reports/turn-0004.md"
has "$TMP/tree" "reports/turn-0004.svg"   # the public map beside it (docs/formats.md "Maps")
grep -q '^reports/turn-0004/' "$TMP/tree" && die "a sealed turn committed a player's map"
git -C "$C" show turn-0004:state.yaml > "$TMP/public-state"
grep -q 'standing' "$TMP/public-state" && die "the public state.yaml holds standing orders"

# The opponent's clone: every object, packs included (git gc packs them), searched for the
# comments of every order file and for each side's standing-order block.
git clone -q "$C" "$TMP/clone"
git -C "$TMP/clone" gc -q
ls "$TMP/clone/.git/objects/pack/"*.pack >/dev/null || die "the clone has no pack"
git -C "$TMP/clone" cat-file --batch-all-objects --batch > "$TMP/objects"
for n in 1 2 3 4; do
    f=$(ls "$HR"/orders/turn-000$n/*.yaml)
    sed -n 's/^ *# *//p' "$f" | awk 'length($0) >= 12' > "$TMP/comments"
    [ -s "$TMP/comments" ] || die "no comments in $f to look for"
    while IFS= read -r line; do
        if grep -qF -- "$line" "$TMP/objects"; then die "the clone holds a comment of $f: $line"; fi
    done < "$TMP/comments"
    sed -n '/^standing:/,$p' "$f" | sed -n 's/^  *//p' | grep ':.*\[' > "$TMP/standing" || true
    while IFS= read -r line; do
        if grep -qF -- "$line" "$TMP/objects"; then die "the clone holds a standing order of $f: $line"; fi
    done < "$TMP/standing"
done
grep -qaF "changes standing orders" "$TMP/objects" &&
    die "the clone says which standing orders a side changed"
for key in standing morale-removal fall-back officer-square; do
    grep -qaE -- "(^| )$key:" "$TMP/objects" && die "the clone holds '$key:'"
done

# Each player's outbox: his report, his view (his own standing orders, not the other's) and
# his salt, which opens the commitment the public export shows for his file.
O="$C/.umpire/outbox"
for f in report.md state.yaml salt.yaml map.svg; do
    [ -s "$O/defender/turn-0002/$f" ] || die "no $f in the defender's outbox of turn 2"
done
# His map holds no standing order, his or the other's (every word of the block's keys).
for key in standing morale-removal fall-back officer-square response withdraw; do
    for p in attacker defender; do
        if grep -qF -- "$key" "$O/$p/turn-0002/map.svg"; then die "$p's map names '$key'"; fi
    done
done
has "$O/defender/turn-0002/state.yaml" "morale-removal:"
sed -n '/^  standing:/,$p' "$O/defender/turn-0002/state.yaml" | grep -q '^    attacker:' &&
    die "the defender's view holds the attacker's standing orders"
has "$O/defender/turn-0002/report.md" "report for defender"
salt=$(sed -n 's/^  salt: //p' "$O/defender/turn-0002/salt.yaml")
want=$(sed -n 's/^  sha256: //p' "$O/defender/turn-0002/salt.yaml")
got=$({ printf 'umpire/sealed/v1'; printf %s "$salt" | xxd -r -p; cat "$HR/orders/turn-0002/defender.yaml"; } |
    sha256sum | cut -c1-64)
[ "$got" = "$want" ] || die "the defender's salt does not open his commitment ($got, $want)"
git -C "$C" show turn-0002:journal/turn-0002.yaml | grep -qF "sha256: $want" ||
    die "the export of turn 2 does not show the defender's salted hash $want"

# verify on the clone before the reveal: everything but the re-resolution, said plainly.
expect 3 "$BIN" verify "$TMP/clone"
has "$TMP/out" "turn 2: ok: close, key, salted digest, beacon round, seed,"
has "$TMP/out" "sealed: not re-resolved until the reveal"
has "$TMP/out" "not checked yet: that each turn's withheld orders re-resolve to its state and reports (after 'umpire reveal')"
expect 3 "$BIN" verify "$C" --receipt "$R2"
has "$TMP/out" "receipt $R2: ok: defender's orders for turn 2 are the ones closed in"
# Each player's view against the clone (verify --view): his salted hash is the export's, his
# own file opens it; another file does not; a turn he sent nothing is checked as such.
expect 3 "$BIN" verify "$TMP/clone" --view "$O/defender/turn-0002"
has "$TMP/out" "view $O/defender/turn-0002: ok: defender's orders for turn 2 are the ones committed (salted hash in journal/turn-0002.yaml), his file opens it; his report and view of the state open the commitments there"
expect 3 "$BIN" verify "$TMP/clone" --view "$O/attacker/turn-0002"
has "$TMP/out" "attacker's orders for turn 2 are the ones committed (none sent in journal/turn-0002.yaml)"
cp -r "$O/defender/turn-0002" "$TMP/view2"
sed -i '1i # a note added later' "$TMP/view2/orders.yaml"
both_fail "$TMP/clone" --view "$TMP/view2"
has "$TMP/out" "the salt does not open the commitment with orders.yaml"
# His report and his view of the state are committed too (salted, in the export's views):
# a report or view edited, or one the umpire sent him other than the one committed, fails.
git -C "$C" show turn-0002:journal/turn-0002.yaml > "$TMP/export2"
has "$TMP/export2" "views:"
rs=$(sed -n 's/^  report_salt: //p' "$O/defender/turn-0002/salt.yaml")
rh=$(sed -n 's/^  report_sha256: //p' "$O/defender/turn-0002/salt.yaml")
got=$({ printf 'umpire/sealed/v1'; printf %s "$rs" | xxd -r -p; cat "$O/defender/turn-0002/report.md"; } |
    sha256sum | cut -c1-64)
[ -n "$rs" ] && [ "$got" = "$rh" ] || die "the defender's report salt does not open his report's commitment"
grep -qx "  report_sha256: $rh" "$TMP/export2" || die "the export does not hold the defender's report commitment"
cp -r "$O/defender/turn-0002" "$TMP/view3"
echo "You won." >> "$TMP/view3/report.md"
both_fail "$TMP/clone" --view "$TMP/view3"
has "$TMP/out" "view $TMP/view3: $TMP/view3/report.md does not open the commitment journal/turn-0002.yaml holds for defender's report of turn 2"
cp "$O/defender/turn-0002/report.md" "$TMP/view3/"
sed -i 's/^\( *\)morale-removal:/\1fall-back: []\n\1morale-removal:/' "$TMP/view3/state.yaml"
both_fail "$TMP/clone" --view "$TMP/view3"
has "$TMP/out" "does not open the commitment journal/turn-0002.yaml holds for defender's state of turn 2"
cp "$O/attacker/turn-0002/report.md" "$TMP/view3/"
cp "$O/defender/turn-0002/state.yaml" "$TMP/view3/"
both_fail "$TMP/clone" --view "$TMP/view3"
has "$TMP/out" "report.md does not open the commitment"

# The independent verifier computes the same D_t from the salted hashes.
expect 3 node "$JSV" "$TMP/clone"
grep -q '^verify: ok: campaign [^:]*: 4 turns, ' "$TMP/out" || { cat "$TMP/out"; die "umpire-verify.mjs: not 4 turns"; }
# Every view of every turn verifies, in both verifiers.
views=$(for d in "$O"/*/turn-*; do printf -- '--view %s ' "$d"; done)
# shellcheck disable=SC2086
expect 3 "$BIN" verify "$TMP/clone" $views
[ "$(grep -c '^view .*: ok: ' "$TMP/out")" -eq 8 ] || die "not 8 views (2 players, 4 turns) verified"
# shellcheck disable=SC2086
expect 3 node "$JSV" "$TMP/clone" $views
[ "$(grep -c '^view .*: ok: ' "$TMP/out")" -eq 8 ] || die "tools/umpire-verify.mjs: not 8 views verified"
# ... and checks a player's outbox the same way, his report and view included.
expect 3 node "$JSV" "$TMP/clone" --view "$O/defender/turn-0002" --view "$O/attacker/turn-0002"
has "$TMP/out" "view $O/defender/turn-0002: ok: defender's orders for turn 2 are the ones committed (salted hash in journal/turn-0002.yaml), his file opens it; his report and view of the state open the commitments there"
has "$TMP/out" "view $O/attacker/turn-0002: ok: attacker's orders for turn 2 are the ones committed (none sent in journal/turn-0002.yaml); his report and view"
expect 65 node "$JSV" "$TMP/clone" --view "$TMP/view3"
has "$TMP/out" "report.md does not open the commitment journal/turn-0002.yaml holds for defender's report of turn 2"
expect 65 node "$JSV" "$TMP/clone" --view "$TMP/view2"
has "$TMP/out" "the salt does not open the commitment with orders.yaml"
# Under the names a report mail attaches them (per turn), several turns side by side in one
# folder verify turn by turn in both verifiers; a salt saved under another turn's name fails.
mkdir "$TMP/side" "$TMP/side2"
for n in 2 4; do
    for f in report.md:report-000$n.md state.yaml:view-000$n.yaml salt.yaml:salt-000$n.yaml \
        orders.yaml:orders-000$n.yaml; do
        cp "$O/defender/turn-000$n/${f%%:*}" "$TMP/side/${f#*:}"
        [ $n = 4 ] && cp "$O/defender/turn-0002/${f%%:*}" "$TMP/side2/${f#*:}"
    done
done
for v in "$BIN verify" "node $JSV"; do
    expect 3 $v "$TMP/clone" --view "$TMP/side"
    has "$TMP/out" "view $TMP/side: ok: defender's orders for turn 2 are the ones committed (salted hash in journal/turn-0002.yaml), his file opens it"
    has "$TMP/out" "view $TMP/side: ok: defender's orders for turn 4 are the ones committed (salted hash in journal/turn-0004.yaml), his file opens it"
done
both_fail "$TMP/clone" --view "$TMP/side2"
has "$TMP/out" "view $TMP/side2: $TMP/side2/salt-0004.yaml is for turn 2, not 4"
has "$TMP/js.out" "view $TMP/side2: $TMP/side2/salt-0004.yaml is for turn 2, not 4"

# A sealed commit that also holds an order file is caught.
git clone -q "$C" "$TMP/leaky"
git -C "$TMP/leaky" checkout -q turn-0004
mkdir -p "$TMP/leaky/orders/turn-0004"
cp "$HR/orders/turn-0004/defender.yaml" "$TMP/leaky/orders/turn-0004/"
git -C "$TMP/leaky" add orders
git -C "$TMP/leaky" commit -q --amend -C HEAD
git -C "$TMP/leaky" tag -f turn-0004 >/dev/null
git -C "$TMP/leaky" branch -f main HEAD
git -C "$TMP/leaky" checkout -q main
both_fail "$TMP/leaky"
has "$TMP/out" "a sealed turn's files rebuild to"

# audit explains a die of a sealed turn from the clone: D_t from the salted hashes; what the
# die decided is withheld until the reveal, which is not a difference.
expect 0 "$BIN" audit "$TMP/clone" 2:1
has "$TMP/out" "defender  sha256 $want  (sealed: the salted hash): ok"
has "$TMP/out" "decided  withheld until the reveal"
has "$TMP/out" "verdict: ok"

# Before the reveal the umpire replays his own copy mid-game (he holds every order in
# .umpire/sealed/); a clone cannot, and replay --help says so; a kept file changed is named.
expect 0 "$BIN" replay "$C"
has "$TMP/out" "replay: 4 turns identical"
expect 65 "$BIN" replay "$TMP/clone"
has "$TMP/err" "withheld until the reveal"
expect 0 "$BIN" replay --help
has "$TMP/out" "a clone, sealed     nothing until the umpire's 'umpire reveal DIR'"
has "$TMP/out" "the umpire's copy   every turn, at any time"
kept="$C/.umpire/sealed/turn-0001/orders/attacker.yaml"
cp "$kept" "$TMP/kept.bak"
sed 's/move: B2/move: B3/' "$TMP/kept.bak" > "$kept"
expect 65 "$BIN" replay "$C"
has "$TMP/err" "replay: turn 1: order file $kept differs from the journal's copy"
cp "$TMP/kept.bak" "$kept"

# The reveal: one commit, tag reveal, with every withheld file, whole state and salt; then
# verify re-runs every turn from a clone, as for an open campaign.
expect 0 at $T "$BIN" reveal "$C"
has "$TMP/out" "Revealed turns 0 to 4 of 'harbour-raid'"
expect 0 at $T "$BIN" reveal "$C"
has "$TMP/out" "was revealed already"
# A crash between moving main and tagging: the next run tags the reveal that is there.
rid=$(git -C "$C" rev-parse reveal)
git -C "$C" tag -d reveal >/dev/null
expect 0 at $((T + 99)) "$BIN" reveal "$C"
[ "$(git -C "$C" rev-parse reveal)" = "$rid" ] || die "the reveal was made again, not tagged"
git -C "$C" ls-tree -r --name-only reveal > "$TMP/revealed"
for p in reveal/turn-0000/state.yaml reveal/turn-0002/salts.yaml reveal/turn-0002/orders/defender.yaml \
    reveal/turn-0004/state.yaml; do
    has "$TMP/revealed" "$p"
done
git -C "$C" show reveal:reveal/turn-0002/orders/defender.yaml | cmp - "$HR/orders/turn-0002/defender.yaml" ||
    die "the revealed order file is not the one sent"
expect 65 "$BIN" close "$C" "$HR/orders/turn-0005/attacker.yaml"
has "$TMP/err" "was revealed (tag reveal): the game is over"
git -C "$TMP/clone" fetch -q --tags origin
git -C "$TMP/clone" merge -q --ff-only origin/main
expect 3 "$BIN" verify "$TMP/clone"
sed 's/[0-9]* dice/N dice/; s/[0-9]* turns,/N turns,/' "$TMP/out" | grep -v '^reveal: ok' > "$TMP/sealed-verify"
has "$TMP/out" "reveal: ok: 13 files, every one used by the turns re-resolved"
has "$TMP/out" "turn 4: ok: close, key, digest, beacon round, seed,"
has "$TMP/out" "every turn re-resolves to its commit"
expect 3 "$BIN" verify "$C"
has "$TMP/out" "and the SQLite journal matches git"
expect 0 "$BIN" replay "$C"
has "$TMP/out" "replay: 4 turns identical"
# After the reveal a player's view of the state is checked too.
expect 3 "$BIN" verify "$TMP/clone" --view "$O/defender/turn-0004"
has "$TMP/out" "his file opens it; his report and view of the state open the commitments there, and his view is the revealed state's"
cp -r "$O/defender/turn-0004" "$TMP/view4"
sed -i "s/withdraw: true/withdraw: false/" "$TMP/view4/state.yaml"
both_fail "$TMP/clone" --view "$TMP/view4"
has "$TMP/out" "view4/state.yaml does not open the commitment journal/turn-0004.yaml holds for defender's state of turn 4"

# The same inputs in an open campaign: verify says the same, turn by turn (the dice differ:
# D_t takes the salted hashes when sealed).
O="$TMP/open"
# shellcheck disable=SC2086
expect 0 "$BIN" init "$O" --visibility open --scenario "$HR/scenario.yaml" --secret-file "$HR/demo.secret" $UNSIGNED
T=1767229200
for n in 1 2 3 4; do
    f=$(ls "$HR"/orders/turn-000$n/*.yaml)
    at $T "$BIN" close "$O" $f >/dev/null
    at $((T + 700)) "$BIN" turn "$O" --beacon "$(value "$n")" >/dev/null
    T=$((T + 3600))
done
git clone -q "$O" "$TMP/open-clone"
expect 3 "$BIN" verify "$TMP/open-clone"
sed 's/[0-9]* dice/N dice/; s/[0-9]* turns,/N turns,/' "$TMP/out" > "$TMP/open-verify"
diff "$TMP/open-verify" "$TMP/sealed-verify" || die "verify after the reveal differs from an open campaign's"
expect 3 node "$JSV" "$TMP/clone"
grep -q '^verify: ok: campaign [^:]*: 4 turns, ' "$TMP/out" || { cat "$TMP/out"; die "umpire-verify.mjs: not 4 turns"; }

# Tampering with the reveal, each in a fresh clone whose reveal commit is rebuilt: an order
# file (a comment added), a salt, a whole state.
# Both verifiers refuse each (both_fail), but for what only re-running the rules can see (a
# view or a whole state re-rendered: `rules`), which tools/umpire-verify.mjs does not do.
tamper() { # tamper NAME PATH SED-SCRIPT [rules]: the reveal with PATH edited, as main and tag reveal
    git clone -q "$C" "$TMP/$1"
    git -C "$TMP/$1" checkout -q main
    sed -i "$3" "$TMP/$1/$2"
    git -C "$TMP/$1" commit -qa --amend -C HEAD
    git -C "$TMP/$1" tag -f reveal >/dev/null
    if [ "${4:-}" = rules ]; then expect 65 "$BIN" verify "$TMP/$1"; else both_fail "$TMP/$1"; fi
}
tamper t-orders reveal/turn-0002/orders/defender.yaml '1i # an afterthought'
has "$TMP/out" "turn 2: order file reveal/turn-0002/orders/defender.yaml differs from the one journal/turn-0002.yaml records"
tamper t-salt reveal/turn-0003/salts.yaml 's/salt: ./salt: 0/'
has "$TMP/out" "turn 3: order file reveal/turn-0003/orders/attacker.yaml differs"
expect 65 node "$JSV" "$TMP/t-salt"
has "$TMP/out" "reveal: attacker's revealed file and salt do not open the commitment"
tamper t-view reveal/turn-0003/salts.yaml '/state_salt/s/: ./: 0/' rules
has "$TMP/out" "turn 3: attacker's view of the state, re-rendered and salted with the revealed salt, hashes to"
# the first report_sha256's first digit changed (to 1 if it is 0, else to 0)
tamper t-viewhash reveal/turn-0003/salts.yaml '0,/report_sha256: ./{s/report_sha256: 0/report_sha256: 1/;t;s/report_sha256: ./report_sha256: 0/}'
has "$TMP/out" "turn 3: the reveal's salts.yaml lists other report and view commitments than the export's views"
expect 65 node "$JSV" "$TMP/t-viewhash"
has "$TMP/out" "turn 3: reveal: reveal/turn-0003/salts.yaml lists other report and view commitments than journal/turn-0003.yaml's views"
tamper t-state reveal/turn-0001/state.yaml 's/withdraw: false/withdraw: true/' rules
has "$TMP/out" "turn 1: the whole state the reveal publishes differs from the one the turn re-resolves to"

# NHiS: opportunity-fire orders are private the same way (entropy none: one step a turn).
BS="$ROOT/campaigns/betio-seawall"
N="$TMP/betio"
expect 0 "$BIN" init "$N" --entropy none --scenario "$BS/scenario.yaml" --secret-file "$BS/demo.secret"
for n in 1 2; do
    expect 0 "$BIN" turn "$N" "$BS"/orders/turn-000$n/*.yaml --allow-missing
done
git clone -q "$N" "$TMP/betio-clone"
git -C "$TMP/betio-clone" cat-file --batch-all-objects --batch > "$TMP/betio-objects"
grep -qaE '(^| )opportunity:' "$TMP/betio-objects" && die "the NHiS clone holds opportunity-fire orders"
for f in "$BS"/orders/turn-000[12]/*.yaml; do
    sed -n 's/^ *# *//p' "$f" | awk 'length($0) >= 12' | while IFS= read -r line; do
        if grep -qaF -- "$line" "$TMP/betio-objects"; then die "the NHiS clone holds a comment of $f: $line"; fi
    done
done
grep -q 'opportunity:' "$N/.umpire/outbox/usmc/turn-0001/state.yaml" ||
    die "the usmc's view lacks his opportunity-fire orders"
expect 3 "$BIN" verify "$TMP/betio-clone"
has "$TMP/out" "not checked yet"
views=$(for d in "$N"/.umpire/outbox/*/turn-*; do printf -- '--view %s ' "$d"; done)
# shellcheck disable=SC2086
expect 3 "$BIN" verify "$TMP/betio-clone" $views
[ "$(grep -c '^view .*: ok: ' "$TMP/out")" -eq 4 ] || die "not 4 NHiS views verified"
expect 0 at $T "$BIN" reveal "$N"
git -C "$TMP/betio-clone" pull -q --tags
expect 3 "$BIN" verify "$TMP/betio-clone"
has "$TMP/out" "verify: ok: campaign betio-seawall: 2 turns"
