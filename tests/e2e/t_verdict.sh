# t_verdict.sh — the verdict (docs/fairness.md, "The verdict"; issue 34): every verifier ends
# with fair (0), consistent, not proven fair (3, each reason on a line) or failed (65), and
# both verifiers agree, in text and in --json. Each attack of issue 34 tried again:
#   - an honest game on drand quicknet (recorded round 657413), a generated secret, a schedule
#     and the player's receipt mail arriving in time: fair, from a plain clone;
#   - the same without the receipt: a close nobody witnessed (unwitnessed-close);
#   - a receipt that arrived before its close's closed_at, one after its round was out, one
#     whose orders_digest alone was edited: failed;
#   - the umpire's own "drand network" (his key, his chain hash): untrusted-chain, until the
#     player names the network's key himself (--trust-chain), a key other than campaign.yaml's
#     failing; the demo beacon's key under another chain hash: demo-beacon;
#   - an unsigned beacon: unsigned-beacon; no schedule: no-schedule; entropy players with one
#     contributor: few-contributors; a secret from a file: secret-from-file;
#   - a truncated history (issue 32 items 4 and 8): the receipt of a close main lacks, tags
#     kept or dropped: history-lacks-close.
. "$ROOT/tests/e2e/lib.sh"
HR="$ROOT/campaigns/harbour-raid"
A1="$HR/orders/turn-0001/attacker.yaml"
BLS=$(dirname "$(readlink -f "$BIN")")/umpire-bls
V="$JSV"
RAND=fc1873a13f3545aeade8401532ef5519920652eee6b0d2b19ca12643b87b3587
SIG=b713718a38ae728dfd477991af2822e08d2f305e47718cef9f7848ce4050e7be41076862b98fad56e91a6b85b89cd97b
ROUND_AT=1694775603   # quicknet round 657413: 1692803367 + (657413 - 1) * 3
CLOSE=$((ROUND_AT - 600))
at() { _t=$1; shift; env SOURCE_DATE_EPOCH="$_t" "$@"; }
[ -x "$BLS" ] || die "no BLS helper next to $BIN (make builds it)"

# agree CODE DIR ARGS...: both verifiers exit CODE with the same verdict and reason lines, and
# the same JSON object with --json (the failure's text aside: each verifier words its own;
# umpire verify's "threads" aside).
agree() {
    _code=$1; shift
    expect "$_code" "$BIN" verify "$@"; cp "$TMP/out" "$TMP/c.out"
    expect "$_code" node "$V" "$@"; cp "$TMP/out" "$TMP/js.out"
    grep '^verdict: \|^reason: ' "$TMP/c.out" >"$TMP/c.v" || true
    grep '^verdict: \|^reason: ' "$TMP/js.out" >"$TMP/js.v" || true
    cmp -s "$TMP/c.v" "$TMP/js.v" || { diff "$TMP/c.v" "$TMP/js.v" >&2; die "the verifiers disagree on $*"; }
    expect "$_code" "$BIN" verify "$@" --json; cp "$TMP/out" "$TMP/c.json"
    expect "$_code" node "$V" "$@" --json; cp "$TMP/out" "$TMP/js.json"
    python3 - "$TMP/c.json" "$TMP/js.json" <<'PY' || die "the verifiers' --json disagree on $*"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
for o in (a, b):
    o["failure"] = o["failure"] is not None
a.pop("threads") # umpire verify's own: how it ran, not what it found (docs/fairness.md)
if a != b:
    sys.exit("C: %s\nJavaScript: %s" % (a, b))
PY
}
# reasons CODE...: the last agree's reasons are exactly these codes, in this order.
reasons() {
    _got=$(sed -n 's/^reason: \([a-z-]*\): .*/\1/p' "$TMP/c.v" | tr '\n' ' ')
    [ "$_got" = "$* " ] || [ "$_got" = "$*" ] || die "reasons '$_got', '$*' expected"
}
# mail RECEIPT DATE: RECEIPT (its bare text) as the player's mail server would keep it: a
# Received: header on top dated DATE (UTC seconds), then the mail umpire sent.
mail() {
    printf 'Received: from mail.umpire.example by mx.player.example; %s\n' \
        "$(date -u -R -d "@$2")"
    printf 'From: umpire@example.org\nTo: blood@example.org\n'
    printf 'Subject: [harbour-raid] turn 1 closed: your receipt\n'
    printf 'Date: %s\nMIME-Version: 1.0\n' "$(date -u -R -d "@$2")"
    printf 'Content-Type: text/plain; charset=utf-8\n\n'
    cat "$1"
}
# scenario FILE: harbour-raid's scenario with a schedule whose first deadline is quicknet's
# round 657413 out (missing no-orders, no grace).
with_schedule() {
    cp "$HR/scenario.yaml" "$1"
    printf 'schedule:\n  first_deadline: 2023-09-15T11:00:00Z\n  every: 1d\n  missing: no-orders\n' >>"$1"
}
with_schedule sched.yaml

