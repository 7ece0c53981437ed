# The README, run. "The first hour": every command of its console blocks, exactly as shown,
# in a scrubbed environment (env -i: no HOME settings, no SOURCE_DATE_EPOCH, PATH with umpire
# installed by `make install PREFIX=...`), from a copy of the source's campaigns/, to the
# resolved offline turn and the refusal before the beacon round is out.
# docs/guide-umpire.md's "A worked turn" (the README's, before it moved there): init with the default entropy (beacon) and visibility (sealed), check,
# close ten minutes before drand quicknet's round 657413 was out (September 2023: the clock
# set back so that a real round, recorded in tests/e2e/beacon/, is the one the close names),
# then the turn with that round's value and signature, checked against quicknet's key; what the players' clones and the attacker's outbox hold; the reveal.
# Every output either page shows is checked line by line (tests/e2e/readme_check.py): in
# order, adjacent, and every line left out marked by a `…` line.
. "$ROOT/tests/e2e/lib.sh"
py=python3; [ -x /usr/bin/python3 ] && py=/usr/bin/python3
cd "$TMP"
mkdir -p rec
: > rec/index
n=0
# rec README-COMMAND CMD...: runs CMD (stdout and stderr, in order) for the README's command.
rec() {
    n=$((n + 1)); _key=$1; shift
    "$@" > "$TMP/rec/$n" 2>&1 || true
    printf '%s\t%s\n' "$_key" "$TMP/rec/$n" >> "$TMP/rec/index"
}

# --- The first hour -----------------------------------------------------------------------
make -s -C "$ROOT" --no-print-directory install PREFIX="$TMP/prefix" > make.log 2>&1 ||
    { cat make.log >&2; die "make install PREFIX=... failed"; }
mkdir qs qs-home
cp -r "$ROOT/campaigns" qs/
awk '/^```/ { fence = !fence } /^## / && !fence { on = ($0 == "## The first hour"); next }
    on && fence && /^\$ / { sub(/^\$ /, ""); print }' "$ROOT/README.md" > first-hour.txt
[ "$(wc -l < first-hour.txt)" -ge 6 ] || die "no commands in the README's first hour"
cd qs
while IFS= read -r cmd; do
    rec "$cmd" env -i HOME="$TMP/qs-home" PATH="$TMP/prefix/bin:/usr/bin:/bin" LC_ALL=C sh -c "$cmd"
done < ../first-hour.txt
cd "$TMP"
git -C qs/try rev-parse -q --verify turn-0001 > /dev/null || die "the first hour's offline turn was not resolved"
expect 0 "$py" "$ROOT/tests/e2e/readme_check.py" "$ROOT/README.md" "## The first hour" rec/index

# --- A worked turn --------------------------------------------------------------------------
: > rec/index
B="$ROOT/campaigns/harbour-raid"
ROUND=$ROOT/tests/e2e/beacon/52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971/public/657413
value=$(sed 's/.*"randomness":"\([0-9a-f]*\)".*/\1/' "$ROUND")
signature=$(sed 's/.*"signature":"\([0-9a-f]*\)".*/\1/' "$ROUND")
rec "umpire init harbour --scenario campaigns/harbour-raid/scenario.yaml" \
    env SOURCE_DATE_EPOCH=1694770000 "$BIN" init harbour --scenario "$B/scenario.yaml" --secret-file "$B/demo.secret"
cp "$B/orders/turn-0001/attacker.yaml" .
rec "umpire check harbour attacker.yaml" "$BIN" check harbour attacker.yaml
rec "sed 's/move: B2/move: Z9/' attacker.yaml > bad.yaml; umpire check harbour bad.yaml" \
    sh -c "sed 's/move: B2/move: Z9/' attacker.yaml > bad.yaml; '$BIN' check harbour bad.yaml"
rec "umpire close harbour attacker.yaml" env SOURCE_DATE_EPOCH=1694775003 "$BIN" close harbour attacker.yaml
rec "umpire turn harbour --beacon $value --beacon-signature $signature" \
    env SOURCE_DATE_EPOCH=1694775700 "$BIN" turn harbour --beacon "$value" --beacon-signature "$signature"
# the receipt the attacker keeps: the close's output from its first line to the blank line
awk -F '\t' '$1 == "umpire close harbour attacker.yaml" { print $2 }' rec/index | while read -r f; do
    awk '/^# umpire receipt/ { p = 1 } p && /^$/ { exit } p' "$f" > receipt.yaml
done
[ -s receipt.yaml ] || die "no receipt in the close's output"
rec "umpire verify harbour --receipt receipt.yaml" "$BIN" verify harbour --receipt receipt.yaml
rec "git -C harbour ls-tree -r --name-only turn-0001" git -C harbour ls-tree -r --name-only turn-0001
rec "ls harbour/.umpire/outbox/attacker/turn-0001" ls harbour/.umpire/outbox/attacker/turn-0001
rec "markdown:1" cat harbour/.umpire/outbox/attacker/turn-0001/report.md
rec "umpire verify harbour --view harbour/.umpire/outbox/attacker/turn-0001" \
    "$BIN" verify harbour --view harbour/.umpire/outbox/attacker/turn-0001
rec "umpire reveal harbour" "$BIN" reveal harbour
rec "git -C harbour ls-tree -r --name-only reveal reveal" git -C harbour ls-tree -r --name-only reveal reveal
expect 0 "$py" "$ROOT/tests/e2e/readme_check.py" "$ROOT/docs/guide-umpire.md" "## A worked turn" rec/index

# README facts: the campaigns it says play sealed are those whose demo.init seals them.
said=$(tr "\n" " " < "$ROOT/README.md" | grep -o '([^)]*play sealed: their `demo.init`)' | grep -o '`[a-z0-9-]*`' |
    grep -v demo.init | tr -d '`' | sort | tr '\n' ' ')
real=$(grep -l -- '--visibility sealed' "$ROOT"/campaigns/*/demo.init | xargs -n1 dirname |
    xargs -n1 basename | sort | tr '\n' ' ')
[ "$said" = "$real" ] || die "README says '$said' play sealed; demo.init says '$real'"
