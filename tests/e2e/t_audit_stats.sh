# umpire audit explains a die step by step (text and --json), every value recomputed here in
# Python's standard library; the rejection display on the 2^63+1-sided vector of
# tests/vectors/fairness.json; audit on a clone and on a tampered clone. umpire stats: counts
# per face and the chi-square p-value against an independent computation, the filters, and a
# verdict that fails on loaded dice.
. "$ROOT/tests/e2e/lib.sh"
C="$TMP/c"
# open, one step a turn: the order files are in the commits, B_t is zero; the turns whose
# orders stay valid under those dice (the demo itself plays sealed, with a beacon)
new_campaign harbour-raid "$C" --entropy none --visibility open; play harbour-raid "$C" 3
N=$(git -C "$C" tag -l 'turn-*' | grep -vc '^turn-0000$')
[ "$N" -ge 2 ] || die "harbour-raid played $N turns (2 or more expected)"

# die FILE J: "sides value x_hex" of die J of the export FILE, recomputed from its seed.
die_ref() {
    python3 - "$1" "$2" <<'EOF'
import hashlib, hmac, re, sys
text = open(sys.argv[1]).read()
j = int(sys.argv[2])
seed = bytes.fromhex(re.search(r"^seed: (\w+)", text, re.M).group(1))
sides = [int(s) for s in re.findall(r"^  sides: (\d+)", text, re.M)][j]
limit, a = 2**64 - 2**64 % sides, 0
while True:
    x = int.from_bytes(hmac.new(seed, b"umpire/die/v1" + j.to_bytes(8, "big") + a.to_bytes(4, "big"),
                                hashlib.sha256).digest()[:8], "big")
    if x < limit:
        break
    a += 1
print(sides, 1 + x % sides, "%016x" % x, a)
EOF
}

E="$C/journal/turn-0002.yaml"
n2=$(grep -c '^  value: ' "$E")
J=$((n2 / 2))
set -- $(die_ref "$E" "$J"); sides=$1; value=$2; xhex=$3
[ "$(sed -n 's/^  value: //p' "$E" | sed -n "$((J + 1))p")" = "$value" ] ||
    die "the export's die $J is not the recomputed $value"
key=$(sed -n 's/^key: //p' "$E")
seed=$(sed -n 's/^seed: //p' "$E")
digest=$(sed -n 's/^orders_digest: //p' "$E")
commitment=$(sed -n 's/^  commitment: //p' "$C/campaign.yaml")
purpose=$(python3 -c 'import re,sys; print(re.findall(r"^  for: \"(.*)\"$", open(sys.argv[1]).read(), re.M)[int(sys.argv[2])])' "$E" "$J")

