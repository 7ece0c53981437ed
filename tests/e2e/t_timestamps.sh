# t_timestamps.sh — RFC 3161 time stamps of each close (docs/fairness.md, "Time stamps"): a
# witness that needs no mail. A real time-stamp authority made with `openssl ts` on a test CA
# (tests/tsa/make-tsa.sh) answers over HTTP on 127.0.0.1 (tests/tsa/tsa-server.py); campaign.yaml
# names it (init --tsa), `umpire close` commits its token beside the close file, and both
# verifiers check every token offline: with --trust-tsa testca.pem it witnesses the close,
# without it (the test CA chains to no root of ca-certificates) it does not count; a token with
# flipped bytes, the token of another close and one stamped before the close fail both. An
# authority that is down (connection refused), one that stalls and one that answers garbage
# leave the close without their token, said in a note, the close not held up.
. "$ROOT/tests/e2e/lib.sh"
command -v openssl >/dev/null || skip "no openssl command: the test authority is made with it"
HR="$ROOT/campaigns/harbour-raid"
JS="$JSV"

sh "$ROOT/tests/tsa/make-tsa.sh" tsa
/usr/bin/python3 "$ROOT/tests/tsa/tsa-server.py" tsa http & server=$!
trap 'kill $server 2>/dev/null || true' EXIT
i=0; while [ ! -f http/port ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
[ -f http/port ] || die "the time-stamp server did not start"
URL="http://127.0.0.1:$(cat http/port)"

# init: --tsa [NAME=]URL, repeatable, written to campaign.yaml; a bad one refused.
expect 64 "$BIN" init bad --scenario "$HR/scenario.yaml" --tsa ftp://example.org/tsa
has "$TMP/err" "--tsa 'ftp://example.org/tsa': url is not http:// or https://"
expect 64 "$BIN" init bad --scenario "$HR/scenario.yaml" --entropy none --tsa "$URL/"
has "$TMP/err" "--tsa needs closed turns"
expect 64 "$BIN" init bad --scenario "$HR/scenario.yaml" --tsa "$URL/" --tsa "$URL/x"
has "$TMP/err" "name is given twice"
[ ! -e bad ] || die "a refused init made a campaign"

# The umpire's clock is the real one here: the authority's genTime is.
NOW=$(date +%s)
export SOURCE_DATE_EPOCH=$NOW
expect 0 "$BIN" init c --scenario "$HR/scenario.yaml" --secret-file "$HR/demo.secret" \
    --visibility open --demo-beacon --tsa "test=$URL/" --tsa down=http://127.0.0.1:1/tsa \
    --tsa "junk=$URL/garbage" --tsa "stall=$URL/stall"
has "$TMP/out" "time stamps: each close is time-stamped by test ($URL/)"
grep -q '^  timestamps:$' c/campaign.yaml || die "campaign.yaml names no timestamps"
has c/campaign.yaml "  - name: down"

# Turn 1 closed: the test authority's token committed with the close; the others said.
export UMPIRE_TSA_TIMEOUT=2
expect 0 "$BIN" close c "$HR/orders/turn-0001/attacker.yaml"
has "$TMP/out" "time stamps: 1 of 4 authorities committed with the close"
has "$TMP/err" "umpire: note: turn 1 closed without a time stamp from down: cannot post to http://127.0.0.1:1/tsa:"
has "$TMP/err" "umpire: note: turn 1 closed without a time stamp from junk: its answer from $URL/garbage is refused: not a granted RFC 3161 time-stamp response"
has "$TMP/err" "umpire: note: turn 1 closed without a time stamp from stall: cannot post to $URL/stall:"
[ "$(git -C c show --format= --name-only close-0001 | sort | tr '\n' ' ')" = \
  "journal/turn-0001.close.test.tsr journal/turn-0001.close.yaml " ] ||
    die "close-0001 does not hold exactly the close file and its token"
grep -q '^/stall$' http/requests || die "the stalling authority was not asked"
# The token is the authority's answer for the close file's bytes: openssl itself says so.
openssl ts -verify -data c/journal/turn-0001.close.yaml -in c/journal/turn-0001.close.test.tsr \
    -CAfile tsa/testca.pem >/dev/null 2>&1 || die "openssl does not verify the committed token"

# The turn, once its round is out (the demo beacon signs any round).
round=$(sed -n 's/^  round: //p' c/journal/turn-0001.close.yaml)
round_at=$(sed -n 's/^  round_at: //p' c/journal/turn-0001.close.yaml)
beacon=$("$ROOT/tools/demo-beacon" "$round")
expect 0 env SOURCE_DATE_EPOCH=$((round_at + 5)) "$BIN" turn c \
    --beacon "$(echo "$beacon" | sed -n 1p)" --beacon-signature "$(echo "$beacon" | sed -n 2p)"
# Turn 2 closed and awaiting its round: the closes tampered with below.
# (the real clock again: a close names its time, the turn before ran at its round's)
expect 0 env SOURCE_DATE_EPOCH="$(date +%s)" "$BIN" close c --allow-missing
has "$TMP/out" "time stamps: 1 of 4 authorities committed with the close"
git clone -q c cl

# Both verifiers: without --trust-tsa the test authority's token is sound but no witness; with
# its CA (or its own certificate) it witnesses each close. The same lines in both.
stamps() { grep -E '^turn [0-9]+: (time stamp|no time stamp)' "$1"; }
expect 3 "$BIN" verify cl
has "$TMP/out" "turn 1: time stamp (test, genTime "
has "$TMP/out" "): no witness: its signer does not chain to an authority this verifier trusts (give its certificate with --trust-tsa CERT.pem)"
has "$TMP/out" "turn 2: no time stamp from down (it did not answer the close)"
stamps "$TMP/out" > c.lines
expect 3 node "$JS" cl
stamps "$TMP/out" > js.lines
diff c.lines js.lines || die "the verifiers differ on the time stamps (untrusted)"
for cert in tsa/testca.pem tsa/tsa.pem; do
    expect 3 "$BIN" verify cl --trust-tsa "$cert"
    [ "$(grep -c '): witnesses the close$' "$TMP/out")" -eq 2 ] || { cat "$TMP/out"; die "not both closes witnessed with $cert"; }
    stamps "$TMP/out" > c.lines
    expect 3 node "$JS" cl --trust-tsa "$cert"
    stamps "$TMP/out" > js.lines
    diff c.lines js.lines || die "the verifiers differ on the time stamps ($cert)"
done
# Another CA's certificate makes no witness; a file that is no certificate is refused.
expect 3 "$BIN" verify cl --trust-tsa tsa/otherca.pem
has "$TMP/out" "): no witness: its signer does not chain"
echo "not a certificate" > junk.pem
expect 65 "$BIN" verify cl --trust-tsa junk.pem
has "$TMP/err" "--trust-tsa junk.pem: no PEM certificate in it"
expect 65 node "$JS" cl --trust-tsa junk.pem
has "$TMP/err" "--trust-tsa junk.pem: no PEM certificate in it"

# retoken CLONE BYTES-FILE: the pending close-0002 of CLONE made again with BYTES-FILE as its
# test token (main and the tag moved), as an umpire rewriting his close would.
retoken() {
    cp "$2" "$1/journal/turn-0002.close.test.tsr"
    git -C "$1" commit -q --amend --no-edit -a
    git -C "$1" tag -f close-0002 >/dev/null
}
TOK=c/journal/turn-0002.close.test.tsr
# A token with a byte of its signature flipped: altered.
rm -rf t1 && git clone -q c t1
python3 -c 'import sys; b = bytearray(open(sys.argv[1], "rb").read()); b[-5] ^= 1; open(sys.argv[2], "wb").write(b)' "$TOK" flipped.tsr
retoken t1 flipped.tsr
both_fail t1 --trust-tsa tsa/testca.pem
has "$TMP/out" "verify: FAILED: turn 2: journal/turn-0002.close.test.tsr: its signature does not verify under the certificate it carries: the token was altered"
has "$TMP/js.out" "verify: FAILED: turn 2: journal/turn-0002.close.test.tsr: its signature does not verify under the certificate it carries: the token was altered"
# Bytes that are no time-stamp response at all.
rm -rf t2 && git clone -q c t2
head -c 100 "$TOK" > cut.tsr
retoken t2 cut.tsr
both_fail t2
has "$TMP/out" "verify: FAILED: turn 2: journal/turn-0002.close.test.tsr: not a granted RFC 3161 time-stamp response"
has "$TMP/js.out" "verify: FAILED: turn 2: journal/turn-0002.close.test.tsr: not a granted RFC 3161 time-stamp response"
# The token of another close (turn 1's): its imprint is not this close file's.
rm -rf t3 && git clone -q c t3
retoken t3 c/journal/turn-0001.close.test.tsr
both_fail t3 --trust-tsa tsa/testca.pem
d1=$(sha256sum c/journal/turn-0001.close.yaml | cut -c1-64)
d2=$(sha256sum c/journal/turn-0002.close.yaml | cut -c1-64)
has "$TMP/out" "verify: FAILED: turn 2: journal/turn-0002.close.test.tsr: a time stamp of other bytes (imprint $d1), not of the close file (SHA-256 $d2)"
has "$TMP/js.out" "verify: FAILED: turn 2: journal/turn-0002.close.test.tsr: a time stamp of other bytes (imprint $d1), not of the close file (SHA-256 $d2)"
# A close commit holding a token of an authority campaign.yaml does not name.
rm -rf t4 && git clone -q c t4
cp "$TOK" t4/journal/turn-0002.close.other.tsr
git -C t4 add journal/turn-0002.close.other.tsr
git -C t4 commit -q --amend --no-edit
git -C t4 tag -f close-0002 >/dev/null
both_fail t4
has "$TMP/out" "the close rebuilds to"
has "$TMP/js.out" "a close commit adds exactly journal/turn-0002.close.yaml and journal/turn-0002.close.test.tsr"

# A close whose closed_at is later than the authority's clock (the umpire's clock an hour
# ahead): umpire does not commit a token verifiers would fail, and says why.
expect 0 env SOURCE_DATE_EPOCH=$((NOW + 3600)) "$BIN" init d --scenario "$HR/scenario.yaml" \
    --secret-file "$HR/demo.secret" --visibility open --demo-beacon --tsa "test=$URL/"
expect 0 env SOURCE_DATE_EPOCH=$((NOW + 3600)) "$BIN" close d "$HR/orders/turn-0001/attacker.yaml"
has "$TMP/out" "time stamps: 0 of 1 authorities committed with the close"
has "$TMP/err" "umpire: note: turn 1 closed without a time stamp from test: its genTime "
has "$TMP/err" "is before the close (the close is at $((NOW + 3600))"
# Forged in by hand (the token made for the close file's bytes, before its closed_at): both
# verifiers fail the close as made before the time it claims.
openssl ts -query -data d/journal/turn-0001.close.yaml -sha256 -cert -out q.tsq 2>/dev/null
openssl ts -reply -queryfile q.tsq -config tsa/tsa.cnf -out early.tsr 2>/dev/null
cp early.tsr d/journal/turn-0001.close.test.tsr
git -C d add journal/turn-0001.close.test.tsr
git -C d commit -q --amend --no-edit
git -C d tag -f close-0001 >/dev/null
rm -rf dl && git clone -q d dl
both_fail dl --trust-tsa tsa/testca.pem
has "$TMP/out" "verify: FAILED: turn 1: journal/turn-0001.close.test.tsr: genTime "
has "$TMP/out" "is before the close's closed_at $(date -u -d "@$((NOW + 3600))" '+%Y-%m-%dT%H:%M:%SZ'): the close file existed before the time it claims"
grep -F "verify: FAILED: turn 1: journal/turn-0001.close.test.tsr: genTime " "$TMP/js.out" |
    grep -qF "is before the close's closed_at" || { cat "$TMP/js.out"; die "umpire-verify: no genTime failure"; }

# A close made an hour ago whose round (600 s later) is out: a token now comes too late.
# umpire leaves it out; forged in, both verifiers fail it.
expect 0 env SOURCE_DATE_EPOCH=$((NOW - 3600)) "$BIN" init e --scenario "$HR/scenario.yaml" \
    --secret-file "$HR/demo.secret" --visibility open --demo-beacon --tsa "test=$URL/"
expect 0 env SOURCE_DATE_EPOCH=$((NOW - 3600)) "$BIN" close e "$HR/orders/turn-0001/attacker.yaml"
has "$TMP/out" "time stamps: 0 of 1 authorities committed with the close"
has "$TMP/err" "umpire: note: turn 1 closed without a time stamp from test: its genTime "
has "$TMP/err" " is too late (the close is at $((NOW - 3600))"
late_round=$(sed -n 's/^  round: //p' e/journal/turn-0001.close.yaml)
late_at=$(sed -n 's/^  round_at: //p' e/journal/turn-0001.close.yaml)
openssl ts -query -data e/journal/turn-0001.close.yaml -sha256 -cert -out q2.tsq 2>/dev/null
openssl ts -reply -queryfile q2.tsq -config tsa/tsa.cnf -out late.tsr 2>/dev/null
cp late.tsr e/journal/turn-0001.close.test.tsr
git -C e add journal/turn-0001.close.test.tsr
git -C e commit -q --amend --no-edit
git -C e tag -f close-0001 >/dev/null
rm -rf el && git clone -q e el
both_fail el --trust-tsa tsa/testca.pem
for f in "$TMP/out" "$TMP/js.out"; do
    grep -F "FAILED: turn 1: journal/turn-0001.close.test.tsr: genTime " "$f" |
        grep -qF "is not before $(date -u -d "@$late_at" '+%Y-%m-%dT%H:%M:%SZ') (when beacon round $late_round was out): a close stamped after its randomness could be known witnesses nothing" ||
        { cat "$f"; die "no too-late failure in $f"; }
done

# umpire run closes by the schedule (turn 1's deadline passed, missing no-orders) and
# time-stamps the close the same way; the authority that is down is said.
NOW=$(date +%s)
{ cat "$HR/scenario.yaml"
  printf 'schedule:\n  first_deadline: %s\n  every: 1d\n  missing: no-orders\n' \
      "$(date -u -d "@$((NOW - 120))" +%Y-%m-%dT%H:%M:%SZ)"; } > sched.yaml
mkdir -p md/new md/cur md/tmp
expect 0 env SOURCE_DATE_EPOCH=$((NOW - 200)) "$BIN" init r --scenario sched.yaml \
    --secret-file "$HR/demo.secret" --visibility open --demo-beacon --tsa "test=$URL/" \
    --tsa down=http://127.0.0.1:1/tsa
expect 0 env SOURCE_DATE_EPOCH="$NOW" "$BIN" run r --maildir md
has "$TMP/out" "turn 1: closed with 0 order files"
has "$TMP/err" "umpire: note: turn 1 closed without a time stamp from down: cannot post to http://127.0.0.1:1/tsa:"
git -C r show --format= --name-only close-0001 | grep -qx journal/turn-0001.close.test.tsr ||
    die "umpire run committed no time stamp with the close"
rm -rf rl && git clone -q r rl
expect 3 "$BIN" verify rl --trust-tsa tsa/testca.pem
has "$TMP/out" "turn 1: time stamp (test, genTime "
has "$TMP/out" "): witnesses the close"
echo ok
