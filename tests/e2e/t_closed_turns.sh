# Closed turns (docs/fairness.md, "Closed turns"): the attempts of a suspicious player's threat
# model, automated. With entropy beacon: a turn cannot be resolved before it is closed; after
# the close its inputs (order files, the umpire's rulings) cannot change; it needs the value of
# the round the close named, not before that round is out, and never a second value; a close
# cannot name a round already out. A history re-run from a backup with other inputs is caught
# by a receipt and by the head a player's clone remembers. A close a crash left untagged is
# finished by the next run. With entropy players: entropy commitments, reveals, a wrong nonce
# refused, a missing reveal replaced and journaled. Reports say where the randomness came from;
# with entropy none, they, campaign.yaml and verify say plainly that the umpire could choose.
. "$ROOT/tests/e2e/lib.sh"
HR="$ROOT/campaigns/harbour-raid"
A1="$HR/orders/turn-0001/attacker.yaml"
D0=1767225600 # lib.sh's SOURCE_DATE_EPOCH: the campaigns' setup time
C="$TMP/c"
UNSIGNED="--beacon unsigned-demo-values-chosen-by-hand --beacon-genesis 1692803367 --beacon-period 3"
# shellcheck disable=SC2086
new_campaign harbour-raid "$C" --entropy beacon --visibility open $UNSIGNED
at() { _t=$1; shift; env SOURCE_DATE_EPOCH="$_t" "$@"; }

# Rulings the umpire varies before the close: the turn cannot be resolved unclosed, so no
# variant can be tried against the dice.
cat > "$TMP/rulings1.yaml" <<'YAML'
campaign: harbour-raid
turn: 1
player: umpire
orders:
  - roll: 1d6
    for: "weather 1"
YAML
sed 's/weather 1/weather 2/' "$TMP/rulings1.yaml" > "$TMP/rulings2.yaml"
expect 65 "$BIN" turn "$C" "$A1" --rulings "$TMP/rulings1.yaml" --beacon x
has "$TMP/err" "turn 1 is not closed (campaign 'harbour-raid' has entropy beacon): close it first (umpire close $C ORDERS...)"
expect 0 at $((D0 + 100)) "$BIN" close "$C" "$A1" --rulings "$TMP/rulings1.yaml" --receipts "$TMP/receipts"
has "$TMP/out" "Turn 1 closed: 2 order files, 0 players without; D_t "
has "$TMP/out" "round 24807646, out at 2026-01-01 00:11:42 UTC, in about 10 minutes; then run 'umpire turn $C --beacon VALUE' (an unsigned beacon: nobody checks its value but the players)"
has "$TMP/out" "# umpire receipt: attacker's orders for turn 1 are in and the turn is closed"
has "$TMP/receipts/attacker.yaml" "close_commit: $(git -C "$C" rev-parse close-0001)"
# the defender was not due and gets the receipt all the same: every player witnesses every close
has "$TMP/receipts/defender.yaml" "file_sha256: none"
has "$TMP/receipts/defender.yaml" "close_commit: $(git -C "$C" rev-parse close-0001)"
# After the close: other rulings, another order file, more files: refused, nothing written.
before=$(fingerprint "$C")
expect 65 at $((D0 + 800)) "$BIN" turn "$C" "$A1" --rulings "$TMP/rulings2.yaml" --beacon x
has "$TMP/err" "turn 1 was closed (tag close-0001, commit $(git -C "$C" rev-parse close-0001)) and its inputs cannot change: umpire's file has sha256 "
expect 65 at $((D0 + 800)) "$BIN" close "$C" "$A1" --rulings "$TMP/rulings2.yaml"
has "$TMP/err" "its inputs cannot change"
[ "$(fingerprint "$C")" = "$before" ] || die "a refused change wrote something"
# The same close again: its receipts again, nothing new.
expect 0 at $((D0 + 800)) "$BIN" close "$C" "$A1" --rulings "$TMP/rulings1.yaml"
has "$TMP/out" "Turn 1 was already closed with these files; its receipts again:"
[ "$(fingerprint "$C")" = "$before" ] || die "a repeated close wrote something"