# --- An honest game: quicknet, a generated secret, a schedule, the receipt in time: fair ---
expect 0 at $((CLOSE - 3600)) "$BIN" init fair --scenario sched.yaml --visibility open
if grep -q "not provably fair" "$TMP/out"; then die "init warns on a campaign that can be proven fair"; fi
expect 0 at $CLOSE "$BIN" close fair "$A1" --receipts fair-receipts
expect 0 at $((ROUND_AT + 60)) "$BIN" turn fair --beacon "$RAND" --beacon-signature "$SIG"
expect 0 "$BIN" status fair
if grep -q "not provably fair" "$TMP/out"; then die "status says not provably fair"; fi
if grep -q "Not provably fair" fair/reports/turn-0001/attacker.md; then die "the report says not provably fair"; fi
git clone -q fair fclone
mail fair-receipts/attacker.yaml $((CLOSE + 10)) >a-in-time.eml
mail fair-receipts/defender.yaml $((CLOSE + 12)) >d-in-time.eml
agree 0 fclone --receipt a-in-time.eml
has "$TMP/c.out" "verdict: fair"
reasons
agree 0 fclone --receipt d-in-time.eml --receipts-of defender   # the defender, not due, witnesses too
# the campaign-wide audit: verify's verdict (no receipt given to it: no witness)
expect 3 "$BIN" audit fclone
has "$TMP/out" "reason: unwitnessed-close: closes without a witness: turns 1"
# no receipt: a close nobody witnessed
agree 3 fclone
has "$TMP/c.out" "reason: unwitnessed-close: closes without a witness: turns 1 (no receipt given, and no time-stamp token from an authority this verifier trusts)"
reasons unwitnessed-close
# the bare receipt text: its arrival is not known, so it witnesses nothing
agree 3 fclone --receipt fair-receipts/attacker.yaml
reasons unwitnessed-close
# a receipt that reached the player before the close's closed_at: the close's time is false
mail fair-receipts/attacker.yaml $((CLOSE - 86400)) >a-early.eml
agree 65 fclone --receipt a-early.eml
has "$TMP/c.out" "but this receipt reached your mail server at 2023-09-14T10:50:03Z, before it: the close's time is not when it was made"
has "$TMP/js.out" "but this receipt reached your mail server at 2023-09-14T10:50:03Z, before it: the close's time is not when it was made"
has "$TMP/c.out" "verdict: failed"
# ... or after the round was out: a backdated close
mail fair-receipts/attacker.yaml $((ROUND_AT + 1)) >a-late.eml
agree 65 fclone --receipt a-late.eml
has "$TMP/c.out" "the round's value was public before the close was receipted (a backdated close)"
# a receipt whose orders_digest alone was edited: the digest is named (issue 34 item 6)
d=$(sed -n 's/^orders_digest: //p' fair-receipts/attacker.yaml)
sed "s/^orders_digest: .*/orders_digest: $(printf '%064d' 0)/" fair-receipts/attacker.yaml >a-digest.yaml
agree 65 fclone --receipt a-digest.yaml
has "$TMP/c.out" "turn 1's orders digest is $(printf '%064d' 0) on the receipt, $d in the close"
has "$TMP/js.out" "turn 1's orders digest is $(printf '%064d' 0) on the receipt, $d in the close"

