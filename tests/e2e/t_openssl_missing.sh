# Every hash and HMAC of the fairness derivation comes from OpenSSL (src/core/fair.c). When
# OpenSSL cannot give one (here its default provider is not loaded: an OPENSSL_CONF activating
# only the null provider; an allocation failing is the same path), umpire stops with the
# reason (abort) and yields no commitment, key, seed or die, rather than a wrong one.
. "$ROOT/tests/e2e/lib.sh"
HR="$ROOT/campaigns/harbour-raid"
cat > "$TMP/null.cnf" <<'CNF'
openssl_conf = openssl_init
[openssl_init]
providers = provider_sect
[provider_sect]
null = null_sect
[null_sect]
activate = 1
CNF
expect 0 "$BIN" init --visibility open --entropy none "$TMP/c" --scenario "$HR/scenario.yaml" --secret-file "$HR/demo.secret"
expect 0 "$BIN" turn "$TMP/c" "$HR/orders/turn-0001/attacker.yaml"
expect 0 "$BIN" replay "$TMP/c"
has "$TMP/out" "replay: 1 turn identical"
# without_openssl CMD...: runs CMD with OpenSSL's providers gone; it must abort (134) and say why
without_openssl() {
    set +e; OPENSSL_CONF="$TMP/null.cnf" "$@" >"$TMP/out" 2>"$TMP/err"; _rc=$?; set -e
    [ "$_rc" -eq 134 ] || { cat "$TMP/out" "$TMP/err" >&2; die "'$*' exited $_rc (134, an abort, expected)"; }
    has "$TMP/err" "umpire: fair: OpenSSL SHA-256 or HMAC-SHA256 failed in"
}
without_openssl "$BIN" replay "$TMP/c"
! grep -q "identical" "$TMP/out" || die "replay said identical without OpenSSL"
without_openssl "$BIN" init --visibility open --entropy none "$TMP/d" --scenario "$HR/scenario.yaml" --secret-file "$HR/demo.secret"
[ ! -e "$TMP/d/campaign.yaml" ] || die "init wrote a campaign without OpenSSL"
echo "ok: without OpenSSL's hashes umpire aborts with the reason"