# The randomness: required, not before its round is out, and the round the close named.
expect 65 at $((D0 + 800)) "$BIN" turn "$C"
has "$TMP/err" "turn 1 takes the value of beacon round 24807646 (unsigned-demo-values-chosen-by-hand"
has "$TMP/err" "), out at 2026-01-01 00:11:42 UTC, about 2 minutes ago: give its value: --beacon VALUE"
# before its round is out: "not yet", exit 75 (issue 34 item 6)
expect 75 at $((D0 + 700)) "$BIN" turn "$C" --beacon early
has "$TMP/err" "turn 1: beacon round 24807646 is out at 2026-01-01 00:11:42 UTC, in 2 seconds: no value of it exists yet; run 'umpire turn $C --beacon VALUE' then"
expect 65 at $((D0 + 800)) "$BIN" turn "$C" --beacon x --beacon-round 24807645
has "$TMP/err" "turn 1: the close named beacon round 24807646, not 24807645"
[ "$(fingerprint "$C")" = "$before" ] || die "a refused turn wrote something"
# Resolved from the files the close kept (none given), with the round's value.
expect 0 at $((D0 + 800)) "$BIN" turn "$C" --beacon value-1
has "$C/journal/turn-0001.yaml" 'beacon_round: "24807646"'
has "$C/journal/turn-0001.yaml" "beacon_value: value-1"
has "$C/journal/turn-0001.yaml" "weather 1: d6 = "
has "$C/reports/turn-0001/defender.md" "Closed in commit \`$(git -C "$C" rev-parse close-0001)\` (tag close-0001) before its randomness existed; beacon round 24807646 of unsigned-demo-values-chosen-by-hand"
has "$C/reports/turn-0001/defender.md" ", value \`value-1\`: check it against the source."
# A second value for the processed turn: refused, both shown; the same value: nothing to do.
expect 65 at $((D0 + 900)) "$BIN" turn "$C" --beacon value-2
has "$TMP/err" "turn 1 was processed with beacon value value-1 (round 24807646); this run gives value-2: a turn's randomness cannot change"
expect 0 at $((D0 + 900)) "$BIN" turn "$C" --beacon value-1
has "$TMP/out" "Turn 1 was already processed"
# A close cannot name a round already out at the close, nor a later one than the first
# beacon_delay after it (issue 34: a later round leaves time to see one outcome and close
# again): --beacon-round only checks the round the close names.
expect 65 at $((D0 + 86400)) "$BIN" close "$C" "$HR/orders/turn-0002/defender.yaml" --beacon-round 24807646
has "$TMP/err" "beacon round 24807646: a close at 1767312000 names round 24836412, the first out 600 s after it, and no other"
expect 65 at $((D0 + 86400)) "$BIN" close "$C" "$HR/orders/turn-0002/defender.yaml" --beacon-round 24836413
has "$TMP/err" "beacon round 24836413: a close at 1767312000 names round 24836412, the first out 600 s after it, and no other"

# The player's clone verifies, remembering the head; his receipt checks.
git clone -q "$C" "$TMP/player"
expect 3 "$BIN" verify "$TMP/player" --receipt "$TMP/receipts/attacker.yaml"
has "$TMP/out" "turn 1: ok: close, key, digest, beacon round, seed, "
has "$TMP/out" "receipt $TMP/receipts/attacker.yaml: ok: attacker's orders for turn 1 are the ones closed in $(git -C "$C" rev-parse close-0001)"
[ "$(git -C "$TMP/player" rev-parse refs/umpire/verified)" = "$(git -C "$C" rev-parse main)" ] ||
    die "verify did not remember the head"

# The umpire re-runs turn 1 from a backup of the Setup with an order file changed by a comment,
# and force-pushes: a fresh clone verifies on its own, but not with the receipt, and the
# player's clone, fetched, fails on the head it remembers.
R="$TMP/rerun"
# shellcheck disable=SC2086
new_campaign harbour-raid "$R" --entropy beacon --visibility open $UNSIGNED
{ cat "$A1"; echo "# a comment"; } > "$TMP/a1b.yaml"
at $((D0 + 100)) "$BIN" close "$R" "$TMP/a1b.yaml" --rulings "$TMP/rulings1.yaml" >/dev/null
at $((D0 + 800)) "$BIN" turn "$R" --beacon value-1 >/dev/null
git -C "$TMP/player" fetch -q -f "$R" main
git -C "$TMP/player" reset -q --hard FETCH_HEAD
both_fail "$TMP/player"
has "$TMP/out" "verify: FAILED: history: this clone last verified main at commit $(git -C "$C" rev-parse main) (refs/umpire/verified), which main's history (now at $(git -C "$R" rev-parse main)) no longer contains: the history was rewritten since"
git clone -q "$R" "$TMP/fresh"
expect 3 "$BIN" verify "$TMP/fresh"
both_fail "$TMP/fresh" --receipt "$TMP/receipts/attacker.yaml"
has "$TMP/out" "verify: FAILED: receipt $TMP/receipts/attacker.yaml: turn 1 was closed in commit $(git -C "$C" rev-parse close-0001), but the history's close-0001 is commit $(git -C "$R" rev-parse close-0001): the history was rewritten"

# A crash between moving main and tagging the close: the next run tags it and goes on.
expect 0 at $((D0 + 86400)) "$BIN" close "$C" "$HR/orders/turn-0002/defender.yaml"
git -C "$C" tag -d close-0002 >/dev/null
expect 0 at $((D0 + 86400 + 3600)) "$BIN" turn "$C" --beacon value-2
[ "$(git -C "$C" rev-parse close-0002)" = "$(git -C "$C" rev-parse turn-0002^)" ] || die "close-0002 not restored"
expect 3 "$BIN" verify "$C"; has "$TMP/out" "verify: ok: campaign harbour-raid: 2 turns"

