# GMime (with GLib), libcurl and GSL are opened when a mail is read or written, when one goes
# and when `umpire stats` prints its test (dlopen: src/mail/mail.c, src/core/net.c, src/cmd/stats.c),
# not linked: the binary does not list them, other commands never open them, `umpire inbox`
# opens GMime and reads its mail, `umpire stats` opens GSL; when GMime cannot be loaded (here
# its open fails: strace's fault injection) inbox stops with the library's name and leaves every
# message in new/ rather than answering them as unreadable, and stats without GSL says so. The
# traced parts need strace; without it they say so and the link check alone runs.
. "$ROOT/tests/e2e/lib.sh"
SRC=$ROOT/campaigns/bewcastle-fray
# umpire-core, the whole program the front (umpire, the C library alone) starts
CORE=$(dirname "$(readlink -f "$BIN")")/umpire-core
for lib in libgmime-3.0 libglib-2.0 libgobject-2.0 libcurl libgsl; do
    ! ldd "$CORE" | grep -q "$lib" || die "umpire-core is linked with $lib"
done
command -v strace >/dev/null 2>&1 || { echo "skipped the traced part: no strace"; exit 0; }

with_emails "$SRC/scenario.yaml" armstrong=blood@example.org forster=governor@example.org > scenario.yaml
printf 'mail:\n  from: umpire@example.org\n' >> scenario.yaml
expect 0 "$BIN" init c --scenario scenario.yaml --secret-file "$SRC/demo.secret" --entropy none
python3 "$ROOT/tests/e2e/mail/make-messages.py" md bewcastle-fray \
    "$SRC/orders/turn-0001/armstrong.yaml" "$SRC/orders/turn-0001/forster.yaml"
cp -R md md-nogmime
n=$(ls md/new | wc -l)

# opened FILE: the GMime, GLib, libcurl and GSL files a traced run opened
opened() { grep -E 'openat\(.*lib(gmime|glib|gobject|curl|gsl)' "$1" || true; }
for cmd in "--version" "status c" "log c"; do
    # shellcheck disable=SC2086
    strace -f -e trace=openat -o trace "$BIN" $cmd >/dev/null 2>&1 || die "$cmd failed"
    [ -z "$(opened trace)" ] || { opened trace; die "'umpire $cmd' opened GMime, GLib, libcurl or GSL"; }
done
strace -f -e trace=openat -o trace "$BIN" inbox c --maildir md >out 2>err || { cat out err; die "inbox failed"; }
has out "01-attachment: accepted: orders of armstrong for turn 1"
gmime=$(sed -n 's/^.*openat([^"]*"\([^"]*libgmime-3\.0\.so\.0\)".* = [0-9][0-9]*$/\1/p' trace | head -n 1)
[ -n "$gmime" ] || { opened trace; die "inbox did not open libgmime-3.0.so.0"; }

# GMime's open fails wherever the loader looks for it (the path of ld.so.cache and the default
# directories, with and without /usr), on a campaign of its own (c has seen these messages).
lib=${gmime#/usr}
expect 0 "$BIN" init c2 --scenario scenario.yaml --secret-file "$SRC/demo.secret" --entropy none
set +e
strace -o /dev/null -f -e trace=openat -e inject=openat:error=ENOENT -P "$lib" -P "/usr$lib" \
    "$BIN" inbox c2 --maildir md-nogmime >out 2>err
rc=$?
set -e
[ "$rc" -eq 74 ] || { cat out err; die "inbox without GMime exited $rc (74 expected)"; }
has err "umpire inbox: mail: cannot load GMime (libgmime-3.0.so.0):"
[ "$(ls md-nogmime/new | wc -l)" -eq "$n" ] || die "inbox without GMime moved mail out of new/"
[ ! -d md-nogmime/cur ] || [ -z "$(ls md-nogmime/cur)" ] || die "inbox without GMime answered mail"

strace -f -e trace=openat -o trace "$BIN" stats c >out 2>err || { cat out err; die "stats failed"; }
has out "verdict: too few dice to test"
gsl=$(sed -n 's/^.*openat([^"]*"\([^"]*libgsl\.so\.[0-9]*\)".* = [0-9][0-9]*$/\1/p' trace | head -n 1)
[ -n "$gsl" ] || { opened trace; die "stats did not open GSL"; }
! grep -q libgmime trace || die "stats opened GMime"
lib=${gsl#/usr}
set +e
strace -o /dev/null -f -e trace=openat -e inject=openat:error=ENOENT -P "$lib" -P "/usr$lib" \
    "$BIN" stats c >out 2>err
rc=$?
set -e
[ "$rc" -eq 74 ] || { cat out err; die "stats without GSL exited $rc (74 expected)"; }
has err "umpire: stats: cannot load GSL (libgsl.so."
echo "ok: GMime, GLib, libcurl and GSL not linked; GMime opened by inbox only, GSL by stats only; their absence reported"
