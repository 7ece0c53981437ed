# t_yaml_values.sh — issue 32 item 2: every value umpire writes to campaign.yaml is read back
# through the YAML parser, never by matching text. A property test over many secrets: 48
# random ones (a fixed seed: the run is the same each time) and two whose commitment begins
# with 0b (YAML would read 0b... as a number, so it is written quoted; about one campaign in
# 256 could not play a turn); then scenario titles YAML would read as something else than
# text (no, ~, null, yes, a date, 1e5, 0x1F, 0b101, 3:30, .inf). Each campaign is set up,
# plays turn 1 and passes `umpire verify`; the 0b ones and the titles also tools/umpire-verify.
# A 0b campaign also plays its turn by mail (inbox and run).
. "$ROOT/tests/e2e/lib.sh"
SRC=$ROOT/campaigns/aspenbach-1809
T1=$SRC/orders/turn-0001
python3 - <<'PY'
import hashlib, hmac, random
rng = random.Random(32)
def commitment(s, length=8):
    c = hmac.new(s, b"umpire/chain/v1", hashlib.sha256).digest()
    for _ in range(length):
        c = hashlib.sha256(c).digest()
    return c.hex()
out = [rng.randbytes(32) for _ in range(48)]
zero_b = []
while len(zero_b) < 2:
    s = rng.randbytes(32)
    if commitment(s).startswith("0b"):
        zero_b.append(s)
with open("secrets", "w") as f:
    for s in out:
        f.write("random %s\n" % s.hex())
    for s in zero_b:
        f.write("0b %s %s\n" % (s.hex(), commitment(s)))
PY
[ "$(grep -c '^0b ' secrets)" -eq 2 ] || die "no secret with a 0b commitment"

# play DIR SCENARIO SECRET: init (chain of 8, entropy none), turn 1, verify.
play1() {
    echo "$3" > secret.hex
    expect 0 "$BIN" init "$1" --scenario "$2" --secret-file secret.hex --entropy none --chain-length 8
    expect 0 "$BIN" turn "$1" "$T1/austrians.yaml" "$T1/french.yaml" --rulings "$T1/umpire.yaml"
    expect 3 "$BIN" verify "$1"
}
n=0
while read -r kind secret want; do
    n=$((n + 1))
    play1 "c$n" "$SRC/scenario.yaml" "$secret"
    if [ "$kind" = 0b ]; then
        has "c$n/campaign.yaml" "commitment: \"$want\""
        expect 3 node "$JSV" "c$n"
    fi
    rm -rf "c$n"
done < secrets
[ $n -eq 50 ] || die "$n campaigns played (50 expected)"

# Titles that are no text to a YAML reader unless quoted.
secret=$(head -n 1 secrets | cut -d' ' -f2)
i=0
for title in no '~' null yes 2026-11-29 1e5 0x1F 0b101 3:30 .inf; do
    i=$((i + 1))
    sed "s|^title: .*|title: \"$title\"|" "$SRC/scenario.yaml" > s$i.yaml
    play1 t$i s$i.yaml "$secret"
    has t$i/campaign.yaml "title: \"$title\""
    expect 3 node "$JSV" t$i
done
# By mail: a 0b campaign takes both players' orders through the inbox and `run` plays the turn.
B=$ROOT/campaigns/bewcastle-fray
with_emails "$B/scenario.yaml" armstrong=blood@example.org forster=governor@example.org > mail.yaml
printf 'mail:\n  from: umpire@example.org\n' >> mail.yaml
grep '^0b ' secrets | head -n 1 | cut -d' ' -f2 > secret.hex
want=$(grep '^0b ' secrets | head -n 1 | cut -d' ' -f3)
expect 0 "$BIN" init m --scenario mail.yaml --secret-file secret.hex --entropy none --chain-length 8
has m/campaign.yaml "commitment: \"$want\""
python3 "$ROOT/tests/e2e/mail/deliver.py" md blood@example.org "$B/orders/turn-0001/armstrong.yaml" o1 1767225000
python3 "$ROOT/tests/e2e/mail/deliver.py" md governor@example.org "$B/orders/turn-0001/forster.yaml" o2 1767225060
expect 0 "$BIN" run m --maildir md
has "$TMP/out" "inbox: turn 1: 2 accepted, 0 refused"
git -C m rev-parse -q --verify turn-0001 >/dev/null || die "run did not play turn 1 of the 0b campaign"
expect 3 "$BIN" verify m
expect 3 node "$JSV" m

echo "50 secrets (2 with a 0b commitment) and $i YAML-ambiguous titles: each set up, played and verified"
