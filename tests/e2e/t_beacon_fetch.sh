# t_beacon_fetch.sh — the beacon's round fetched by umpire itself (docs/fairness.md, "The
# beacon's signature"): `umpire turn --beacon-fetch` and `umpire run --beacon-fetch` GET the
# round the close named from a real HTTP server on 127.0.0.1 (Python's http.server, standing in
# for a drand relay: no network in tests) serving drand quicknet's real round 657413 as its API
# gives it; the randomness must be SHA-256 of the signature, the round the close's; the
# signature is journaled (table turns, the export) and both verifiers check it. The campaign's
# clock is set so that round 657413 is the first one out 600 s after the close, as it was in
# September 2023. Also: --beacon VALUE --beacon-signature SIG by hand, a signature that does
# not hash to the value refused, and a journal from before the column gets it.
. "$ROOT/tests/e2e/lib.sh"
HR="$ROOT/campaigns/harbour-raid"
A1="$HR/orders/turn-0001/attacker.yaml"
CHAIN=52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971
RAND=fc1873a13f3545aeade8401532ef5519920652eee6b0d2b19ca12643b87b3587
SIG=b713718a38ae728dfd477991af2822e08d2f305e47718cef9f7848ce4050e7be41076862b98fad56e91a6b85b89cd97b
ROUND_AT=1694775603   # quicknet: 1692803367 + (657413 - 1) * 3
at() { _t=$1; shift; env SOURCE_DATE_EPOCH="$_t" "$@"; }

