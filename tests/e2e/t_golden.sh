# Determinism: every shipped campaign played twice from its demo secret gives byte-identical
# state.yaml, journal exports, reports and commit ids (every tag's and HEAD's), equal to the golden files in
# tests/golden/<campaign>/ (regenerate with tools/update-golden after a deliberate change);
# one commit and tag per turn, a clean work tree, and replay passes (a sealed campaign's once
# revealed).
. "$ROOT/tests/e2e/lib.sh"
for scen in "$ROOT"/campaigns/*/scenario.yaml; do
    name=$(basename "$(dirname "$scen")")
    demo_played "$name" "$TMP/a-$name"
    # The second run is in another directory, with another locale and umask.
    (umask 077; LC_ALL=C.UTF-8 TZ=Pacific/Auckland; export LC_ALL TZ
     new_campaign "$name" "$TMP/b-$name"; play "$name" "$TMP/b-$name")
    a="$TMP/a-$name"; b="$TMP/b-$name"
    [ "$(git -C "$a" rev-parse HEAD)" = "$(git -C "$b" rev-parse HEAD)" ] || die "$name: commit ids differ"
    diff -r -x .git -x .umpire "$a" "$b" || die "$name: the two runs differ"
    turns=$(ls -d "$ROOT/campaigns/$name"/orders/turn-* | wc -l)
    # Setup, then each turn (tag turn-N), after its close (tag close-N) when turns close.
    closes=$turns
    ! grep -q '^  entropy: none$' "$a/campaign.yaml" || closes=0
    [ "$(git -C "$a" rev-list --count HEAD)" -eq $((turns + closes + 1)) ] || die "$name: not a close and a commit per turn"
    [ "$(git -C "$a" tag -l 'turn-*' | wc -l)" -eq $((turns + 1)) ] || die "$name: not one tag per turn"
    [ "$(git -C "$a" tag -l 'close-*' | wc -l)" -eq "$closes" ] || die "$name: not one close tag per closed turn"
    [ -z "$(git -C "$a" status --porcelain)" ] || die "$name: work tree not clean"
    git -C "$a" fsck --strict --no-progress || die "$name: git fsck"
    g="$ROOT/tests/golden/$name"
    [ -d "$g" ] || die "$name: no golden files (tools/update-golden)"
    cmp "$g/state.yaml" "$a/state.yaml" || die "$name: state.yaml differs from the golden file"
    for f in "$g"/journal/*.yaml; do
        cmp "$f" "$a/journal/$(basename "$f")" || die "$name: $(basename "$f") differs from the golden file"
    done
    [ "$(ls "$g"/journal | wc -l)" -eq $((turns + closes)) ] || die "$name: golden journal count (an export, and a close per closed turn)"
    # A sealed campaign is revealed at its end, as tools/demo does: both runs the same.
    if grep -q '^visibility: sealed$' "$a/campaign.yaml"; then
        expect 0 "$BIN" reveal "$a"
        (umask 077; LC_ALL=C.UTF-8 TZ=Pacific/Auckland; export LC_ALL TZ
         "$BIN" reveal "$b" >/dev/null)
        [ "$(git -C "$a" rev-parse HEAD)" = "$(git -C "$b" rev-parse HEAD)" ] || die "$name: reveal commit ids differ"
        diff -r -x .git -x .umpire "$a" "$b" || die "$name: the two reveals differ"
    fi
    # The commit ids: every tag's and HEAD's, as tools/update-golden recorded them.
    git -C "$a" for-each-ref --format='%(refname:short)' refs/tags | while read -r t; do
        echo "$t $(git -C "$a" rev-parse "$t^{commit}")"
    done > "$TMP/commits-$name"
    echo "HEAD $(git -C "$a" rev-parse HEAD)" >> "$TMP/commits-$name"
    diff "$g/commits" "$TMP/commits-$name" || die "$name: commit ids differ from the golden file"
    # Who won (issue 37): status's result line, the last report's Result and the example its
    # docs/rules page quotes (docs/rules/NAME.md "Victory") are the golden one.
    "$BIN" status "$a" | sed -n 's/^result: //p' > "$TMP/result-$name"
    diff "$g/result" "$TMP/result-$name" || die "$name: the result differs from the golden file"
    if [ -s "$g/result" ]; then
        r=$(cat "$g/result")
        last=$(printf 'turn-%04d' "$turns")
        grep -qF -- "**$r.**" "$a/reports/$last.md" "$a/reports/$last"/*.md 2>/dev/null ||
            die "$name: the last report does not give the result '$r'"
        rules=$(sed -n 's/^rules: //p' "$a/campaign.yaml")
        tr '\n' ' ' < "$ROOT/docs/rules/$rules.md" | tr -s ' ' | grep -qF -- "\`$r\`" ||
            die "docs/rules/$rules.md does not quote $name's result as it is: $r"
    fi
    expect 0 "$BIN" replay "$a"; has "$TMP/out" "replay: $turns turns identical"
done

# docs/fairness.md shows verify's output on the betio-seawall demo: every line it shows is
# what verify prints on the umpire's copy.
expect 3 "$BIN" verify "$TMP/a-betio-seawall"
awk '/here the betio-seawall demo/ { f = 1; next } f && /^```/ { n++; next } f && n == 1' \
    "$ROOT/docs/fairness.md" | grep -v '^…$' > "$TMP/doc-verify"
[ "$(wc -l < "$TMP/doc-verify")" -ge 3 ] || die "no verify sample found in docs/fairness.md"
while IFS= read -r line; do
    grep -qxF -- "$line" "$TMP/out" || { cat "$TMP/out" >&2; die "docs/fairness.md shows a verify line verify does not print: $line"; }
done < "$TMP/doc-verify"
