# make install into a DESTDIR: the binary (the front, and umpire-core and umpire-bls in
# libexec/umpire/), umpire-verify (the JavaScript verifier's bundle),
# the man page (one section per
# command of `umpire --help`, holding every option that command's --help lists; `man -l`
# renders it), bash completion (loads in bash, completes commands and options), the docs
# (which the installed `umpire rules NAME` points at) and the JSON Schemas.
. "$ROOT/tests/e2e/lib.sh"
dest="$TMP/dest"
prefix=/opt/umpire-test
make -s -C "$ROOT" --no-print-directory install DESTDIR="$dest" PREFIX=$prefix > "$TMP/make.log" 2>&1 ||
    { cat "$TMP/make.log" >&2; die "make install failed"; }
root="$dest$prefix"
for f in bin/umpire bin/umpire-verify libexec/umpire/umpire-core libexec/umpire/umpire-bls; do
    [ -x "$root/$f" ] || die "$f not installed (or not executable)"
done
# bin/umpire is the front, the C library alone: it starts libexec/umpire/umpire-core, which
# finds the docs, the schemas and the web files from bin/ (file_beside_binary)
ldd "$root/bin/umpire" | grep -q 'libgit2\|libcrypto' && die "the front maps libgit2 or libcrypto"
[ "$("$root/bin/umpire" --version)" = "umpire 0.1" ] || die "the installed umpire does not start umpire-core"
for f in share/man/man1/umpire.1 share/bash-completion/completions/umpire \
    share/doc/umpire/README.md share/doc/umpire/fairness.md share/doc/umpire/formats.md \
    share/umpire/schemas/land-raid-orders.schema.json share/umpire/schemas/journal.sql; do
    [ -s "$root/$f" ] || die "$f not installed"
done
u="$root/bin/umpire"
for name in $("$u" rules | awk '{ print $1 }'); do
    [ -s "$root/share/doc/umpire/rules/$name.md" ] || die "docs/rules/$name.md not installed"
    "$u" rules "$name" > "$TMP/rules.txt"
    has "$TMP/rules.txt" "$root/share/doc/umpire/rules/$name.md"
done
n_schemas=$(ls "$ROOT"/schemas/*.schema.json | wc -l)
[ "$(ls "$root"/share/umpire/schemas/*.schema.json | wc -l)" -eq "$n_schemas" ] ||
    die "not every schema installed"
"$root/bin/umpire-verify" --help > "$TMP/verify.txt" || die "installed umpire-verify --help failed"
# node 18 (Debian 12's) takes a file as an ES module by its name (.mjs), never by its content:
# the installed command resolves to the bundle's .mjs, and runs where node is told not to guess
# from content (node 20.19+; node 18 never does)
case $(readlink -f "$root/bin/umpire-verify") in
*.mjs) ;;
*) die "bin/umpire-verify is not (a link to) an .mjs file: node 18 would read it as CommonJS" ;;
esac
if node --no-experimental-detect-module -e 0 2>/dev/null; then
    node --no-experimental-detect-module "$root/bin/umpire-verify" --help >/dev/null ||
        die "installed umpire-verify fails when node does not detect ES modules by content"
fi
# umpire site finds the installed verifier page and schemas (when make web built the page)
if [ -f "$ROOT/build/web/verify.js" ]; then
    "$u" init "$TMP/camp" --scenario "$ROOT/campaigns/harbour-raid/scenario.yaml" \
        --secret-file "$ROOT/campaigns/harbour-raid/demo.secret" --entropy none >/dev/null
    "$u" site "$TMP/camp" "$TMP/site" > "$TMP/site.txt" 2>&1 || { cat "$TMP/site.txt"; die "installed umpire site failed"; }
    has "$TMP/site.txt" "$(sha256sum < "$root/share/umpire/web/verify.js" | cut -c1-64)  verify/verify.js"
    [ -s "$TMP/site/schemas/land-raid-orders.schema.json" ] || die "installed umpire site copied no schema"
fi

# The man page renders, and has a section per command with that command's options.
command -v man > /dev/null || die "man missing (tools/install-deps test installs man-db)"
MANWIDTH=100 man -P cat -l "$root/share/man/man1/umpire.1" > "$TMP/man.txt" 2> "$TMP/man.err" ||
    { cat "$TMP/man.err" >&2; die "man -l cannot render umpire.1"; }
[ ! -s "$TMP/man.err" ] || { cat "$TMP/man.err" >&2; die "man -l warned"; }
commands=$("$u" --help | sed -n 's/^  umpire \([a-z][a-z-]*\).*/\1/p')
[ "$(echo "$commands" | wc -l)" -ge 20 ] || die "fewer commands than expected in umpire --help"
for c in $commands; do
    awk -v c="$c" '$0 == "   umpire " c { on = 1; next } /^   [^ ]/ || /^[^ ]/ { on = 0 } on' \
        "$TMP/man.txt" > "$TMP/section.txt"
    [ -s "$TMP/section.txt" ] || die "no section 'umpire $c' in the man page"
    for o in $("$u" "$c" --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
        grep -qF -- "$o" "$TMP/section.txt" || die "man page section 'umpire $c' lacks $o"
    done
done

# Bash completion loads and completes.
bash -c '. "$1" && complete -p umpire > /dev/null &&
    COMP_WORDS=(umpire rep) COMP_CWORD=1 && _umpire && echo "${COMPREPLY[*]}" &&
    COMP_WORDS=(umpire turn --beacon-f) COMP_CWORD=2 && _umpire && echo "${COMPREPLY[*]}"' \
    sh "$root/share/bash-completion/completions/umpire" > "$TMP/comp.txt" ||
    die "the completion script does not load in bash"
grep -qx 'replay' "$TMP/comp.txt" || { cat "$TMP/comp.txt"; die "'umpire rep<TAB>' is not replay"; }
grep -qx -- '--beacon-fetch' "$TMP/comp.txt" || { cat "$TMP/comp.txt"; die "'turn --beacon-f<TAB>' is not --beacon-fetch"; }

# tools/install-deps: `make demo` installs what building and running need, `make test` also
# the test, fuzz and lint tool chains, which the run list leaves out.
sh "$ROOT/tools/install-deps" run --list > "$TMP/run.txt"
sh "$ROOT/tools/install-deps" test --list > "$TMP/test.txt"
for p in build-essential pkg-config git libgit2-dev libsqlite3-dev libcurl4-openssl-dev; do
    grep -qx "$p" "$TMP/run.txt" || die "install-deps run lacks $p"
done
for p in clang clang-format python3-aiosmtpd msmtp check python3-jsonschema man-db; do
    ! grep -qx "$p" "$TMP/run.txt" || die "install-deps run installs $p, which only the tests need"
    grep -qx "$p" "$TMP/test.txt" || die "install-deps test lacks $p"
done
while read -r p; do grep -qx "$p" "$TMP/test.txt" || die "install-deps test lacks run's $p"; done < "$TMP/run.txt"
make -n -C "$ROOT" --no-print-directory demo 2>/dev/null | grep -q 'install-deps run' || die "make demo does not run install-deps run"
make -n -C "$ROOT" --no-print-directory test 2>/dev/null | grep -q 'install-deps test' || die "make test does not run install-deps test"
