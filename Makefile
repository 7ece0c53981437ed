# umpire — build, test, demo, install.  VARIANT=release|debug|san (ASan+UBSan), each built in
# its own folder build/$(VARIANT); the release binary is also build/umpire, where the scripts
# and the README expect it.  V=1 shows the full compiler commands.
# Sources are found by wildcard: drop a .c into src/core, src/cmd or src/rules/<name>/ and it builds.

# Every recipe line runs in bash and stops at its first failing command, in a pipeline or a
# command substitution too (issue 33), with that command's own message.
SHELL       := /bin/bash
.SHELLFLAGS := -euo pipefail -O inherit_errexit -c

PREFIX   ?= /usr/local
DESTDIR  ?=
VARIANT  ?= release
VARIANTS := release debug san fuzz
ifneq ($(words $(VARIANT)) $(filter $(VARIANT),$(VARIANTS)),1 $(VARIANT))
  $(error VARIANT='$(VARIANT)' is not a build variant: use one of $(VARIANTS))
endif
BUILD    := build/$(VARIANT)

CC       ?= cc
PKGS     := yaml-0.1 sqlite3 libgit2 libsodium jansson gsl gmime-3.0 libcurl libcrypto
CPPFLAGS += -Isrc -I$(BUILD)/gen -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
CFLAGS   += -std=c17 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
            -Wformat=2 -Wno-format-nonliteral $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
# libcurl's, GMime's and GSL's headers only: src/core/net.c opens libcurl when a mail goes,
# src/mail/mail.c GMime (with GLib) when a mail is read or written, src/cmd/stats.c GSL when
# it prints a report (dlopen), so their 33 libraries are not mapped and relocated at every start.
LDLIBS   += $(shell pkg-config --libs $(filter-out libcurl gmime-3.0 gsl,$(PKGS)) 2>/dev/null)
TEST_LDLIBS := $(shell pkg-config --libs check 2>/dev/null)
# The fuzz targets check what mail.c hands back with GLib's UTF-8 validator.
FUZZ_LDLIBS := $(shell pkg-config --libs glib-2.0 2>/dev/null)

ifeq ($(VARIANT),debug)
  CFLAGS += -O0 -g3
else ifeq ($(VARIANT),fuzz)
  # clang's libFuzzer with ASan+UBSan: `make fuzz`.
  CC := clang
  CFLAGS += -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer \
            -Wno-string-concatenation \
            -fno-sanitize-recover=all
  LDFLAGS += -fsanitize=address,undefined
else ifeq ($(VARIANT),san)
  CFLAGS += -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
  LDFLAGS += -fsanitize=address,undefined
else
  CFLAGS += -O2 -g
endif

# Quiet by default ("CC src/core/dice.c"), like git's and the kernel's builds; V=1 for commands,
# make -s for neither.
ifeq ($(V),1)
  Q :=
  say :=
else ifneq ($(findstring s,$(firstword -$(MAKEFLAGS))),)
  Q := @
  say := @
else
  Q := @
  say = @printf '  %-5s %s\n' $(1) $(2);
endif

