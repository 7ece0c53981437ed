# The C code and the independent verifier in JavaScript agree: the C test tables are exactly
# tests/vectors/fairness.json (tools/gen-vectors.py --check regenerates and diffs them), the
# JavaScript verifier passes every vector (tools/umpire-verify.mjs --vectors), and on a clone of
# harbour-raid played in closed turns (entropy beacon on the demo beacon's signed rounds, and
# players) both verifiers pass and count the same turns and dice. (Every shipped campaign
# played as the demo plays it: t_js_verifier.)
. "$ROOT/tests/e2e/lib.sh"
# agree DIR NAME: both verifiers pass a clone of DIR and count the same turns and dice.
agree() {
    git clone -q "$1" "$TMP/clone-$2"
    expect 3 "$BIN" verify "$TMP/clone-$2"
    c=$(sed -n 's/^verify: ok: campaign [^:]*: \([0-9]*\) turns\{0,1\}, \([0-9]*\) dice.*/\1 \2/p' "$TMP/out")
    expect 3 node "$JSV" "$TMP/clone-$2"
    j=$(sed -n 's/^verify: ok: campaign [^:]*: \([0-9]*\) turns\{0,1\}, \([0-9]*\) dice.*/\1 \2/p' "$TMP/out")
    [ -n "$c" ] && [ "$c" = "$j" ] || die "$2: C verify says '$c', JavaScript says '$j' (turns dice)"
    echo "$2: both verifiers: $c (turns dice)"
}
expect 0 python3 "$ROOT/tools/gen-vectors.py" --check
expect 0 node "$JSV" --vectors "$ROOT/tests/vectors/fairness.json"
has "$TMP/out" "verdict: ok: "

# Closed turns: harbour-raid's first two turns, each closed then resolved (entropy beacon:
# once its round is out; entropy players: with the attacker's nonce revealed, the
# defender's commitment standing in), and turn 3 closed, awaiting its randomness.
H="$ROOT/campaigns/harbour-raid"
for entropy in beacon players; do
    D="$TMP/closed-$entropy"
    "$BIN" init --visibility open "$D" --scenario "$H/scenario.yaml" --secret-file "$H/demo.secret" \
        --entropy "$entropy" --demo-beacon >/dev/null
    for t in 1 2 3; do
        f=$(ls "$H/orders/turn-000$t"/*.yaml); pl=$(basename "$f" .yaml)
        cp "$f" "$TMP/$pl-$t.yaml"
        # turn 3 only closes: no orders (the demo's fit the demo's own dice, not these)
        [ "$t" -lt 3 ] || printf 'campaign: harbour-raid\nturn: 3\nplayer: %s\norders: []\n' "$pl" >"$TMP/$pl-$t.yaml"
        if [ "$entropy" = players ]; then
            # a fixed nonce per turn (not umpire nonce's): the same dice every run
            nonce=$(printf 'demo nonce %s' "$t" | sha256sum | cut -c1-64)
            echo "entropy: $(printf %s "$nonce" | xxd -r -p | sha256sum | cut -c1-64)" >>"$TMP/$pl-$t.yaml"
        fi
        SOURCE_DATE_EPOCH=$((1767225600 + t * 3600)) "$BIN" close "$D" "$TMP/$pl-$t.yaml" >/dev/null
        [ "$t" -lt 3 ] || break
        if [ "$entropy" = beacon ]; then
            # the demo beacon's round the close named, signed (its genesis is 1767225600)
            # shellcheck disable=SC2046
            set -- $(UMPIRE_BLS="$(dirname "$(readlink -f "$BIN")")/umpire-bls" \
                "$ROOT/tools/demo-beacon" $(((t * 3600 + 600) / 3 + 1)))
            SOURCE_DATE_EPOCH=$((1767225600 + t * 3600 + 700)) "$BIN" turn "$D" \
                --beacon "$1" --beacon-signature "$2" >/dev/null
        elif [ "$t" -eq 1 ]; then
            printf 'campaign: harbour-raid\nturn: 1\nplayer: %s\nnonce: %s\n' "$pl" "$nonce" >"$TMP/reveal"
            "$BIN" reveal "$D" "$TMP/reveal" >/dev/null
            "$BIN" turn "$D" >/dev/null
        else
            "$BIN" turn "$D" --allow-missing >/dev/null
        fi
    done
    agree "$D" "closed-$entropy"
    has "$TMP/out" "turn 3: ok: closed (close-0003), awaiting its randomness"
done
