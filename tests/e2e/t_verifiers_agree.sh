# The C code and the independent Python verifier agree: the C test tables are exactly
# tests/vectors/fairness.json (tools/gen-vectors.py --check regenerates and diffs them), the
# Python verifier passes every vector, and on a clone of every shipped campaign both
# verifiers pass and count the same turns and dice.
. "$ROOT/tests/e2e/lib.sh"
expect 0 python3 "$ROOT/tools/gen-vectors.py" --check
expect 0 python3 "$ROOT/tools/umpire-verify" --vectors "$ROOT/tests/vectors/fairness.json"
for scen in "$ROOT"/campaigns/*/scenario.yaml; do
    name=$(basename "$(dirname "$scen")")
    new_campaign "$name" "$TMP/$name"; play "$name" "$TMP/$name"
    git clone -q "$TMP/$name" "$TMP/clone-$name"
    expect 0 "$BIN" verify "$TMP/clone-$name"
    c=$(sed -n 's/^verify: ok: campaign [^:]*: \([0-9]*\) turns, \([0-9]*\) dice.*/\1 \2/p' "$TMP/out")
    expect 0 python3 "$ROOT/tools/umpire-verify" "$TMP/clone-$name"
    p=$(sed -n 's/^verdict: ok: \([0-9]*\) turns, \([0-9]*\) dice verified/\1 \2/p' "$TMP/out")
    [ -n "$c" ] && [ "$c" = "$p" ] || die "$name: C verify says '$c', Python says '$p' (turns dice)"
    echo "$name: both verifiers: $c (turns dice)"
done
