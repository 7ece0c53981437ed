# t_sealed_withheld.sh — nothing withheld leaks before the reveal (docs/fairness.md, "Sealed
# turns"): every shipped sealed demo is played sealed, and the words of each void order (an
# order never carried out, so withheld until the reveal: its reason as the umpire's journal
# keeps it, the action it names in parentheses, what "cannot" was done) are looked for in
# everything an opponent can read: every git object of the campaign (whatever ref reaches it,
# loose or packed: the public history, its exports and the public report) and the other
# players' reports and views. Each player's own report still gives his void orders in full,
# and both verifiers still pass.
. "$ROOT/tests/e2e/lib.sh"
checked=0 read_by=0
for name in harbour-raid betio-seawall bewcastle-fray karak-gate; do
    grep -q -- '--visibility sealed' "$ROOT/campaigns/$name/demo.init" || die "$name is not sealed"
    demo_played "$name" "$TMP/$name"
    git -C "$name" cat-file --batch-all-objects --batch > "$name.objects"
    [ -s "$name.objects" ] || die "$name: no objects read"
    sqlite3 -separator '	' "$name/.umpire/journal.sqlite" \
        "SELECT turn, player, text FROM events WHERE kind = 'void' ORDER BY turn, seq" > "$name.voids"
    while IFS='	' read -r turn player text; do
        n=$(printf '%04d' "$turn")
        # the words: the whole reason; each "(...)" naming an action (no rule reference); what
        # "cannot" was done, up to the colon
        {
            printf '%s\n' "$text"
            printf '%s\n' "$text" | grep -o '([^()§]*[A-Za-z][^()§]* [A-Z]*[0-9][^()§]*)' || true
            printf '%s\n' "$text" | sed -n 's/.* cannot \([^:]*\):.*/cannot \1/p'
        } | sort -u > words
        while IFS= read -r w; do
            [ ${#w} -ge 6 ] || continue
            if grep -aF -- "$w" "$name.objects" > found; then
                head -2 found >&2; die "$name turn $turn: a git object names $player's withheld order: '$w'"
            fi
            for p in "$name/.umpire/outbox"/*/; do
                p=$(basename "$p")
                [ "$p" != "$player" ] || continue
                for f in "$name/.umpire/outbox/$p/turn-$n"/report.md "$name/.umpire/outbox/$p/turn-$n"/state.yaml; do
                    [ -f "$f" ] || continue
                    read_by=$((read_by + 1))
                    grep -qF -- "$w" "$f" && die "$name turn $turn: $p's ${f##*/} names $player's withheld order: '$w'"
                done
            done
            checked=$((checked + 1))
        done < words
        # his own report keeps the reason in full
        grep -qF -- "$text" "$name/.umpire/outbox/$player/turn-$n/report.md" ||
            die "$name turn $turn: $player's own report lacks his void order '$text'"
    done < "$name.voids"
    # the public export says the reason is withheld
    if [ -s "$name.voids" ]; then
        t=$(head -1 "$name.voids" | cut -f1)
        grep -qF 'reason: "withheld until the reveal (it names an order never carried out)"' \
            "$name/journal/turn-$(printf '%04d' "$t").yaml" || die "$name: the export does not say withheld"
    fi
    git clone -q "$name" "$name.clone"
    expect 3 "$BIN" verify "$name.clone"
    expect 3 node "$JSV" "$name.clone"
done
[ "$checked" -gt 10 ] || die "only $checked words of void orders checked"
[ "$read_by" -gt 10 ] || die "only $read_by reports or views of the other players looked into"
echo "checked $checked words of withheld orders"
