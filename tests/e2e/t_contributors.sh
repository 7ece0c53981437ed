# Entropy players, both sides of the two-contributor threshold (issue 34 item 4;
# docs/fairness.md, "The verdict", few-contributors): betio-seawall, where both players are due
# every turn. Turn 1: both commit and reveal, two independent contributors: not named. Turn 2:
# both commit, ija does not reveal (--allow-missing): his committed hash stands in, known at
# the close, and counts for nothing. Both verifiers name turn 2 alone, with the same words.
. "$ROOT/tests/e2e/lib.sh"
BS="$ROOT/campaigns/betio-seawall"
V="$JSV"
P="$TMP/p"
new_campaign betio-seawall "$P" --entropy players --visibility open
# Fixed nonces (each player's reveal file, and SHA256 of its bytes in his order file), so
# the dice, and whether the shipped orders of turns 1-2 still apply, never vary.
for t in 1 2; do
    files=
    for p in ija usmc; do
        nonce=$(printf 'umpire test nonce %s %s' "$t" "$p" | sha256sum | cut -c1-64)
        printf 'campaign: betio-seawall\nturn: %s\nplayer: %s\nnonce: %s\n' "$t" "$p" "$nonce" \
            >"$TMP/r$t-$p.yaml"
        cp "$BS/orders/turn-000$t/$p.yaml" "$TMP/o$t-$p.yaml"
        echo "entropy: $(printf %s "$nonce" | xxd -r -p | sha256sum | cut -c1-64)" >>"$TMP/o$t-$p.yaml"
        files="$files $TMP/o$t-$p.yaml"
    done
    at=$((1767225600 + t * 86400))
    # shellcheck disable=SC2086
    expect 0 env SOURCE_DATE_EPOCH=$at "$BIN" close "$P" $files
    expect 0 "$BIN" reveal "$P" "$TMP/r$t-usmc.yaml"
    if [ "$t" -eq 1 ]; then
        expect 0 "$BIN" reveal "$P" "$TMP/r$t-ija.yaml"
        expect 0 env SOURCE_DATE_EPOCH=$((at + 600)) "$BIN" turn "$P"
    else
        expect 0 env SOURCE_DATE_EPOCH=$((at + 600)) "$BIN" turn "$P" --allow-missing
    fi
done
grep -q 'ija nonce ' "$P/journal/turn-0001.yaml" || die "turn 1's reveals lack ija's nonce"
grep -q 'ija committed ' "$P/journal/turn-0002.yaml" || die "turn 2's reveals lack ija's stand-in"
expect 3 "$BIN" verify "$P"
grep '^verdict: \|^reason: ' "$TMP/out" >"$TMP/c.v"
expect 3 node "$V" "$P"
grep '^verdict: \|^reason: ' "$TMP/out" >"$TMP/js.v"
cmp -s "$TMP/c.v" "$TMP/js.v" || { diff "$TMP/c.v" "$TMP/js.v" >&2; die "the verifiers disagree"; }
has "$TMP/c.v" "verdict: consistent, not proven fair"
has "$TMP/c.v" "reason: few-contributors: entropy players: fewer than two independent contributors in turns 2"
