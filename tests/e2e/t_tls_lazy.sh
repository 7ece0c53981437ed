# libgit2's CA bundle is read only for a network remote (src/core/gittls.h): a turn, a log and
# a push to a local path never open a certificate file; a push to an https remote does
# (and then fails to connect, nobody listening on port 1). Needs strace and a libgit2 built
# with mbedTLS (Debian's); otherwise says so and passes.
. "$ROOT/tests/e2e/lib.sh"
HR="$ROOT/campaigns/harbour-raid"
command -v strace >/dev/null 2>&1 || { echo "skipped: no strace"; exit 0; }
ldd "$(dirname "$(readlink -f "$BIN")")/umpire-core" | grep -q libmbedx509 || { echo "skipped: libgit2 without mbedTLS"; exit 0; }
# certs FILE: the certificate files the traced run opened
certs() { grep -E 'openat\(.*(\.crt|\.pem|/certs)' "$1" || true; }
expect 0 "$BIN" init --visibility open --entropy none "$TMP/c" --scenario "$HR/scenario.yaml" --secret-file "$HR/demo.secret"
for cmd in "log $TMP/c" "turn $TMP/c $HR/orders/turn-0001/attacker.yaml" "publish $TMP/c $TMP/remote.git"; do
    # shellcheck disable=SC2086
    strace -f -e trace=openat -o "$TMP/trace" "$BIN" $cmd >/dev/null 2>&1 || die "$cmd failed"
    [ -z "$(certs "$TMP/trace")" ] || { certs "$TMP/trace"; die "'$cmd' read certificates"; }
done
set +e
strace -f -e trace=openat -o "$TMP/trace" "$BIN" publish "$TMP/c" https://127.0.0.1:1/r.git >/dev/null 2>"$TMP/err"
rc=$?
set -e
[ "$rc" -ne 0 ] || die "a push to https://127.0.0.1:1 succeeded"
has "$TMP/err" "127.0.0.1"
[ -n "$(certs "$TMP/trace")" ] || die "a push to an https remote read no certificates"
echo "ok: certificates read only for the https remote"
