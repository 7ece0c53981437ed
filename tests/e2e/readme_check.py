#!/usr/bin/env python3
"""readme_check.py README SECTION INDEX — the README's shown outputs against real ones.

SECTION is a "## " heading of README. Every fenced ```console block in it is a list of
commands (`$ CMD`) each followed by the output the README shows; every ```markdown block is a
file's content. INDEX lists what was really printed: lines `KEY<TAB>FILE`, KEY being a
command exactly as the README writes it after `$ `, or `markdown:N` for the section's N-th
markdown block (from 1). A README command missing from INDEX fails.

The README's lines must be the real output's, in order and adjacent; a line that is just `…`
marks a cut (any number of lines, at least one, left out); `…` inside a line stands for any
text (a hash, a date). An output shown without a final `…` is the whole output. Exit 1 with
the first difference."""
import sys


def matches(want, got):
    if "…" not in want:
        return want == got
    parts = want.split("…")
    if not got.startswith(parts[0]) or not got.endswith(parts[-1]):
        return False
    pos = len(parts[0])
    for p in parts[1:-1]:
        k = got.find(p, pos)
        if k < 0:
            return False
        pos = k + len(p)
    return pos <= len(got) - len(parts[-1])


def check(key, want, got):
    i, cut = 0, False
    for w in want:
        if w == "…":
            cut = True
            continue
        j = i + 1 if cut else i  # a cut leaves out one line at least
        if cut:
            while j < len(got) and not matches(w, got[j]):
                j += 1
        if j >= len(got) or not matches(w, got[j]):
            where = "after a cut" if cut else f"as line {i + 1}"
            return f"{key}: README line {w!r} not printed {where} (printed: {got[i:i + 3]!r})"
        i, cut = j + 1, False
    if not cut and i < len(got):
        return f"{key}: printed more than the README shows without marking the cut (…): {got[i]!r}"
    return None


def blocks(readme, section):
    on, fence, kind, body, out = False, False, None, [], []
    for line in open(readme, encoding="utf-8").read().split("\n"):
        if not fence and line.startswith("## "):
            on = line == section
            continue
        if not on:
            continue
        if line.startswith("```"):
            if fence:
                out.append((kind, body))
                fence, body = False, []
            else:
                fence, kind = True, line[3:].strip()
            continue
        if fence:
            body.append(line)
    return out


def main():
    readme, section, index = sys.argv[1:4]
    rec = {}
    for line in open(index, encoding="utf-8"):
        k, f = line.rstrip("\n").split("\t", 1)
        rec[k] = f
    n_md, n_checked = 0, 0
    for kind, body in blocks(readme, section):
        cases = []
        if kind == "console":
            for line in body:
                if line.startswith("$ "):
                    cases.append((line[2:], []))
                elif cases:
                    cases[-1][1].append(line)
        elif kind == "markdown":
            n_md += 1
            cases.append((f"markdown:{n_md}", body))
        for key, want in cases:
            if key not in rec:
                print(f"readme_check: {section}: '{key}' was not run by the test")
                return 1
            got = open(rec[key], encoding="utf-8").read().rstrip("\n").split("\n")
            got = [] if got == [""] else got
            err = check(key, want, got)
            if err:
                print(f"readme_check: {section}: {err}")
                return 1
            n_checked += 1
    if n_checked == 0:
        print(f"readme_check: {section}: no console or markdown block found")
        return 1
    print(f"readme_check: {section}: {n_checked} outputs as shown")
    return 0


sys.exit(main())
