# t_timelocked.sh — time-locked orders (issue 36; docs/fairness.md, "Time-locked orders"): a
# Land Raid campaign with `orders: timelocked` on the demo beacon's signed rounds. Players seal
# with `umpire seal` (drand's tlock-js, through umpire-tlock); the umpire closes with the
# ciphertexts alone, and before each round a grep of every file of the campaign and its
# .umpire/ finds no word of the orders; the turn resolves after the round, opening each file
# with the round's signature; a file that opens to no order file of its player and turn
# (garbage sealed with tlock-js itself, or last turn's orders) is journaled as no orders with
# the reason; a file locked to another round, or not time-locked, is refused at once (65);
# both verifiers pass. A sealed campaign keeps the umpire's age identity in .umpire/ (0600,
# never committed) and opens both layers. Without node: 69, naming the package.
. "$ROOT/tests/e2e/lib.sh"
command -v node >/dev/null || skip "node missing (tools/install-deps test)"
TLOCK=$ROOT/build/web/umpire-tlock.mjs
[ -f "$TLOCK" ] || die "no $TLOCK (make web builds it)"
HR=$ROOT/campaigns/harbour-raid
D1=1767355200                     # turn 1's deadline, 2026-01-02T12:00:00Z
at() { _t=$1; shift; env SOURCE_DATE_EPOCH="$_t" "$@"; }
deadline() { echo $((D1 + ($1 - 1) * 86400)); }
# R(n): the first demo-beacon round out at deadline + grace 0 + 300 + beacon_delay 600
round() { echo $((($(deadline "$1") + 900 - 1767225600 + 2) / 3 + 1)); }
# resolve C N: turn N of campaign C with the demo beacon's signed round R(N), after it is out
resolve() {
    _r=$(round "$2"); _b=$("$ROOT/tools/demo-beacon" "$_r")
    expect 0 at $(($(deadline "$2") + 960)) "$BIN" turn "$1" \
        --beacon "$(echo "$_b" | sed -n 1p)" --beacon-signature "$(echo "$_b" | sed -n 2p)"
}
# secret C WORD: no file under campaign C (its work tree, .git and .umpire/) holds WORD
secret() {
    ! grep -rqa -- "$2" "$1" || { grep -rla -- "$2" "$1" >&2; die "'$2' is readable in $1"; }
}

cp "$HR/scenario.yaml" scenario.yaml
cat >> scenario.yaml <<'YAML'
schedule:
  first_deadline: 2026-01-02T12:00:00Z
  every: 1d
  missing: no-orders
YAML
# init refuses time-locked orders without a schedule or without a signed beacon (64)
expect 64 "$BIN" init x --scenario "$HR/scenario.yaml" --demo-beacon --orders timelocked
has "$TMP/err" "--orders timelocked needs a schedule"
expect 64 "$BIN" init x --scenario scenario.yaml --entropy players --orders timelocked
has "$TMP/err" "needs a signed beacon"
expect 64 "$BIN" init x --scenario scenario.yaml --orders sometimes
[ ! -e x ] || die "a refused init left x"

expect 0 "$BIN" init c --scenario scenario.yaml --demo-beacon --visibility open \
    --orders timelocked
has "$TMP/out" "orders: time-locked to round $(round 1) for turn 1"
grep -qx 'orders: timelocked' c/campaign.yaml || die "campaign.yaml has no orders: timelocked"
git clone -q c clone
expect 0 "$BIN" status c
has "$TMP/out" "orders: time-locked to round $(round 1) (out at 2026-01-02T12:15:00Z)"
grep -q "orders: time-locked to round $(round 1)" c/reports/turn-0000/attacker.md ||
    die "the setup's report does not name turn 1's round"

# turn 1: the attacker seals his orders (a word nobody else wrote: quokka-sextant)
sed 's/^# Turn 1, the attacker/# quokka-sextant: turn 1, the attacker/' \
    "$HR/orders/turn-0001/attacker.yaml" > attacker.yaml
