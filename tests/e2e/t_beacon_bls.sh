# t_beacon_bls.sh — a signed beacon's rounds checked offline (docs/fairness.md, "The beacon's
# signature"; issue 23 item 1): the BLS helper (umpire-bls, Go on CIRCL) on drand's recorded
# rounds and on broken signatures (tests/vectors/drand-rounds.json); a drand quicknet
# campaign's turn refused with a value alone, another round's genuine signature, a tweaked
# signature, a point off the curve, the identity point, a wrong length (exit 65, nothing
# written, the round named), taken with round 657413's real signature; a turn an umpire
# pushed through with a helper that says yes to anything caught by umpire verify, umpire
# audit and tools/umpire-verify.mjs on a player's clone; the helper missing said plainly;
# campaign.yaml's chain and key (a known chain takes its key only; another network named at
# init); the demo beacon (its rounds signed with the published key, marked everywhere as
# proving nothing), through umpire run --beacon-command.
. "$ROOT/tests/e2e/lib.sh"
HR="$ROOT/campaigns/harbour-raid"
A1="$HR/orders/turn-0001/attacker.yaml"
V="$ROOT/tests/vectors/drand-rounds.json"
BLS=$(dirname "$(readlink -f "$BIN")")/umpire-bls
Q=52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971
QK=83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a
RAND=fc1873a13f3545aeade8401532ef5519920652eee6b0d2b19ca12643b87b3587
SIG=b713718a38ae728dfd477991af2822e08d2f305e47718cef9f7848ce4050e7be41076862b98fad56e91a6b85b89cd97b
S3=b3fab6df720b68cc47175f2c777e86d84187caab5770906f515ff1099cb01e4deaa027075d860823e49477b93c72bd64
ROUND_AT=1694775603   # quicknet: 1692803367 + (657413 - 1) * 3
AFTER=$((ROUND_AT + 97))
at() { _t=$1; shift; env SOURCE_DATE_EPOCH="$_t" "$@"; }
hash_of() { printf %s "$1" | xxd -r -p | sha256sum | cut -c1-64; }
[ -x "$BLS" ] || die "no BLS helper next to $BIN (make builds it)"

# --- The helper on every vector: drand's recorded rounds pass, every broken one fails with
# its reason. Each vector's randomness is SHA-256 of its signature.
python3 - "$V" "$BLS" <<'EOF' || die "a vector does not check as recorded"
import hashlib, json, subprocess, sys
v = json.load(open(sys.argv[1]))
bad = 0
for e in v["valid"] + v["invalid"]:
    key = v["chains"][e["chain"]]["public_key"]
    got = subprocess.run([sys.argv[2], "verify", key], input="%d %s\n" % (e["round"], e["signature"]),
                         capture_output=True, text=True, check=True).stdout.strip()
    want_ok = "why" not in e
    if want_ok and (got != "ok" or hashlib.sha256(bytes.fromhex(e["signature"])).hexdigest() != e["randomness"]):
        print("round %d: %s (ok expected)" % (e["round"], got)); bad += 1
    if not want_ok and not (got.startswith("bad: ") and e["why"] in got):
        print("round %d (%s): %s ('%s' expected)" % (e["round"], e["what"], got, e["why"])); bad += 1
n = sum(1 for e in v["valid"] if e["chain"] == "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971")
if n < 4:
    print("only %d quicknet rounds" % n); bad += 1
sys.exit(1 if bad else 0)
EOF
# A key that is no point of G2 is refused before any round.
echo "3 $S3" > req
expect 65 sh -c '"$1" verify "$(printf %0192d 0)" < req' sh "$BLS"
has "$TMP/err" "is not 96 bytes of a compressed G2 point"

# --- drand quicknet (the default): campaign.yaml records the chain, scheme and key.
at 1694770000 "$BIN" init c --scenario "$HR/scenario.yaml" --secret-file "$HR/demo.secret" \
    --visibility open >/dev/null
has c/campaign.yaml "beacon_chain: $Q"
has c/campaign.yaml "beacon_scheme: bls-unchained-g1-rfc9380"
has c/campaign.yaml "beacon_public_key: $QK"
expect 0 at $((ROUND_AT - 600)) "$BIN" close c "$A1"
has "$TMP/out" "round 657413, out at 2023-09-15 11:00:03 UTC"
cp -r c cheat
before=$(fingerprint c)