# a receipt whose commitment is not its file_sha256 in an open campaign: what a cheating
# umpire sends after swapping a player's orders (the commitment the close's, the file hash
# the player's own) is refused (issue 34 item 8: src/core/receipt.c's check)
sed "s/^file_sha256: .*/file_sha256: $(sha256sum <"$HR/orders/turn-0002/defender.yaml" | cut -c1-64)/" \
    fair-receipts/attacker.yaml >a-swapped.yaml
agree 65 fclone --receipt a-swapped.yaml
has "$TMP/c.out" "commitment differs from file_sha256, and there is no salt (an open campaign commits to the file's SHA-256)"
has "$TMP/js.out" "commitment differs from file_sha256, and there is no salt (an open campaign commits to the file's SHA-256)"
# the end-of-game reveal of a sealed campaign while a turn is closed and not resolved is
# refused (issue 34 item 8: src/core/reveal.c's check)
expect 0 at $((CLOSE - 3600)) "$BIN" init sealed --scenario sched.yaml
expect 0 at $CLOSE "$BIN" close sealed "$A1"
expect 65 "$BIN" reveal sealed
has "$TMP/err" "main is not at turn-0000, the last turn (a turn closed and not resolved?): resolve it first"
git -C sealed rev-parse -q --verify reveal >/dev/null && die "a reveal over a pending close was tagged"
expect 0 at $((ROUND_AT + 60)) "$BIN" turn sealed --beacon "$RAND" --beacon-signature "$SIG"
git clone -q sealed sclone
# a close-0001 tag moved onto another close commit (same file and message, another time, on
# the Setup) than main's: caught by the close's own position check (issue 34 item 8)
# (the very commit, byte for byte, but 5 s later: it rebuilds to itself, so only the
# position check sees it)
moved=$(git -C sclone cat-file commit close-0001 | sed "s/> [0-9]* +0000\$/> $((CLOSE + 5)) +0000/" |
    git -C sclone hash-object -t commit -w --stdin)
git -C sclone tag -f close-0001 "$moved" >/dev/null
expect 65 "$BIN" verify sclone
has "$TMP/out" "verify: FAILED: turn 1: tag close-0001 is commit $moved, but main's 1st commit after Setup is $(git -C sealed rev-parse close-0001): the history was rewritten or the tag moved"
expect 65 node "$V" sclone
# an extra journal files row of a sealed turn on the umpire's copy: caught by the count of
# rows against the files the turn wrote (issue 34 item 8)
cp -a sealed sealed-extra
journal_sql sealed-extra "INSERT INTO files VALUES (1, 'extra.yaml', '$(echo | sha256sum | cut -c1-64)', NULL)"
expect 65 "$BIN" verify sealed-extra
has "$TMP/out" "files rows, the turn wrote"

# --- A truncated history (issue 32 items 4 and 8): main moved back to the Setup, the later
# tags kept (a fresh clone of a main reset back) or dropped: the receipt shows the close ----
git clone -q fair trunc
git -C trunc reset -q --hard turn-0000
agree 3 trunc --receipt a-in-time.eml
has "$TMP/c.out" "reason: history-lacks-close: receipts witness closes this clone's main does not hold: turns 1 (the last turns were dropped, or main was moved back)"
reasons history-lacks-close
git -C trunc tag -d turn-0001 close-0001 >/dev/null
agree 3 trunc --receipt a-in-time.eml
reasons history-lacks-close
agree 0 trunc   # without the receipt nothing shows it

# --- The umpire's own "drand network": his key, his chain hash ----------------------------
"$BLS" keygen >own.key
OK=$("$BLS" pubkey own.key)
OH=$(printf %s "$OK" | xxd -r -p | sha256sum | cut -c1-64)
expect 0 at $((CLOSE - 3600)) "$BIN" init own --scenario sched.yaml --visibility open \
    --beacon "drand league-net" --beacon-genesis 1692803367 --beacon-period 3 \
    --beacon-chain "$OH" --beacon-key "$OK"