# ... as the README's "Sealing orders nobody can read before the close" shows it (its
# commands run as written, umpire on the PATH; tests/e2e/readme_check.py compares the output)
mkdir -p readme-bin && ln -sf "$BIN" readme-bin/umpire
awk '/^```/ { fence = !fence } /^## / && !fence { on = ($0 == "## Sealing orders nobody can read before the close"); next }
    on && fence && /^\$ / { sub(/^\$ /, ""); print }' "$ROOT/README.md" > readme-cmds
[ "$(wc -l < readme-cmds)" -ge 1 ] || die "no commands in the README's sealing section"
: > readme-index
while IFS= read -r cmd; do
    PATH="$TMP/readme-bin:$PATH" sh -c "$cmd" > "readme-out.$(wc -l < readme-index)" 2>&1 || true
    printf '%s\t%s\n' "$cmd" "$TMP/readme-out.$(wc -l < readme-index)" >> readme-index
done < readme-cmds
expect 0 python3 "$ROOT/tests/e2e/readme_check.py" "$ROOT/README.md" \
    "## Sealing orders nobody can read before the close" readme-index
has readme-out.0 "time-locked to beacon round $(round 1): send attacker.yaml.age"
head -1 attacker.yaml.age | grep -qx -- '-----BEGIN AGE ENCRYPTED FILE-----' ||
    die "seal did not write an armored age file"
mkdir -p sent && mv attacker.yaml.age sent/ && rm attacker.yaml
# what umpire-tlock (tlock-js) says of it: round R(1) of the demo chain
expect 0 node "$TLOCK" inspect sent/attacker.yaml.age
has "$TMP/out" "round $(round 1)"
# refused at once: a plain order file, garbage, a file locked to another round
cp "$HR/orders/turn-0001/attacker.yaml" attacker.yaml
expect 0 "$BIN" check c attacker.yaml        # a plain file: checked as seal will check it
expect 65 at "$(deadline 1)" "$BIN" close c attacker.yaml
has "$TMP/err" "not a time-locked order file"
echo "garbage" > garbage.yaml.age
expect 65 "$BIN" check c garbage.yaml.age
has "$TMP/err" "not a time-locked order file"
expect 65 at "$(deadline 1)" "$BIN" close c garbage.yaml.age
expect 0 "$BIN" seal attacker.yaml --campaign clone -o early.age
chain=$(sed -n 's/^  beacon_chain: //p' c/campaign.yaml)
key=$(sed -n 's/^  beacon_public_key: //p' c/campaign.yaml)
printf '{"public_key":"%s","period":3,"genesis_time":1767225600,"hash":"%s","schemeID":"bls-unchained-g1-rfc9380","metadata":{"beaconID":"umpire-demo"}}' \
    "$key" "$chain" > info.json
mkdir wrong
node "$TLOCK" seal --round $(($(round 1) - 1)) --chain-info info.json < attacker.yaml \
    > wrong/attacker.yaml.age
expect 65 at "$(deadline 1)" "$BIN" close c wrong/attacker.yaml.age
has "$TMP/err" "time-locked to round $(($(round 1) - 1)) (turn 1's orders are time-locked to round $(round 1))"
rm attacker.yaml early.age

expect 0 at "$(deadline 1)" "$BIN" close c sent/attacker.yaml.age
has "$TMP/out" "round $(round 1)"
[ -f c/timelocked/turn-0001/attacker.age ] || die "the close did not commit the ciphertext"
cmp -s c/timelocked/turn-0001/attacker.age sent/attacker.yaml.age ||
    die "the committed ciphertext is not the file sent"
secret c quokka-sextant
# before the round is out the turn waits (75)
expect 75 at "$(deadline 1)" "$BIN" turn c
resolve c 1
expect 0 "$BIN" log c --turn 1
! grep -q "no orders" "$TMP/out" || die "turn 1's orders did not open"

# turn 2: the defender sends a tlock file of garbage (sealed by tlock-js itself, to R(2)):
# it is taken (nobody can tell before the round) and gives no orders once opened
echo "not an order file at all" |
    node "$TLOCK" seal --round "$(round 2)" --chain-info info.json > defender.yaml.age