LIB_SRC  := $(sort $(wildcard src/core/*.c) $(wildcard src/mail/*.c) $(wildcard src/rules/*.c) $(wildcard src/rules/*/*.c))
CMD_SRC  := $(sort $(wildcard src/cmd/*.c)) src/main.c
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
CMD_OBJ  := $(CMD_SRC:%.c=$(BUILD)/obj/%.o)
TEST_SRC := $(sort $(wildcard tests/unit/check_*.c))
TEST_BIN := $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)
LIB      := $(BUILD)/libumpire.a
# umpire is the front (src/front.c, the C library alone): it answers an idle `umpire run`
# pass from .umpire/run-idle and execs umpire-core, the whole program, for everything else.
BIN      := $(BUILD)/umpire
CORE     := $(BUILD)/umpire-core
FRONT_OBJ := $(BUILD)/obj/src/front.o $(BUILD)/obj/src/core/idle.o $(BUILD)/obj/src/core/clock.o
# The BLS helper (src/bls/, Go on Cloudflare's CIRCL as Debian packages it): built offline from
# /usr/share/gocode, spawned by umpire (src/core/bls.c).
BLS      := $(BUILD)/umpire-bls
GO_ENV   := GOPATH=/usr/share/gocode GO111MODULE=off GOFLAGS= GOCACHE=$(CURDIR)/build/gocache \
            GOTOOLCHAIN=local CGO_ENABLED=0

FUZZ_SRC   := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_NAMES := $(FUZZ_SRC:tests/fuzz/%.c=%)
FUZZ_BIN   := $(FUZZ_NAMES:%=$(BUILD)/fuzz/%)
FUZZ_DEPS  := tests/fuzz/common.c tests/fuzz/fuzz.h

.PHONY: all deps deps-test man completion test test-build unit e2e lint demo install clean fuzz fuzz-run fuzz-corpus bench web web-unit
all: $(BIN) $(CORE) $(BLS)

# build/umpire is the release binary, whatever variant was built last.
ifeq ($(VARIANT),release)
all: build/umpire
build/umpire: $(BIN) $(CORE)
	$(Q)ln -sf release/umpire $@
endif

# tools/install-deps run: what building and running need (make demo); test: also the test,
# fuzz and lint tool chains (make test, make fuzz).
deps:
	@tools/install-deps run
deps-test:
	@tools/install-deps test

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(call say,CC,$<)$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@

# The journal's DDL is compiled in from schemas/journal.sql: one source of truth.
$(BUILD)/gen/journal_sql.h: schemas/journal.sql
	@mkdir -p $(dir $@)
	$(call say,GEN,$@)sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $< > $@
$(BUILD)/obj/src/core/journal.o: $(BUILD)/gen/journal_sql.h

$(BLS): $(wildcard src/bls/*.go)
	@mkdir -p $(dir $@)
	$(call say,GO,$@)$(GO_ENV) go build -trimpath -o $@ ./src/bls

$(LIB): $(LIB_OBJ)
	@rm -f $@
	$(call say,AR,$@)ar rcs $@ $^

$(CORE): $(CMD_OBJ) $(LIB)
	$(call say,LINK,$@)$(CC) $(LDFLAGS) -o $@ $(CMD_OBJ) $(LIB) $(LDLIBS)

# The front starts for every command: the release build links it statically (no dynamic
# loader: an idle pass took about 1.5 ms CPU less on the 2-core machine; -static-pie gave
# back 1 ms of it to relocate itself); the sanitizers of the other variants need the
# dynamic loader.
ifeq ($(VARIANT),release)
  FRONT_LDFLAGS := -static
endif
$(BIN): $(FRONT_OBJ)
	$(call say,LINK,$@)$(CC) $(LDFLAGS) $(FRONT_LDFLAGS) -o $@ $(FRONT_OBJ)

$(BUILD)/tests/%: tests/unit/%.c tests/unit/testutil.c tests/unit/testutil.h $(LIB)
	@mkdir -p $(dir $@)
	$(call say,CC,$@)$(CC) $(CPPFLAGS) $(CFLAGS) -Itests/unit -o $@ $< tests/unit/testutil.c $(LIB) $(LDLIBS) $(TEST_LDLIBS) $(LDFLAGS)

# Fuzz targets (tests/fuzz/fuzz_*.c). Built with clang's libFuzzer in VARIANT=fuzz; in any
# other variant with driver.c, a plain main that feeds the target the files it is given.
ifeq ($(VARIANT),fuzz)
$(BUILD)/fuzz/%: tests/fuzz/%.c $(FUZZ_DEPS) $(LIB)
	@mkdir -p $(dir $@)
	$(call say,CC,$@)$(CC) $(CPPFLAGS) $(CFLAGS) -Itests/fuzz -fsanitize=fuzzer -o $@ $< tests/fuzz/common.c $(LIB) $(LDLIBS) $(FUZZ_LDLIBS) $(LDFLAGS)
else
$(BUILD)/fuzz/%: tests/fuzz/%.c tests/fuzz/driver.c $(FUZZ_DEPS) $(LIB)
	@mkdir -p $(dir $@)
	$(call say,CC,$@)$(CC) $(CPPFLAGS) $(CFLAGS) -Itests/fuzz -o $@ $< tests/fuzz/driver.c tests/fuzz/common.c $(LIB) $(LDLIBS) $(FUZZ_LDLIBS) $(LDFLAGS)
endif

# Every fuzz target over its committed corpus (tests/fuzz/corpus/TARGET/): a regression run.
fuzz-corpus: $(FUZZ_BIN)
	@set -e; for t in $(FUZZ_NAMES); do UMPIRE_ROOT=. $(BUILD)/fuzz/$$t tests/fuzz/corpus/$$t; done

# The README's fuzz command: each target under libFuzzer for FUZZ_SECONDS (new inputs go to
# build/fuzz/corpus/TARGET, crashes to build/fuzz/findings/); then the executions of each.
FUZZ_SECONDS ?= 20
fuzz: deps-test
	@$(MAKE) --no-print-directory VARIANT=fuzz fuzz-run
fuzz-run: $(FUZZ_BIN)
	@set -e; for t in $(FUZZ_NAMES); do \
		mkdir -p $(BUILD)/corpus/$$t $(BUILD)/findings; \
		echo "== $$t ($(FUZZ_SECONDS) s)"; \
		UMPIRE_ROOT=. $(BUILD)/fuzz/$$t -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
			-artifact_prefix=$(BUILD)/findings/$$t- $(BUILD)/corpus/$$t tests/fuzz/corpus/$$t \
			2>$(BUILD)/fuzz/$$t.log || { tail -n 60 $(BUILD)/fuzz/$$t.log; exit 1; }; \
		grep -E 'stat::number_of_executed_units|stat::peak_rss_mb' $(BUILD)/fuzz/$$t.log; \
	done

# The README's test command: installs what is missing, builds, runs every suite on the release
# build, then the unit suites and the fuzz corpora under ASan+UBSan (build/san).
test: deps-test
	@$(MAKE) --no-print-directory -j2 VARIANT=release test-build
	@$(MAKE) --no-print-directory VARIANT=release lint unit web-unit e2e
	@$(MAKE) --no-print-directory -j2 VARIANT=san test-build
	@$(MAKE) --no-print-directory VARIANT=san unit fuzz-corpus

# What the suites of a variant run, built first on both cores (the suites then run on both too).
test-build: $(BIN) $(CORE) $(BLS) $(TEST_BIN)

# Check's timeout (4 s a test by default) only guards against a hang: 60 s, so that a test
# that spawns programs (check_journal's sqlite3 shell) passes on a loaded machine too.
# The suites run TEST_JOBS at a time (default: the online CPUs), each one's output printed
# whole when it ends; any failure fails the target.
TEST_JOBS ?= $(shell getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
unit: $(TEST_BIN) $(BLS) web
	@printf '%s\n' $(TEST_BIN) | xargs -P $(TEST_JOBS) -I '{}' sh -c \
		's=$$(date +%s); out=$$(CK_FORK=yes CK_DEFAULT_TIMEOUT=$${CK_DEFAULT_TIMEOUT:-60} "$$1" 2>&1); \
		rc=$$?; printf "== %s (%s s)\n%s\n" "$$1" $$(($$(date +%s) - s)) "$$out"; exit $$rc' unit '{}'

e2e: all web
	@sh tests/e2e/run-all.sh $(BIN) $(E2E)

# The independent verifier in JavaScript (web/, issue 35): `npm ci` installs the pinned packages
# of web/package-lock.json into web/node_modules (from npm's cache when it has them; no install
# scripts run), esbuild bundles the page and the command line into build/web/, and the SHA-256
# of each bundle is printed. Not part of `all`: it needs node and npm (tools/install-deps test).
# Nothing is fetched when the page runs.
WEB_SRC := $(sort $(wildcard web/src/*.js web/src/page/*)) web/build.mjs web/build-tlock.mjs tools/umpire-verify.mjs tools/umpire-tlock.mjs $(wildcard schemas/*.json)
web/node_modules/.package-lock.json: web/package.json web/package-lock.json
	$(call say,NPM,web/node_modules)cd web && npm ci --prefer-offline --ignore-scripts --no-audit --no-fund --loglevel=error
build/web/verify.js: web/node_modules/.package-lock.json $(WEB_SRC)
	$(call say,WEB,build/web)node web/build.mjs build/web
web: build/web/verify.js
# node's test runner on the vectors (tests/vectors/*.json) and the modules of web/src/: run once
# by `make test` (not per variant: the same bytes).
web-unit: web
	@cd web && node --test test/*.test.mjs

# The layout of .clang-format is checked (tools/check-format); FORMAT_CHECK=0 skips it.
FORMAT_CHECK ?= 1
# tools/check-run-deps: every program the run path calls (recipes, tools/, umpire's spawns)
# comes with a package tools/install-deps run installs (or an essential one).
lint:
	@tools/check-boundaries
	@tools/check-run-deps
ifeq ($(FORMAT_CHECK),1)
	@tools/check-format
endif

# `make bench`: bench/run.sh prints each row of issue 17's table as a ratio against its floor
# (under 5 minutes; speed is measured here, never asserted in tests). BENCH_TURNS sets the
# long campaign's length (default 1000). BENCH_BEFORE=TREE (another built source tree) adds
# bench/compare.sh's table, TREE against this one in alternated pairs, with the same floor
# (on BENCH_SIGNED_CAMPAIGN when it is set).
$(BUILD)/bench/floor: bench/floor.c $(LIB)
	@mkdir -p $(dir $@)
	$(call say,CC,$@)$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(LIB) $(LDLIBS) $(LDFLAGS)

bench: all $(BUILD)/bench/floor
	@[ -z "$(BENCH_BEFORE)" ] || [ -x "$(BENCH_BEFORE)/build/umpire" ] || \
		{ echo "make bench: BENCH_BEFORE=$(BENCH_BEFORE): no build/umpire there (make all web in it)" >&2; exit 66; }
	@sh bench/run.sh $(BIN) $(BUILD)/bench/floor
	@[ -z "$(BENCH_BEFORE)" ] || BENCH_FLOOR=$(BUILD)/bench/floor sh bench/compare.sh "$(BENCH_BEFORE)" . $(if $(BENCH_SIGNED_CAMPAIGN),"$(BENCH_SIGNED_CAMPAIGN)")

# The README's demo command: plays every shipped example campaign from scratch.
demo: deps
	@$(MAKE) --no-print-directory all web
	@tools/demo $(BIN) build/demo

# make install: under $(DESTDIR)$(PREFIX), the binary and the independent verifier in JavaScript
# (bin/umpire-verify: a link to share/umpire/web/umpire-verify.mjs, the bundle `make web` makes,
# when it is made; run by node, which takes it as an ES module by the name the link points to:
# node 18, Debian 12's, does not by the content of a file with no .mjs), the whole program
# (libexec/umpire/umpire-core, which the front bin/umpire execs) and the BLS
# helper (libexec/umpire/umpire-bls, which both find there), the
# man page generated from every command's --help (share/man/man1/umpire.1), bash completion,
# the docs (share/doc/umpire: README, docs/*.md, rules/NAME.md, which `umpire rules NAME`
# finds relative to the binary) and the JSON Schemas (share/umpire/schemas); when `make web`
# has built them (node, test list of tools/install-deps), the browser verifier and site.js that
# `umpire site` copies into a campaign's pages, and umpire-tlock.mjs (issue 36), all in
# share/umpire/web, found from the binary.
MANDIR   ?= $(PREFIX)/share/man
DOCDIR   ?= $(PREFIX)/share/doc/umpire
DATADIR  ?= $(PREFIX)/share/umpire
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions

$(BUILD)/umpire.1: $(BIN) $(CORE) tools/gen-man
	$(call say,GEN,$@)tools/gen-man $(BIN) > $@.tmp && mv $@.tmp $@
$(BUILD)/umpire.bash: $(BIN) $(CORE) tools/gen-completion
	$(call say,GEN,$@)tools/gen-completion $(BIN) > $@.tmp && mv $@.tmp $@
man: $(BUILD)/umpire.1
completion: $(BUILD)/umpire.bash

install: $(BIN) $(CORE) $(BLS) $(BUILD)/umpire.1 $(BUILD)/umpire.bash
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/libexec/umpire $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(BASHCOMPDIR) \
		$(DESTDIR)$(DOCDIR)/rules $(DESTDIR)$(DATADIR)/schemas
	install -m 0755 $(BIN) $(DESTDIR)$(PREFIX)/bin/umpire
	install -m 0755 $(CORE) $(DESTDIR)$(PREFIX)/libexec/umpire/umpire-core
	install -m 0755 $(BLS) $(DESTDIR)$(PREFIX)/libexec/umpire/umpire-bls
	if [ -f build/web/umpire-verify.mjs ]; then install -d $(DESTDIR)$(DATADIR)/web && \
		install -m 0755 build/web/umpire-verify.mjs $(DESTDIR)$(DATADIR)/web/umpire-verify.mjs && \
		ln -sfn "$$(realpath -m --relative-to=$(PREFIX)/bin $(DATADIR)/web/umpire-verify.mjs)" \
			$(DESTDIR)$(PREFIX)/bin/umpire-verify; \
	else echo "make install: no build/web/umpire-verify.mjs: 'make web' (node, npm) first to install umpire-verify"; fi
	install -m 0644 $(BUILD)/umpire.1 $(DESTDIR)$(MANDIR)/man1/umpire.1
	install -m 0644 $(BUILD)/umpire.bash $(DESTDIR)$(BASHCOMPDIR)/umpire
	install -m 0644 README.md docs/*.md $(DESTDIR)$(DOCDIR)
	install -m 0644 docs/rules/*.md $(DESTDIR)$(DOCDIR)/rules
	install -m 0644 schemas/*.json schemas/journal.sql $(DESTDIR)$(DATADIR)/schemas
	if [ -f build/web/verify.js ]; then install -d $(DESTDIR)$(DATADIR)/web && \
		install -m 0644 build/web/index.html build/web/verify.css build/web/verify.js \
			build/web/site.js build/web/seal.html build/web/seal.js $(DESTDIR)$(DATADIR)/web; fi
	if [ -f build/web/umpire-tlock.mjs ]; then install -d $(DESTDIR)$(DATADIR)/web && \
		install -m 0755 build/web/umpire-tlock.mjs $(DESTDIR)$(DATADIR)/web/umpire-tlock.mjs; fi

clean:
	rm -rf build

-include $(LIB_OBJ:.o=.d) $(CMD_OBJ:.o=.d) $(BUILD)/obj/src/front.d