has "$TMP/out" "warning: not provably fair: a beacon chain umpire does not know"
expect 0 at $CLOSE "$BIN" close own "$A1" --receipts own-receipts
s=$("$BLS" sign own.key 657413)
expect 0 at $((ROUND_AT + 60)) "$BIN" turn own --beacon "$(printf %s "$s" | xxd -r -p | sha256sum | cut -c1-64)" --beacon-signature "$s"
git clone -q own oclone
mail own-receipts/attacker.yaml $((CLOSE + 10)) >own.eml
agree 3 oclone --receipt own.eml
has "$TMP/c.out" "reason: untrusted-chain: beacon chain $OH is not one this verifier trusts: give its public key with --trust-chain HASH:KEY, from an announcement you trust"
reasons untrusted-chain
# the player names the network's real key (from its announcement): not the one the umpire
# signed with, so the rounds fail; named as the umpire's own, he trusts it himself
QK=83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a
agree 65 oclone --receipt own.eml --trust-chain "$OH:$QK"
has "$TMP/c.out" "but --trust-chain gives $QK: its rounds are not signed by the chain you trust"
agree 0 oclone --receipt own.eml --trust-chain "$OH:$OK"
# the demo beacon's published key under another chain hash: still the demo beacon
DK=b10c4db546b3f45a4fe7a05f917ea5d2b58717b8d0f101e672f509a694260de3fc0653b945149ef3e5adf57946b768de19552355197cc29f15bcbd6b8ce9cb5d26ffac92ed3846f4b004798887a09f8538042569a55a1ea47387baef536d44ac
expect 0 at $((CLOSE - 3600)) "$BIN" init demo2 --scenario sched.yaml --visibility open \
    --beacon "drand league-net" --beacon-genesis 1692803367 --beacon-period 3 \
    --beacon-chain "$(printf '%064d' 7)" --beacon-key "$DK"
has "$TMP/out" "warning: not provably fair: the demo beacon (its secret key is published: anyone can sign any round)"
expect 0 at $CLOSE "$BIN" close demo2 "$A1" --receipts demo2-receipts
s=$("$BLS" sign "$ROOT/campaigns/demo-beacon.key" 657413)
expect 0 at $((ROUND_AT + 60)) "$BIN" turn demo2 --beacon "$(printf %s "$s" | xxd -r -p | sha256sum | cut -c1-64)" --beacon-signature "$s"
mail demo2-receipts/attacker.yaml $((CLOSE + 10)) >demo2.eml
agree 3 demo2 --receipt demo2.eml
has "$TMP/c.out" "reason: demo-beacon: demo beacon: its secret key is published with umpire, so anyone could sign any round value"
reasons demo-beacon

# --- An unsigned beacon: values the umpire could pick after the round -----------------------
expect 0 at $((CLOSE - 3600)) "$BIN" init unsigned --scenario sched.yaml --visibility open \
    --beacon "unsigned-league-values" --beacon-genesis 1692803367 --beacon-period 3
has "$TMP/out" "warning: not provably fair: an unsigned beacon (its values could be chosen after the close)"
expect 0 at $CLOSE "$BIN" close unsigned "$A1" --receipts unsigned-receipts
expect 0 at $((ROUND_AT + 60)) "$BIN" turn unsigned --beacon chosen-after-the-round
expect 0 "$BIN" status unsigned
has "$TMP/out" "not provably fair: an unsigned beacon (its values could be chosen after the close)"
has unsigned/reports/turn-0001/attacker.md "Not provably fair: an unsigned beacon"
mail unsigned-receipts/attacker.yaml $((CLOSE + 10)) >unsigned.eml
agree 3 unsigned --receipt unsigned.eml
has "$TMP/c.out" "reason: unsigned-beacon: unsigned beacon unsigned-league-values: its round values carry no signature and could have been chosen after the close"
reasons unsigned-beacon

# --- No schedule: the umpire chose when to close, so could close again later ---------------
expect 0 at $((CLOSE - 3600)) "$BIN" init nosched --scenario "$HR/scenario.yaml" --visibility open
has "$TMP/out" "warning: not provably fair: no schedule"
expect 0 at $CLOSE "$BIN" close nosched "$A1" --receipts nosched-receipts
expect 0 at $((ROUND_AT + 60)) "$BIN" turn nosched --beacon "$RAND" --beacon-signature "$SIG"
mail nosched-receipts/attacker.yaml $((CLOSE + 10)) >nosched.eml
agree 3 nosched --receipt nosched.eml
reasons no-schedule

