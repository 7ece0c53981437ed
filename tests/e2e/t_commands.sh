# Every command answers --help with exit 0, and usage errors with 64; missing campaigns 66;
# init refuses a used directory (73); rules lists and describes; log and state read back.
. "$ROOT/tests/e2e/lib.sh"
for c in init check turn replay log state rules; do
    expect 0 "$BIN" "$c" --help
    has "$TMP/out" "usage: umpire $c"
done
expect 0 "$BIN" --help;           has "$TMP/out" "commands:"
expect 64 "$BIN";                 has "$TMP/err" "umpire: missing COMMAND (one of: init check"
expect 64 "$BIN" frobnicate;      has "$TMP/err" "unknown command 'frobnicate'"
expect 64 "$BIN" turn;            has "$TMP/err" "see 'umpire help turn'"
expect 64 "$BIN" init x;          has "$TMP/err" "see 'umpire help init'"
expect 64 "$BIN" log x --turn abc; has "$TMP/err" "--turn 'abc'"
expect 66 "$BIN" check "$TMP/nowhere" x.yaml; has "$TMP/err" "is not a campaign"
expect 66 "$BIN" init "$TMP/c" --scenario "$TMP/none.yaml"; has "$TMP/err" "cannot open"
expect 0 "$BIN" rules;            has "$TMP/out" "land-raid"
expect 0 "$BIN" rules land-raid;  has "$TMP/out" "default options"
expect 66 "$BIN" rules chess;     has "$TMP/err" "unknown rule system 'chess'"

new_campaign harbour-raid "$TMP/c" --entropy none
[ "$(stat -c %a "$TMP/c/.umpire/secret")" = 600 ] || die "secret is not mode 0600"
[ -z "$(git -C "$TMP/c" status --porcelain)" ] || die "work tree not clean after init"
[ "$(git -C "$TMP/c" log --format=%s)" = "Setup" ] || die "first commit is not 'Setup'"
git -C "$TMP/c" rev-parse -q --verify refs/tags/turn-0000 >/dev/null || die "no tag turn-0000"
git -C "$TMP/c" check-ignore -q .umpire/journal.sqlite || die ".umpire is not git-ignored"
grep -q "fair: false" "$TMP/c/campaign.yaml" || die "a --secret-file campaign is not marked unfair"
expect 73 "$BIN" init "$TMP/c" --scenario "$ROOT/campaigns/harbour-raid/scenario.yaml"
has "$TMP/err" "exists and is not an empty directory"

# A fair campaign: OS randomness, fair: true, its own commitment.
expect 0 "$BIN" init --visibility open "$TMP/fair" --scenario "$ROOT/campaigns/harbour-raid/scenario.yaml"
grep -q "fair: true" "$TMP/fair/campaign.yaml" || die "an OS-random campaign is not marked fair"
[ "$(grep commitment "$TMP/fair/campaign.yaml")" != "$(grep commitment "$TMP/c/campaign.yaml")" ] ||
    die "two campaigns share a commitment"

play harbour-raid "$TMP/c" 2
expect 0 "$BIN" state "$TMP/c" --turn 0; has "$TMP/out" "turn: 0"
expect 0 "$BIN" state "$TMP/c";          has "$TMP/out" "turn: 2"
expect 66 "$BIN" state "$TMP/c" --turn 7
expect 0 "$BIN" log "$TMP/c" --turn 1;   has "$TMP/out" "die 0: d6 = "
expect 0 "$BIN" log "$TMP/c";            has "$TMP/out" "turn 2:"
# On a clone without .umpire/, log prints the committed exports and check still works.
git clone -q "$TMP/c" "$TMP/clone"
expect 0 "$BIN" log "$TMP/clone" --turn 2; has "$TMP/out" "orders_digest:"
f3=$(ls "$ROOT"/campaigns/harbour-raid/orders/turn-0003/*.yaml | grep -v umpire.yaml | head -n 1)
expect 0 "$BIN" check "$TMP/clone" "$f3"; has "$TMP/out" ": ok: orders of"

# A file whose player: is wrong still has its orders checked, against each due player.
sed 's/^player: .*/player: pirate/' "$f3" > "$TMP/pirate.yaml"
expect 65 "$BIN" check "$TMP/clone" "$TMP/pirate.yaml"
has "$TMP/err" "'pirate' is not a player of this campaign"
has "$TMP/err" "(the orders would pass as the orders of '$(sed -n 's/^player: //p' "$f3")')"
sed -e 's/^player: .*/player: pirate/' -e '0,/officer: /s/officer: [a-z]*/officer: nobody/' "$f3" \
    > "$TMP/pirate2.yaml"
expect 65 "$BIN" check "$TMP/clone" "$TMP/pirate2.yaml"
has "$TMP/err" "'pirate' is not a player of this campaign"
has "$TMP/err" "nobody"
hasnt_ok=$(grep -c "would pass" "$TMP/err" || true)
[ "$hasnt_ok" -eq 0 ] || die "orders with an error said to pass"

# A campaign played with another revision of its rule system is refused by every command.
sed 's/^rules_revision: 2$/rules_revision: 3/' "$TMP/clone/campaign.yaml" > "$TMP/cy" &&
    mv "$TMP/cy" "$TMP/clone/campaign.yaml"
git -C "$TMP/clone" commit -qam "a later umpire"
for cmd in "check $TMP/clone $f3" "verify $TMP/clone" "log $TMP/clone"; do
    # shellcheck disable=SC2086
    expect 65 "$BIN" $cmd
    has "$TMP/err" "campaign 'harbour-raid' was played with land-raid revision 3, this umpire has 2"
done