# The relay: the real round, and three answers a relay must not be trusted for.
mkdir -p www
cp -r "$ROOT/tests/e2e/beacon/$CHAIN" www/
mkdir -p www/tampered/public www/wrong-round/public www/empty/public
sed "s/\"randomness\":\"fc/\"randomness\":\"fd/" "www/$CHAIN/public/657413" > www/tampered/public/657413
sed "s/\"round\":657413/\"round\":657414/" "www/$CHAIN/public/657413" > www/wrong-round/public/657413
/usr/bin/python3 "$ROOT/tests/e2e/beacon/http-server.py" www http & server=$!
trap 'kill $server 2>/dev/null || true' EXIT
i=0; while [ ! -f http/port ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
[ -f http/port ] || die "the HTTP server did not start"
URL="http://127.0.0.1:$(cat http/port)"

# Set up in 2023 with drand quicknet (the default beacon), closed 600 s before round 657413.
at 1694770000 "$BIN" init c --scenario "$HR/scenario.yaml" --secret-file "$HR/demo.secret" \
    --visibility open --entropy beacon >/dev/null
expect 0 at $((ROUND_AT - 600)) "$BIN" close c "$A1"
has "$TMP/out" "round 657413, out at $(date -u -d "@$ROUND_AT" '+%F %T') UTC, in 10 minutes"
cp -r c c-run   # the same closed campaign, for umpire run below

# Before the round is out nothing is fetched.
expect 75 at $((ROUND_AT - 1)) "$BIN" turn c --beacon-fetch --beacon-url "$URL/$CHAIN"
has "$TMP/out" "turn 1: beacon round 657413 is out at $(date -u -d "@$ROUND_AT" '+%F %T') UTC, in 1 second, not yet; run 'umpire turn c --beacon-fetch' then"
[ ! -f http/requests ] || die "a round not yet out was fetched"
# A relay without the round (404): not yet, try later (exit 75), nothing written.
before=$(fingerprint c)
expect 75 at $((ROUND_AT + 97)) "$BIN" turn c --beacon-fetch --beacon-url "$URL/empty"
has "$TMP/out" "turn 1: the beacon has no round 657413 yet"
# A randomness that is not SHA-256 of the signature, an answer for another round: refused.
expect 65 at $((ROUND_AT + 97)) "$BIN" turn c --beacon-fetch --beacon-url "$URL/tampered"
has "$TMP/err" "/tampered/public/657413: beacon value fd1873a13f3545aeade8401532ef5519920652eee6b0d2b19ca12643b87b3587 is not SHA256 of the signature ($RAND)"
expect 65 at $((ROUND_AT + 97)) "$BIN" turn c --beacon-fetch --beacon-url "$URL/wrong-round/public/ROUND"
has "$TMP/err" "/wrong-round/public/657413: the answer is not round 657413's"
# By hand: a signature that does not hash to the value is refused too.
expect 65 at $((ROUND_AT + 97)) "$BIN" turn c --beacon "$RAND" --beacon-signature "${SIG%??}00"
has "$TMP/err" "turn 1: beacon round 657413: beacon value $RAND is not SHA256 of the signature"
expect 65 at $((ROUND_AT + 97)) "$BIN" turn c --beacon "$RAND" --beacon-signature "XYZ"
has "$TMP/err" "beacon signature 'XYZ' (lower-case hex"
expect 64 "$BIN" turn c --beacon-signature "$SIG"
[ "$(fingerprint c)" = "$before" ] || die "a refused fetch wrote something"

# The real round: fetched, checked, used, journaled with its signature.
expect 0 at $((ROUND_AT + 97)) "$BIN" turn c --beacon-fetch --beacon-url "$URL/$CHAIN"
has "$TMP/err" "umpire: beacon round 657413: randomness $RAND (SHA256 of its signature)"
has "$TMP/out" "Turn 1: "
grep -q "/$CHAIN/public/657413" http/requests || die "the round was not requested"
has c/journal/turn-0001.yaml "beacon_value: $RAND"
has c/journal/turn-0001.yaml "beacon_round: \"657413\""
has c/journal/turn-0001.yaml "beacon_signature: $SIG"
[ "$(sqlite3 c/.umpire/journal.sqlite "SELECT beacon_signature FROM turns WHERE turn = 1")" = "$SIG" ] \
    || die "the journal does not keep the signature"
# B_t = SHA256 of the value, as for any beacon value.
[ "$(grep '^beacon:' c/journal/turn-0001.yaml | cut -d' ' -f2)" = "$(printf %s "$RAND" | sha256sum | cut -d' ' -f1)" ] \
    || die "B_t is not SHA256 of the randomness"
# The player's check of drand's rule, by hand (docs/fairness.md, "The beacon's signature").
[ "$(printf %s "$SIG" | xxd -r -p | sha256sum | cut -d' ' -f1)" = "$RAND" ] \
    || die "SHA256 of the signature is not the randomness"

# umpire run --beacon-fetch on the copy: the same turn, byte for byte (same commit).
mkdir -p md/new md/cur md/tmp
expect 0 at $((ROUND_AT + 97)) "$BIN" run c-run --maildir md --beacon-fetch --beacon-url "$URL/$CHAIN"
has "$TMP/out" "turn 1: beacon round 657413 fetched: randomness $RAND"
[ "$(git -C c-run rev-parse HEAD)" = "$(git -C c rev-parse HEAD)" ] || die "run and turn differ"
# A second pass does nothing more.
expect 0 at $((ROUND_AT + 200)) "$BIN" run c-run --maildir md --beacon-fetch --beacon-url "$URL/$CHAIN"
[ "$(git -C c-run rev-parse HEAD)" = "$(git -C c rev-parse HEAD)" ] || die "a second run changed something"

# Both verifiers check the signature against the value: a clone whose turn commit was rewritten
# with another signature in the export fails on it (before the journal chain and commit id,
# which it breaks too).
git clone -q c clone
expect 3 "$BIN" verify clone
expect 3 node "$JSV" clone
has "$TMP/out" "turn 1: ok: close, key, digest, beacon round 657413, BLS signature checked, seed, "
expect 0 "$BIN" audit clone 1:0
has "$TMP/out" "signature $SIG: value = SHA256(signature): ok"
git clone -q c bad
sed -i "s/^beacon_signature: b7/beacon_signature: b8/" bad/journal/turn-0001.yaml
git -C bad commit -q --amend -a --no-edit
git -C bad tag -f turn-0001 >/dev/null
expect 65 "$BIN" verify bad
has "$TMP/out" "turn 1: journal/turn-0001.yaml: beacon round 657413: beacon value $RAND is not SHA256 of the signature"
expect 65 node "$JSV" bad
has "$TMP/out" "turn 1: beacon: journal/turn-0001.yaml: beacon_value $RAND is not SHA256 of beacon_signature"

# A journal from before the column gets it when opened (the old rows: no signature).
new_campaign harbour-raid old --entropy none
sqlite3 old/.umpire/journal.sqlite "ALTER TABLE turns DROP COLUMN beacon_signature"
expect 0 "$BIN" log old
[ "$(sqlite3 old/.umpire/journal.sqlite "SELECT count(*) FROM pragma_table_info('turns') WHERE name = 'beacon_signature'")" -eq 1 ] \
    || die "the beacon_signature column is not back"
expect 0 "$BIN" turn old "$A1"
[ "$(sqlite3 old/.umpire/journal.sqlite "SELECT count(*) FROM turns WHERE beacon_signature IS NULL")" -eq 2 ] \
    || die "rows without a signature"