# --- A secret from a file: whoever wrote it knows every die ---------------------------------
expect 0 at $((CLOSE - 3600)) "$BIN" init file --scenario sched.yaml --visibility open \
    --secret-file "$HR/demo.secret"
expect 0 at $CLOSE "$BIN" close file "$A1" --receipts file-receipts
expect 0 at $((ROUND_AT + 60)) "$BIN" turn file --beacon "$RAND" --beacon-signature "$SIG"
mail file-receipts/attacker.yaml $((CLOSE + 10)) >file.eml
agree 3 file --receipt file.eml
reasons secret-from-file

# --- Entropy players with one contributor: the umpire and that player could grind ----------
expect 0 at $((CLOSE - 3600)) "$BIN" init players --scenario sched.yaml --visibility open --entropy players
expect 0 "$BIN" nonce; n1=$(sed -n 's/^nonce: //p' "$TMP/out"); e1=$(sed -n 's/^entropy: //p' "$TMP/out")
{ cat "$A1"; echo "entropy: $e1"; } >p1.yaml
expect 0 at $CLOSE "$BIN" close players p1.yaml --receipts players-receipts
# a reveal file naming another turn is refused, its nonce right or not (issue 34 item 8:
# src/core/close.c's turn check, which nothing else makes)
printf 'campaign: harbour-raid\nturn: 2\nplayer: attacker\nnonce: %s\n' "$n1" >p1-other.yaml
expect 65 "$BIN" reveal players p1-other.yaml
has "$TMP/err" "turn 2 (turn 1 is the closed turn awaiting reveals)"
printf 'campaign: harbour-raid\nturn: 1\nplayer: attacker\nnonce: %s\n' "$n1" >p1-reveal.yaml
expect 0 "$BIN" reveal players p1-reveal.yaml
expect 0 "$BIN" turn players
mail players-receipts/attacker.yaml $((CLOSE + 10)) >players.eml
agree 3 players --receipt players.eml
has "$TMP/c.out" "reason: few-contributors: entropy players: fewer than two independent contributors in turns 1"
reasons few-contributors

# --- A re-close inside the deadline window (issue 34): the witness of a close must come no
# later than the deadline plus grace plus 300 s (shorter than beacon_delay), so a close made
# at the deadline cannot be resolved, seen and made again in time ---------------------------
cp "$HR/scenario.yaml" sched2.yaml
printf 'schedule:\n  first_deadline: 2023-09-15T10:46:43Z\n  every: 1d\n  missing: no-orders\n' >>sched2.yaml
expect 65 at $((CLOSE - 3600)) "$BIN" init tooshort --scenario sched2.yaml --visibility open --beacon-delay 300
has "$TMP/err" "a schedule with beacon_delay 300 s: a close's witness may come up to 300 s after the deadline plus grace"
[ ! -e tooshort ] || die "a refused init wrote something"
expect 0 at $((CLOSE - 3600)) "$BIN" init window --scenario sched2.yaml --visibility open
expect 0 at $CLOSE "$BIN" close window "$A1" --receipts window-receipts   # 200 s after the deadline
expect 0 at $((ROUND_AT + 60)) "$BIN" turn window --beacon "$RAND" --beacon-signature "$SIG"
mail window-receipts/attacker.yaml $((CLOSE + 50)) >w-in-time.eml
agree 0 window --receipt w-in-time.eml
mail window-receipts/attacker.yaml $((CLOSE + 150)) >w-late.eml
agree 65 window --receipt w-late.eml
has "$TMP/c.out" "turn 1's close reached your mail server at 2023-09-15T10:52:33Z, more than 300 s after its deadline 2023-09-15T10:46:43Z plus grace 0 s: time enough to see the outcome of a close at the deadline and close again (a re-close)"
has "$TMP/js.out" "turn 1's close reached your mail server at 2023-09-15T10:52:33Z, more than 300 s after its deadline 2023-09-15T10:46:43Z plus grace 0 s"