# Text, on the umpire's copy.
expect 0 "$BIN" audit "$C" "2:$J"
has "$TMP/out" "die $J of turn 2, campaign harbour-raid (journal/turn-0002.yaml at turn-0002)"
has "$TMP/out" "key      k_2 = $key"
has "$TMP/out" "SHA256 applied 2 times = $commitment"
has "$TMP/out" "fairness.commitment = $commitment: ok"
has "$TMP/out" "= k_1 of journal/turn-0001.yaml: ok"
has "$TMP/out" "D_2 = SHA256 of id || 0x00 || sha256 for each, by id = $digest: ok"
for f in "$C"/orders/turn-0002/*.yaml; do
    has "$TMP/out" "sha256 $(sha256sum < "$f" | cut -c1-64)  orders/turn-0002/$(basename "$f"): ok"
done
has "$TMP/out" "beacon   none: B_2 = 32 zero bytes: ok"
has "$TMP/out" "= $seed: ok"
has "$TMP/out" "limit = 2^64 - (2^64 mod n) = 18446744073709551616 - 4 = 18446744073709551612"
has "$TMP/out" "block a = 0: HMAC(s_2, \"umpire/die/v1\" || be64($J) || be32(0))"
has "$TMP/out" "x = 0x$xhex = $(python3 -c "print(int('$xhex', 16))") < limit: accepted"
has "$TMP/out" "value = 1 + x mod n = 1 + $((value - 1)) = $value"
has "$TMP/out" "journal/turn-0002.yaml: d$sides = $value: ok"
has "$TMP/out" "the SQLite journal: d$sides = $value: ok"
has "$TMP/out" "for      \"$purpose\""
has "$TMP/out" "decided  drawn in phase '"
grep -q '^         >  *[0-9]* \[' "$TMP/out" || die "no event marked as the one reporting the die"
has "$TMP/out" "verdict: ok: the die follows from the committed key, orders and beacon"

# JSON.
expect 0 "$BIN" audit "$C" "2:$J" --json
python3 - "$TMP/out" "$J" "$sides" "$value" "$xhex" "$key" "$digest" "$seed" "$purpose" <<'EOF'
import json, sys
o = json.load(open(sys.argv[1]))
j, sides, value, xhex, key, digest, seed, purpose = sys.argv[2:]
assert o["ok"] is True and o["turn"] == 2 and o["index"] == int(j), o
assert o["key"]["key"] == key and o["key"]["ok"] and o["key"]["hashes"] == 2
assert o["orders"]["digest"] == digest and o["orders"]["ok"]
assert all(p["ok"] for p in o["orders"]["players"])
assert o["beacon"]["value"] is None and o["beacon"]["ok"]
assert o["seed"]["seed"] == seed and o["seed"]["ok"]
d = o["die"]
assert d["sides"] == int(sides) and d["value"] == int(value) and d["recorded"] == int(value)
assert d["limit"] == str(2**64 - 2**64 % int(sides))
assert d["blocks"][-1]["x_hex"] == xhex and d["blocks"][-1]["accepted"] is True
assert d["blocks"][-1]["x"] == str(int(xhex, 16))
assert o["journal"]["ok"] and o["journal"]["value"] == int(value)
assert o["decided"]["for"] == purpose and o["decided"]["phase"]
assert o["decided"]["reported_by"]["phase"] == o["decided"]["phase"]
assert all(e["phase"] == o["decided"]["phase"] for e in o["decided"]["events"])
EOF

# On a clone (no SQLite journal line), and on a clone whose export was tampered with.
git clone -q "$C" "$TMP/cl"
expect 0 "$BIN" audit "$TMP/cl" "2:$J"
has "$TMP/out" "journal/turn-0002.yaml: d$sides = $value: ok"
if grep -q "SQLite" "$TMP/out"; then die "a clone has no SQLite journal"; fi
awk -v k="$J" '/^  value: / { if (n++ == k) { $0 = "  value: " ($2 % 6) + 1 } } { print }' \
    "$E" > "$TMP/cl/journal/turn-0002.yaml"
git -C "$TMP/cl" -c user.name=m -c user.email=m@example.org commit -qam tamper
git -C "$TMP/cl" tag -f turn-0002 >/dev/null
expect 65 "$BIN" audit "$TMP/cl" "2:$J"
has "$TMP/out" "journal/turn-0002.yaml: d6 = $((value % 6 + 1)): DIFFERS"
has "$TMP/out" "verdict: DIFFERS"

# Usage errors and a die that does not exist.
expect 64 "$BIN" audit "$C" "2"
expect 64 "$BIN" audit "$C" "0:1"
expect 66 "$BIN" audit "$C" "2:$n2"; has "$TMP/err" "turn 2 drew $n2 dice"
expect 66 "$BIN" audit "$C" "$((N + 1)):0"

# Rejection: die j = 4 of the 2^63+1-sided vector needs 6 blocks, 5 of them rejected.
V="$ROOT/tests/vectors/fairness.json"
vec=$(python3 -c '
import json, sys
r = [c for c in json.load(open(sys.argv[1]))["rejection"] if c["j"] == 4][0]
print(r["seed_hex"], r["j"], r["sides"], r["value"], r["limit"], " ".join("%s:%d" % (b["x_hex"], b["accepted"]) for b in r["blocks"]))' "$V")
set -- $vec; vseed=$1; vj=$2; vn=$3; vvalue=$4; vlimit=$5; shift 5
expect 0 "$BIN" audit --vector "$vseed:$vj:$vn"
has "$TMP/out" "limit = 2^64 - (2^64 mod n) = 18446744073709551616 - $(python3 -c "print(2**64 % $vn)") = $vlimit"
a=0
for b in "$@"; do
    x=${b%:*}; acc=${b#*:}
    has "$TMP/out" "block a = $a: HMAC(s, \"umpire/die/v1\" || be64($vj) || be32($a))"
    if [ "$acc" = 1 ]; then has "$TMP/out" "x = 0x$x = "; has "$TMP/out" " < limit: accepted"
    else grep -q "x = 0x$x = [0-9]* >= limit: rejected" "$TMP/out" || die "block $a not rejected"; fi
    a=$((a + 1))
done
[ "$a" -eq 6 ] || die "the vector has $a blocks (6 expected)"
[ "$(grep -c ' >= limit: rejected' "$TMP/out")" -eq 5 ] || die "5 rejected blocks expected"
has "$TMP/out" "value = 1 + x mod n = 1 + $(python3 -c "print($vvalue - 1)") = $vvalue"
expect 0 "$BIN" audit --vector "$vseed:$vj:$vn" --json
python3 - "$TMP/out" "$V" <<'EOF'
import json, sys
o = json.load(open(sys.argv[1]))
r = [c for c in json.load(open(sys.argv[2]))["rejection"] if c["j"] == 4][0]
d = o["die"]
assert d["sides"] == str(r["sides"]) and d["limit"] == str(r["limit"]), d
assert [(b["message"], b["x"], b["accepted"]) for b in d["blocks"]] == \
    [(b["message_hex"], str(b["x"]), b["accepted"]) for b in r["blocks"]], d["blocks"]
assert d["value"] == r["value"]
EOF
expect 64 "$BIN" audit --vector "$vseed:$vj:1"

# stats: counts per face, expected counts, chi-square and p against Python.
expect 0 "$BIN" stats "$C"
python3 - "$TMP/out" "$C" "$N" <<'EOF'
import glob, math, re, sys
out = open(sys.argv[1]).read()
counts, total = [0] * 6, 0
for f in sorted(glob.glob(sys.argv[2] + "/journal/turn-*.yaml")):
    t = open(f).read()
    for s, v in zip(re.findall(r"^  sides: (\d+)", t, re.M), re.findall(r"^  value: (\d+)", t, re.M)):
        assert s == "6", "harbour-raid rolls only d6"
        counts[int(v) - 1] += 1
        total += 1
n = int(sys.argv[3])
assert "campaign harbour-raid: %d turns, %d dice\n" % (n, total) in out, out
e = total / 6
assert "d6: %d dice, %.2f expected per face" % (total, e) in out, out
for face, c in enumerate(counts, 1):
    assert re.search(r"^ +%d +%d +%.2f +" % (face, c, e), out, re.M), (face, c, out)
chi2 = sum((c - e) ** 2 / e for c in counts)
# survival function of chi-square with 5 degrees of freedom, closed form
p = math.erfc(math.sqrt(chi2 / 2)) + math.sqrt(2 * chi2 / math.pi) * math.exp(-chi2 / 2) * (1 + chi2 / 3)
m = re.search(r"chi-square = ([\d.]+) with 5 degrees of freedom: p = ([\d.e-]+)", out)
assert m and abs(float(m.group(1)) - chi2) < 5e-4, (m and m.group(1), chi2)
assert abs(float(m.group(2)) - p) < 1e-3 * max(p, 1e-3), (m.group(2), p)
want = "consistent with fair dice at the 1% level" if p >= 0.01 else "NOT consistent"
assert ("verdict: " + want) in out, out
EOF

# Filters: size, purpose text, player (the turns whose orders from P were resolved).
total=$(sed -n 's/^campaign harbour-raid: [0-9]* turns, \([0-9]*\) dice$/\1/p' "$TMP/out")
expect 0 "$BIN" stats "$C" --sides 6; has "$TMP/out" "turns, $total dice (d6)"
expect 0 "$BIN" stats "$C" --sides 20; has "$TMP/out" "turns, 0 dice (d20)"
has "$TMP/out" "verdict: too few dice to test"
shoot=$(cat "$C"/journal/turn-*.yaml | grep -c '^  for: "Land Raid §22 Shooting' || true)
[ "$shoot" -ge 1 ] || die "no shooting dice in harbour-raid"
expect 0 "$BIN" stats "$C" --for "Land Raid §22 Shooting"
has "$TMP/out" "turns, $shoot dice (for contains \"Land Raid §22 Shooting\")"
sum=0
for p in attacker defender; do
    mine=$(python3 - "$C" "$p" <<'EOF'
import glob, re, sys
n = 0
for f in glob.glob(sys.argv[1] + "/journal/turn-*.yaml"):
    t = open(f).read()
    if re.search(r"- player: %s\n  received: true" % sys.argv[2], t):
        n += len(re.findall(r"^  for: \"(?!umpire ruling )", t, re.M))
print(n)
EOF
)
    expect 0 "$BIN" stats "$C" --player "$p"
    has "$TMP/out" "turns, $mine dice (player $p)"
    sum=$((sum + mine))
done
[ "$sum" -eq "$total" ] || die "attacker and defender dice ($sum) do not add up to $total"
expect 0 "$BIN" stats "$C" --player umpire; has "$TMP/out" "turns, 0 dice (player umpire)"
expect 64 "$BIN" stats "$C" --player nobody
expect 64 "$BIN" stats "$C" --sides 1
expect 0 "$BIN" stats "$TMP/cl" --sides 6; has "$TMP/out" "turns, $total dice (d6)"

# An umpire ruling and a turn with a missing player: audit ties the ruling's die to its event,
# stats counts it as the umpire's, verify and replay re-resolve both.
U="$TMP/u"
new_campaign harbour-raid "$U" --entropy none --visibility open
printf 'campaign: harbour-raid\nturn: 1\nplayer: umpire\norders:\n  - roll: 3d6kh2+1\n    for: storm at sea\n' > "$TMP/u1.yaml"
"$BIN" turn "$U" --allow-missing --rulings "$TMP/u1.yaml" >/dev/null
has "$U/journal/turn-0001.yaml" "received: false"
expect 0 "$BIN" audit "$U" 1:1
has "$TMP/out" 'for      "umpire ruling 1: storm at sea (3d6kh2+1) [2/3]"'
has "$TMP/out" "decided  drawn in phase 'umpire'; reported by event 0"
grep -q '^         >   0 \[umpire\] storm at sea: 3d6kh2+1 = ' "$TMP/out" || die "ruling event not marked"
expect 0 "$BIN" stats "$U" --player umpire; has "$TMP/out" "1 turn, 3 dice (player umpire)"
expect 0 "$BIN" stats "$U" --player attacker; has "$TMP/out" "1 turn, 0 dice (player attacker)"
expect 3 "$BIN" verify "$U"; has "$TMP/out" "verify: ok: campaign harbour-raid: 1 turn, "
expect 0 "$BIN" replay "$U"

# Loaded dice fail the test: a clone whose exports all say 6.
git clone -q "$C" "$TMP/loaded"
t=1
while [ "$t" -le "$N" ]; do
    tag=$(printf 'turn-%04d' "$t")
    sed -i 's/^  value: .*/  value: 6/' "$TMP/loaded/journal/$tag.yaml"
    git -C "$TMP/loaded" -c user.name=m -c user.email=m@example.org commit -qam loaded
    git -C "$TMP/loaded" tag -f "$tag" >/dev/null
    t=$((t + 1))
done
expect 0 "$BIN" stats "$TMP/loaded"
has "$TMP/out" "verdict: NOT consistent with fair dice at the 1% level: d6 (p = "
expect 65 "$BIN" verify "$TMP/loaded"