expect 0 at "$(deadline 2)" "$BIN" close c defender.yaml.age
resolve c 2
expect 0 "$BIN" log c --turn 2
has "$TMP/out" "orders from defender count as none: "
has "$TMP/out" "opens to no order file of defender for turn 2"

# turn 3: the attacker sends last turn's orders, sealed properly to R(3): no orders either
node "$TLOCK" seal --round "$(round 3)" --chain-info info.json \
    < "$HR/orders/turn-0001/attacker.yaml" > attacker.yaml.age
expect 0 at "$(deadline 3)" "$BIN" close c attacker.yaml.age
resolve c 3
expect 0 "$BIN" log c --turn 3
has "$TMP/out" "orders from attacker count as none: "
has "$TMP/out" "this is turn 1's file; turn 3 is open"

# both verifiers: the closes name R(t), the committed ciphertexts are the closed ones, and
# umpire verify opens each again from the round's signature
expect 3 "$BIN" verify c
has "$TMP/out" "verify: ok"
expect 3 node "$JSV" c
has "$TMP/out" "verify: ok"

# a sealed campaign: the umpire's identity in .umpire/ (0600, never committed), recipient in
# campaign.yaml; both layers opened after the round
expect 0 "$BIN" init s --scenario scenario.yaml --demo-beacon \
    --orders timelocked
grep -q '^  recipient: age1' s/campaign.yaml || die "no timelock.recipient in campaign.yaml"
[ "$(stat -c %a s/.umpire/timelock-identity)" = 600 ] || die "the identity is not 0600"
grep -q '^AGE-SECRET-KEY-1' s/.umpire/timelock-identity || die "no identity kept"
! git -C s log --all -p | grep -q AGE-SECRET-KEY || die "the identity was committed"
git clone -q s sclone
sed 's/^# Turn 1, the attacker/# wombat-astrolabe: turn 1, the attacker/' \
    "$HR/orders/turn-0001/attacker.yaml" > s-attacker.yaml
expect 0 "$BIN" seal s-attacker.yaml --campaign sclone -o attacker.yaml.age
has "$TMP/out" "and the umpire's key"
# the outer layer opens with the round alone to the inner age file, not to the orders
_b=$("$ROOT/tools/demo-beacon" "$(round 1)")
node "$TLOCK" open --round "$(round 1)" --signature "$(echo "$_b" | sed -n 2p)" \
    --chain-info info.json < attacker.yaml.age > inner.age
head -1 inner.age | grep -qx -- '-----BEGIN AGE ENCRYPTED FILE-----' || die "no inner layer"
! grep -q wombat-astrolabe inner.age || die "the inner layer is readable without the key"
rm inner.age s-attacker.yaml
expect 0 at "$(deadline 1)" "$BIN" close s attacker.yaml.age
secret s wombat-astrolabe
resolve s 1
expect 0 "$BIN" log s --turn 1
! grep -q "orders from attacker count as none" "$TMP/out" || die "the sealed file did not open"
expect 3 "$BIN" verify s
# the reveal publishes the identity: a clone then opens both layers as the turn did
expect 0 "$BIN" reveal s
[ -f s/reveal/timelock-identity ] || die "the reveal did not publish the identity"
git clone -q s sclone2
expect 3 "$BIN" verify sclone2
has "$TMP/out" "every turn re-resolves to its commit"
expect 3 node "$JSV" sclone2
has "$TMP/out" "1 time-locked file opened" # both layers: the identity is revealed

# the campaign's pages carry the sealing page, with campaign.yaml beside it (README, "Sealing
# orders nobody can read before the close")
expect 0 "$BIN" site c site
for f in seal/index.html seal/seal.js seal/verify.css seal/campaign.yaml seal/overrides.yaml; do
    [ -s "site/$f" ] || die "umpire site wrote no $f for a time-locked campaign"
done
cmp -s site/seal/campaign.yaml c/campaign.yaml || die "the sealing page's campaign.yaml is not the campaign's"
grep -q 'href="seal/index.html"' site/index.html || die "the campaign's page does not link the sealing page"

# without node: 69, naming the package
expect 69 env PATH=/nonexistent "$BIN" check c attacker.yaml.age
has "$TMP/err" "nodejs"
