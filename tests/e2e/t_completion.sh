# Bash completion (tools/gen-completion, issue 33) completes values, not only commands and
# options: --entropy and --visibility from umpire's own list, rule system names, campaign
# folders (those holding campaign.yaml, else folders on the way to one), order and scenario
# files (*.yaml) where a command takes them, folders for --maildir. Called as bash does:
# COMP_WORDS and COMP_CWORD set, then _umpire, COMPREPLY read back.
. "$ROOT/tests/e2e/lib.sh"
command -v bash >/dev/null || skip "no bash"
mkdir w && cd w
sh "$ROOT/tools/gen-completion" "$BIN" > umpire.bash
mkdir -p games/harbour games/notes "my maildir" && : > games/harbour/campaign.yaml
: > orders.yaml; : > notes.txt; : > scen.yml
# complete WORD...: the completions of the last word, one a line, sorted.
complete_() {
    bash -c '. ./umpire.bash || exit 1
        COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _umpire
        for w in "${COMPREPLY[@]}"; do printf "%s\n" "$w"; done' sh umpire "$@" | sort
}
check() { # check "WORDS" "EXPECTED (sorted, space-separated)"
    # shellcheck disable=SC2086
    _got=$(eval "complete_ $1" | tr '\n' ' ' | sed 's/ $//')
    [ "$_got" = "$2" ] || die "umpire $1<TAB>: '$_got' ('$2' expected)"
}
check 'init c --entropy ""' 'beacon none players'
check 'init c --visibility s' 'sealed'
check 'rules land' 'land-raid'
check 'rules ""' 'hm-events land-raid nhis reivers warmaster'
check 'turn ""' 'games my maildir'             # no campaign here: the folders to go down
check 'turn games/' 'games/harbour'            # only the campaign, not games/notes
check 'check games/harbour ""' 'games my maildir orders.yaml scen.yml'
check 'close games/harbour orders.yaml --rulings ""' 'games my maildir orders.yaml scen.yml'
check 'init --scenario s' 'scen.yml'
check 'inbox games/harbour --maildir my' 'my maildir'
check 'status games/harbour ""' ''
check 'nonce ""' ''
check 'help rep' 'replay'
check 'turn games/harbour --beacon-f' '--beacon-fetch'
check 're' 'remind replay resume reveal'
# What umpire refuses, the completion does not offer, and the other way round.
for e in $(complete_ init c --entropy ""); do
    expect 64 "$BIN" init c --entropy "$e" --bogus
    has "$TMP/err" "unrecognized option '--bogus'"
done