# A value alone: refused, the round named.
expect 65 at $AFTER "$BIN" turn c --beacon "$RAND"
has "$TMP/err" "turn 1: beacon round 657413: no signature: the campaign's beacon"
# Another round's genuine pair (round 3: its value is SHA-256 of its signature).
expect 65 at $AFTER "$BIN" turn c --beacon "$(hash_of $S3)" --beacon-signature "$S3"
has "$TMP/err" "turn 1: beacon round 657413: signature $S3: the signature fails the pairing check for round 657413 under the chain's public key"
# Each broken signature with the value it hashes to, so the BLS check is what refuses it.
neg=97${SIG#b7}      # the sign flag (0x20) flipped: -sig, a point of G1
for case in "$neg:the signature fails the pairing check for round 657413" \
    "${SIG%?}a:the signature is not a point of G1" \
    "$(printf '8%095d' 1):the signature is not a point of G1" \
    "$(printf '8%095d' 4):the signature is not a point of G1" \
    "$(printf 'c%095d' 0):the signature is the identity point" \
    "${SIG%??}:the signature is 47 bytes" \
    "$(head -c 48 /dev/zero | tr '\0' '\201' | xxd -p | tr -d '\n'):the signature is not a point of G1"; do
    s=${case%%:*}
    expect 65 at $AFTER "$BIN" turn c --beacon "$(hash_of "$s")" --beacon-signature "$s"
    has "$TMP/err" "turn 1: beacon round 657413: signature $s: ${case#*:}"
done
[ "$(fingerprint c)" = "$before" ] || die "a refused round wrote something"

# The round's real signature: taken, journaled.
expect 0 at $AFTER "$BIN" turn c --beacon "$RAND" --beacon-signature "$SIG"
has c/journal/turn-0001.yaml "beacon_signature: $SIG"
has c/reports/turn-0001/attacker.md "which passed the BLS check under the chain's public key"
git clone -q c clone
expect 3 "$BIN" verify clone
has "$TMP/out" "beacon: every turn's round is signed by drand quicknet (chain $Q): BLS signatures checked under its public key"
if grep -q "note: check each turn" "$TMP/out"; then die "verify still asks for a check by hand"; fi
expect 3 node "$JSV" clone
has "$TMP/out" "turn 1: ok: close, key, digest, beacon round 657413, BLS signature checked, seed, "
if grep -q "check each turn's round and value" "$TMP/out"; then die "umpire-verify still asks for a check by hand"; fi
expect 0 "$BIN" audit clone 1:0
has "$TMP/out" "BLS (bls-unchained-g1-rfc9380): e(signature, G2) = e(H(SHA256(be64(657413))), pk), pk = the public key of chain $Q in campaign.yaml: ok"

# --- An umpire whose own tool says yes to anything (a helper that answers ok) resolves the
# turn with round 3's genuine pair: a player's clone, with the real helper, catches it.
printf '#!/bin/sh\nwhile read -r r s; do echo ok; done\n' > yes-bls; chmod +x yes-bls
expect 0 env UMPIRE_BLS="$PWD/yes-bls" SOURCE_DATE_EPOCH=$AFTER "$BIN" turn cheat --beacon "$(hash_of $S3)" --beacon-signature "$S3"
git clone -q cheat cheat-clone
expect 65 "$BIN" verify cheat-clone
has "$TMP/out" "turn 1: journal/turn-0001.yaml: beacon round 657413: signature $S3: the signature fails the pairing check for round 657413"
expect 65 node "$JSV" cheat-clone
has "$TMP/out" "round 657413: signature $S3: the signature fails the pairing check for round 657413"
expect 65 "$BIN" audit cheat-clone 1:0
has "$TMP/out" "the signature fails the pairing check for round 657413"

# --- The helper missing: said plainly, exit 66, nothing written. (--full: this clone
# verified before, and a run without it checks only the turns after, here none, so it needs
# no helper: issue 38.)
expect 3 env UMPIRE_BLS=/nonexistent/umpire-bls "$BIN" verify clone
has "$TMP/out" "turns 1-1: ok: verified before by this clone"
expect 66 env UMPIRE_BLS=/nonexistent/umpire-bls "$BIN" verify --full clone
has "$TMP/err" "cannot check the beacon's signatures: the BLS helper \$UMPIRE_BLS '/nonexistent/umpire-bls' is not an executable file"
# tools/umpire-verify.mjs needs no helper: its BLS check is @noble/curves'.
expect 3 env UMPIRE_BLS=/nonexistent/umpire-bls node "$JSV" clone
has "$TMP/out" "BLS signature checked"
mkdir -p lonely
cp "$(readlink -f "$BIN")" lonely/umpire # the front, and the whole program it starts
cp "$(dirname "$(readlink -f "$BIN")")/umpire-core" lonely/umpire-core
expect 66 lonely/umpire verify --full clone
has "$TMP/err" "the BLS helper umpire-bls is missing (looked for $PWD/lonely/umpire-bls"

# --- campaign.yaml: a known chain takes its own key only.
expect 65 "$BIN" init k --scenario "$HR/scenario.yaml" --secret-file "$HR/demo.secret" \
    --beacon "a look-alike" --beacon-genesis 1692803367 --beacon-period 3 --beacon-chain "$Q" \
    --beacon-key "$(printf %s "$QK" | sed 's/^83/93/')"
has "$TMP/err" "beacon chain $Q is drand quicknet, whose public key is $QK, not 93"
[ ! -e k ] || die "a refused init wrote something"
# A Setup whose campaign.yaml swaps quicknet's key for another: neither umpire nor
# tools/umpire-verify.mjs takes it.
at 1694770000 "$BIN" init k --scenario "$HR/scenario.yaml" --secret-file "$HR/demo.secret" \
    --visibility open >/dev/null
sed -i "s/beacon_public_key: 83/beacon_public_key: 93/" k/campaign.yaml
git -C k commit -q --amend -a --no-edit
git -C k tag -f turn-0000 >/dev/null
expect 65 at $((ROUND_AT - 600)) "$BIN" close k "$A1"
has "$TMP/err" "beacon chain $Q is drand quicknet, whose public key is $QK, not 93"
expect 65 node "$JSV" k
has "$TMP/out" "beacon chain $Q is drand quicknet, whose public key is $QK, not 93"

# --- Another drand network, its key named at init: drand-client's test chain, round 38.
W=af8b6fc95693b058a3a59efe586eb31c2c352fe00cf40c62a427d87c34f7a235
WK=81d320f220ee9c79e60e19dedc838c31e3ab919b15481e9feb52f643628c4f6a13fdc52129493875a818109d767272ca0541cbcdcea9335f2870d781b39b845ba8cbd44fdfe4967781cf72ca5917fc9398bcf97ca0548ed5a709016c4b1ff0f3
W38=95c93585c513ebbcb4777ff15599b3140e5ec0295faa0e483f3deadd88fa6d43f0d3703e3a4ce106e8fd6c6987f32126
W_AT=$((1687506816 + 37 * 3))
# A key that is no point of G2 is refused at init, nothing written.
expect 65 at 1687500000 "$BIN" init w --scenario "$HR/scenario.yaml" --secret-file "$HR/demo.secret" \
    --beacon "drand walkthrough" --beacon-genesis 1687506816 --beacon-period 3 \
    --beacon-chain "$W" --beacon-key "$(printf '8%0191d' 0)"
has "$TMP/err" "umpire init: --beacon-key: umpire-bls: public key '8000"
[ ! -e w ] || die "a refused key wrote something"
expect 0 at 1687500000 "$BIN" init w --scenario "$HR/scenario.yaml" --secret-file "$HR/demo.secret" \
    --visibility open --beacon "drand walkthrough" --beacon-genesis 1687506816 --beacon-period 3 \
    --beacon-chain "$W" --beacon-key "$WK"
has w/campaign.yaml "beacon_public_key: $WK"
expect 0 at $((W_AT - 600)) "$BIN" close w "$A1"
has "$TMP/out" "round 38, out at 2023-06-23 07:55:27 UTC"
expect 65 at $((W_AT + 5)) "$BIN" turn w --beacon "$RAND" --beacon-signature "$SIG"
has "$TMP/err" "turn 1: beacon round 38: signature $SIG: the signature fails the pairing check for round 38"
expect 0 at $((W_AT + 5)) "$BIN" turn w --beacon "$(hash_of $W38)" --beacon-signature "$W38"
# A chain umpire does not know: consistent, not proven fair, until the player names its key
# himself (--trust-chain, from the network's announcement); a key other than campaign.yaml's
# fails (docs/fairness.md, "The verdict").
UNTRUSTED="reason: untrusted-chain: beacon chain $W is not one this verifier trusts: give its public key with --trust-chain HASH:KEY, from an announcement you trust"
for v in "$BIN verify" "node $JSV"; do
    expect 3 $v w
    has "$TMP/out" "$UNTRUSTED"
    expect 3 $v w --trust-chain "$W:$WK"
    if grep -q "untrusted-chain" "$TMP/out"; then die "$v: a chain the player trusts is still untrusted"; fi
    expect 65 $v w --trust-chain "$W:$QK"
    has "$TMP/out" "verify: FAILED: setup: campaign.yaml names public key $WK for beacon chain $W, but --trust-chain gives $QK: its rounds are not signed by the chain you trust"
    has "$TMP/out" "verdict: failed"
done

# --- The demo beacon: rounds signed with the published key; umpire run takes value and
# signature from a --beacon-command; a command printing the value alone is refused.
expect 0 "$BIN" init d --scenario "$HR/scenario.yaml" --secret-file "$HR/demo.secret" \
    --visibility open --demo-beacon
has "$TMP/out" "warning: umpire's demo beacon: its secret key is published"
has d/campaign.yaml "beacon_demo: true"
has d/campaign.yaml "beacon_chain: 50607b1cc896b6f583784f9c4a74c9f63825c4ffc594dd1d5e43a858a5737d37"
has d/campaign.yaml "demo beacon: its secret key is published with umpire"
D0=1767225600   # the demo beacon's genesis (lib.sh's SOURCE_DATE_EPOCH)
expect 0 at $((D0 + 86400)) "$BIN" close d "$A1"
R=$(sed -n 's/^  round: //p' d/journal/turn-0001.close.yaml)
[ "$R" -eq $((86400 / 3 + 200 + 1)) ] || die "the demo close named round $R"
mkdir -p md/new md/cur md/tmp
printf '#!/bin/sh\n"%s/tools/demo-beacon" "$1" | head -n 1\n' "$ROOT" > value-only; chmod +x value-only
expect 65 env UMPIRE_BLS="$BLS" SOURCE_DATE_EPOCH=$((D0 + 86400 + 3600)) "$BIN" run d --maildir md --beacon-command "$PWD/value-only"
has "$TMP/err" "turn 1: beacon round $R: no signature"
# A command that stalls is stopped, with what it started, and the turn waits (issue 32 item 3).
printf '#!/bin/sh\necho $$ > "%s/stall.pid"\ntrap "" TERM\nsleep 300\n' "$PWD" > stall; chmod +x stall
expect 0 env UMPIRE_BEACON_COMMAND_TIMEOUT=1 UMPIRE_BLS="$BLS" SOURCE_DATE_EPOCH=$((D0 + 86400 + 3600)) "$BIN" run d --maildir md --beacon-command "$PWD/stall"
has "$TMP/err" "the beacon command gave no answer in 1 seconds for round $R: stopped"
i=0; while kill -0 "$(cat stall.pid)" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
! kill -0 "$(cat stall.pid)" 2>/dev/null || die "the stalled beacon command still runs"
[ ! -f d/journal/turn-0001.yaml ] || die "a turn resolved without a value"
expect 0 env UMPIRE_BLS="$BLS" SOURCE_DATE_EPOCH=$((D0 + 86400 + 3600)) "$BIN" run d --maildir md --beacon-command "$ROOT/tools/demo-beacon"
has "$TMP/out" "turn 1: the attacker's turn"
set -- $(UMPIRE_BLS="$BLS" "$ROOT/tools/demo-beacon" "$R")
has d/journal/turn-0001.yaml "beacon_value: $1"
has d/journal/turn-0001.yaml "beacon_signature: $2"
has d/reports/turn-0001/attacker.md "a demo beacon's secret key is published, so this proves nothing about fairness"
DEMO="reason: demo-beacon: demo beacon: its secret key is published with umpire, so anyone could sign any round value"
expect 3 "$BIN" verify d
has "$TMP/out" "$DEMO"
expect 3 node "$JSV" d
has "$TMP/out" "$DEMO"
expect 0 "$BIN" audit d 1:0
has "$TMP/out" "(umpire's demo beacon: its secret key is published, so this proves nothing about fairness)"

# --- docs/fairness.md's check by hand with the helper ("The beacon's signature"): it prints
# what the page's comments say.
awk '/^### The beacon.s signature/ { on = 1; next } /^##/ { on = 0 }
    on && /^```sh$/ { inb = 1; next } /^```/ { inb = 0 } on && inb' "$ROOT/docs/fairness.md" > by-hand.sh
[ -s by-hand.sh ] || die "no sh block in The beacon's signature"
PATH="$(dirname "$BLS"):$PATH" sh by-hand.sh > by-hand.out
sed -n 's/^# //p' by-hand.sh > by-hand.want
cmp -s by-hand.out by-hand.want || { diff by-hand.want by-hand.out >&2; die "the page's helper example prints otherwise"; }

# --- tools/umpire-verify.mjs --vectors checks the same file with @noble/curves; one signature
# byte changed in a valid round fails it.
expect 0 node "$JSV" --vectors "$V"
has "$TMP/out" "drand-rounds.json: 17 vectors passed"
sed 's/"signature": "b6b6a5/"signature": "b6b6a6/' "$V" > bad-rounds.json
expect 65 node "$JSV" --vectors bad-rounds.json
has "$TMP/out" "vector round 2 of chain 52db9ba70e0cc0f6"
