# The README's worked turn, run: init with the default entropy (beacon: drand quicknet) and
# visibility (sealed), check, close ten minutes before drand quicknet's round 657413 was out
# (September 2023: the clock set back so that a real round, recorded in tests/e2e/beacon/, is
# the one the close names), then the turn with that round's value and signature, checked
# against quicknet's key; what the players' clones and the attacker's outbox hold; the reveal.
# Every console line the README shows (elided ones, with "…", by their start) is printed.
. "$ROOT/tests/e2e/lib.sh"
cd "$TMP"
ROUND=$ROOT/tests/e2e/beacon/52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971/public/657413
value=$(sed 's/.*"randomness":"\([0-9a-f]*\)".*/\1/' "$ROUND")
signature=$(sed 's/.*"signature":"\([0-9a-f]*\)".*/\1/' "$ROUND")
env SOURCE_DATE_EPOCH=1694770000 "$BIN" init harbour \
    --scenario "$ROOT/campaigns/harbour-raid/scenario.yaml" \
    --secret-file "$ROOT/campaigns/harbour-raid/demo.secret" > out.txt
cp "$ROOT/campaigns/harbour-raid/orders/turn-0001/attacker.yaml" .
"$BIN" check harbour attacker.yaml >> out.txt
env SOURCE_DATE_EPOCH=1694775003 "$BIN" close harbour attacker.yaml >> out.txt
env SOURCE_DATE_EPOCH=1694775700 "$BIN" turn harbour --beacon "$value" \
    --beacon-signature "$signature" >> out.txt
git -C harbour ls-tree -r --name-only turn-0001 >> out.txt
ls harbour/.umpire/outbox/attacker/turn-0001 >> out.txt
cat harbour/.umpire/outbox/attacker/turn-0001/report.md >> out.txt
"$BIN" verify harbour --view harbour/.umpire/outbox/attacker/turn-0001 >> out.txt
"$BIN" reveal harbour >> out.txt
git -C harbour ls-tree -r --name-only reveal reveal >> out.txt
# The README's console and report blocks of "A worked turn", less prompts, comments of the
# shell, the bad.yaml example (t_bad_input) and the markdown table's separator.
awk '/^```/ { fence = !fence } /^## A worked turn/ { on = 1; next } /^## / && !fence { on = 0 }
    on' "$ROOT/README.md" |
    awk '/^```(console|markdown)$/ { inb = 1; next } /^```/ { inb = 0 } inb' |
    grep -v '^\$ \|^bad\.yaml\|^ *[0-9]* |\|^ *| *^\|^…$\|^$' > want.txt
[ -s want.txt ] || die "no console lines found in the README's worked turn"
while IFS= read -r line; do
    case "$line" in
    *…*) pre=${line%%…*}; grep -qF -- "$pre" out.txt || die "README line not printed: $line" ;;
    *) grep -qxF -- "$line" out.txt || grep -qxF -- "${line#- }" out.txt ||
        grep -qF -- "$line" out.txt || die "README line not printed: $line" ;;
    esac
done < want.txt