# entropy players: order files commit to nonces; reveals after the close; a wrong nonce is
# refused; a missing reveal needs --allow-missing and is journaled, its commitment standing in
# (an open campaign: the replay and the clone's verify re-run the turn).
P="$TMP/p"
new_campaign betio-seawall "$P" --entropy players --visibility open
# usmc's nonce as the reveal file itself (issue 37): campaign, turn, player, nonce, entropy.
expect 0 "$BIN" nonce --campaign betio-seawall --turn 1 --player usmc
cp "$TMP/out" "$TMP/usmc-reveal.yaml"
n1=$(sed -n 's/^nonce: //p' "$TMP/out"); e1=$(sed -n 's/^entropy: //p' "$TMP/out")
has "$TMP/out" "player: usmc"
expect 64 "$BIN" nonce --campaign betio-seawall --turn 1
expect 0 "$BIN" nonce; n2=$(sed -n 's/^nonce: //p' "$TMP/out"); e2=$(sed -n 's/^entropy: //p' "$TMP/out")
[ "$(printf %s "$n1" | xxd -r -p | sha256sum | cut -c1-64)" = "$e1" ] || die "umpire nonce: entropy is not SHA-256 of the nonce"
BS="$ROOT/campaigns/betio-seawall/orders/turn-0001"
for f in "$BS"/*.yaml; do
    p=$(basename "$f" .yaml)
    [ "$p" = umpire ] && continue
    e=$e1; [ "$p" = usmc ] || e=$e2
    { cat "$f"; echo "entropy: $e"; } > "$TMP/p-$p.yaml"
done
expect 65 "$BIN" close "$P" "$BS"/usmc.yaml "$TMP/p-ija.yaml"
has "$TMP/err" "no 'entropy:' (this campaign's players commit to a nonce"
# shellcheck disable=SC2046
expect 0 "$BIN" close "$P" $(ls "$TMP"/p-*.yaml | sort)
has "$TMP/out" "randomness: the players' nonces (umpire reveal DIR FILE..., then umpire turn DIR)"
# each receipt tells its player how to send his nonce (by mail, or by hand to umpire reveal)
has "$TMP/out" "randomness: \"the players' nonces: send the umpire your reveal file (nonce: ...), by mail or for umpire reveal; your entropy: is in this file's hash\""
printf 'campaign: betio-seawall\nturn: 1\nplayer: usmc\nnonce: %s\n' "$n2" > "$TMP/bad-reveal.yaml"
expect 65 "$BIN" reveal "$P" "$TMP/bad-reveal.yaml"
has "$TMP/err" "error: the nonce does not match usmc's committed entropy (its SHA-256 is $e2, the close holds $e1)"
sed "s/^entropy: .*/entropy: $e2/" "$TMP/usmc-reveal.yaml" > "$TMP/bad-entropy.yaml"
expect 65 "$BIN" reveal "$P" "$TMP/bad-entropy.yaml"; has "$TMP/err" "entropy is not the SHA-256 of this file's nonce"
expect 0 "$BIN" reveal "$P" "$TMP/usmc-reveal.yaml"; has "$TMP/out" "ok: usmc's nonce for turn 1 matches the close"
expect 75 "$BIN" turn "$P"; has "$TMP/err" "turn 1: no reveal from ija (umpire reveal DIR FILE..., or --allow-missing"
expect 0 "$BIN" turn "$P" --allow-missing
has "$P/journal/turn-0001.yaml" "no reveal from ija: the hash his orders committed to stands in for his nonce"
has "$P/journal/turn-0001.yaml" "beacon_value: ija committed $e2 usmc nonce $n1"
expect 0 "$BIN" replay "$P"
git clone -q "$P" "$TMP/pc"
expect 3 "$BIN" verify "$TMP/pc"; has "$TMP/out" "turn 1: ok: close, key, digest, reveals, seed, "

# entropy none: said in campaign.yaml, and by verify.
N="$TMP/n"
new_campaign harbour-raid "$N" --entropy none --visibility open
has "$N/campaign.yaml" "warning: \"entropy none: the umpire knows each turn key before the orders arrive and could choose among outcomes (trusted umpire only)\""
expect 65 "$BIN" close "$N" "$A1"; has "$TMP/err" "campaign 'harbour-raid' has entropy none: its turns are not closed"
expect 0 "$BIN" turn "$N" "$A1"
has "$N/reports/turn-0001/attacker.md" "Entropy none: the umpire knew this turn's key before the orders arrived and could have chosen among outcomes."
expect 3 "$BIN" verify "$N"; has "$TMP/out" "reason: entropy-none: entropy none: the umpire knew every turn key before the orders arrived and could choose among outcomes"
