# t_install_deps.sh — tools/install-deps never removes a package (issue 33): the run and test
# lists remove nothing on this machine (apt-get -s), and given a list holding a package that
# conflicts with this machine's mail server (exim4-daemon-light where Postfix runs, Postfix
# where another one does), install-deps refuses, naming the server, and changes nothing. It
# runs as an unprivileged user, so that nothing could be installed even if it did not refuse.
# Skipped on a machine with no mail server (tools/fresh-machine --mta exim4-daemon-light
# checks the same on a fresh Debian).
. "$ROOT/tests/e2e/lib.sh"
for mode in run test; do
    pkgs=$(sh "$ROOT/tools/install-deps" "$mode" --list | tr '\n' ' ')
    # shellcheck disable=SC2086
    plan=$(apt-get -s -q --no-install-recommends install $pkgs 2>&1) || { echo "$plan"; die "apt-get -s failed for the $mode list"; }
    ! printf '%s\n' "$plan" | grep '^Remv ' || die "installing the $mode list would remove the packages above"
done

state() { dpkg-query -W -f '${db:Status-Abbrev} ${Package} ${Version}\n'; }
mta=$(state | awk '$1 == "ii" && ($2 == "postfix" || $2 ~ /^exim4-daemon-/ || $2 == "nullmailer" || $2 == "msmtp-mta") { print $2; exit }')
[ -n "$mta" ] || skip "no mail server installed here to keep"
if [ "$mta" = postfix ]; then other=exim4-daemon-light; else other=postfix; fi
sed "/^TEST_PKGS=\"\$/a $other" "$ROOT/tools/install-deps" > install-deps
grep -qx "$other" install-deps || die "the copy's list lacks $other"
chmod 755 "$TMP" install-deps
before=$(state)
as_user() { if [ "$(id -u)" -eq 0 ]; then setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; else "$@"; fi; }
expect 1 as_user env HOME="$TMP" bash "$TMP/install-deps" test
has "$TMP/err" "install-deps: refusing to install:"
has "$TMP/err" "apt-get would remove"
has "$TMP/err" "$mta"
has "$TMP/err" "nothing was installed"
after=$(state)
[ "$before" = "$after" ] || die "the packages changed"
echo "ok: install-deps refuses to install $other, which would remove $mta"
