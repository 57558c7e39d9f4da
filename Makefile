# handfoot: the one Makefile (build, run, test, bench, fuzz, install).
#
# Plain `make` builds and never installs anything: it finds its libraries with
# pkg-config, and when one is missing it names it (and its Debian package) and
# stops.  Installing packages is tools/setup-debian's alone: `make deps`,
# `make run` and `make test` call it first (as root it installs what is
# missing; as anyone else it names it), then build in a sub-make.
#
# Sources are found by folder, so adding a file never means editing this:
#   lib/*.c                -> $(B)/libhflib.a      (the bottom floor: -Ilib only)
#   engine/*.c             -> $(B)/libhfengine.a   (libc and lib/utf8.h only; one object
#                                                   whose only global symbols are the
#                                                   functions of engine/handfoot.h)
#   bot/*/*.c but main.c   -> $(B)/libhfbot.a      (lib/, the engine's public header; bot/'s
#                                                   folders: docs/DESIGN.md's map)
#   adapters/*.c, */*.c    -> $(B)/libhfadapters.a (sees only lib/ and the adapter API)
#   bot/daemon/main.c      -> $(B)/handfoot        (bot/'s own includes only: it gets the
#                                                   adapters from the adapter API's
#                                                   adapters_table, which adapters/ defines)
# Programs link in plain library order, each floor after the ones above it
# (main.o's call of adapters_table pulls the table, and so every adapter, in):
#   main.o libhfadapters.a libhfbot.a libhfengine.a libhflib.a
#   tools/handfoot-sim.c   -> $(B)/handfoot-sim
#   tests/lib/*.c          -> linked into every test program (with the engine's
#                             objects, internals visible, rather than its library)
#   tests/unit/*.c         -> unit tests (cmocka), run plain and under ASan+UBSan
#   tests/e2e/*.c          -> end-to-end tests (cmocka) against the real binary
#   tests/bench/*.c        -> benchmarks, run by `make bench`
#   tests/fuzz/*.c         -> libFuzzer targets, run by `make fuzz`
#   (every test program is built as $(B)/tests/NAME; see tests/README.md)

PREFIX     ?= /usr/local
SBINDIR    ?= $(PREFIX)/sbin
BINDIR     ?= $(PREFIX)/bin
# /usr installs configure /etc (what packages do); anything else keeps it under PREFIX.
SYSCONFDIR ?= $(if $(filter /usr,$(PREFIX)),/etc,$(PREFIX)/etc)
MANPREFIX  ?= $(PREFIX)/share/man
UNITDIR    ?= $(PREFIX)/lib/systemd/system
DESTDIR    ?=

B ?= build
CC ?= cc
CFLAGS ?= -O2 -g
FUZZ_TIME ?= 30

WARN = -Wall -Wextra -Wformat=2 -Wmissing-prototypes -Wstrict-prototypes \
       -Wshadow -Wwrite-strings -Wno-format-nonliteral
ifeq ($(CI),true)
WARN += -Werror
endif
BASE_CFLAGS = -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) -MMD -MP
SAN_FLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

# ---------------------------------------------------------------- libraries
# Found with pkg-config (PKG_CONFIG_PATH / PKG_CONFIG_LIBDIR as usual), never
# by asking a package manager.  The core needs libcurl and sqlite3; each
# optional part is built when its libraries are found, or as asked:
#   WITH_MATRIX=no|yes   the Matrix adapter        (jansson)
#   WITH_DISCORD=no|yes  the Discord adapter       (jansson, libwebsockets)
#   WITH_WEB=no|yes      the web table adapter     (jansson, libwebsockets, libcrypto)
#   WITH_SYSTEMD=no|yes  readiness and watchdog    (libsystemd)
# An adapter with libraries says so in its folder, in adapters/NAME/BUILD
# (switch, pkg-config, debian, files: see adapters/matrix/BUILD), read here:
# nothing below names an adapter's switch or library.  Its switch defines
# HF_<switch> (HF_WITH_MATRIX) for the adapter table, adapters/adapters.c.
# A part left out is left out of the build, the adapter table and the tests.
# cmocka is needed by the tests only.
have = $(shell pkg-config --exists $(1) 2>/dev/null && echo yes || echo no)

# The adapters that declare build facts, by folder name; for each NAME,
# PART_NAME_switch, _pc, _deb and _files.  A BUILD file is plain "key = value"
# lines, which make reads as variables: each is read in turn and copied.
PARTS := $(patsubst adapters/%/BUILD,%,$(sort $(wildcard adapters/*/BUILD)))
define read_part
switch :=
pkg-config :=
debian :=
files :=
include adapters/$(1)/BUILD
PART_$(1)_switch := $$(strip $$(switch))
PART_$(1)_pc := $$(strip $$(pkg-config))
PART_$(1)_deb := $$(strip $$(debian))
PART_$(1)_files := $$(strip $$(files))
endef
$(foreach p,$(PARTS),$(eval $(call read_part,$(p))))
part_sw = $(PART_$(1)_switch)
# Each switch not given is "yes" when its libraries are found.
$(foreach p,$(PARTS),$(if $($(call part_sw,$(p))),,$(eval $(call part_sw,$(p)) := $(call have,$(PART_$(p)_pc)))))
ifndef WITH_SYSTEMD
WITH_SYSTEMD := $(call have,libsystemd)
endif
PARTS_ON := $(foreach p,$(PARTS),$(if $(filter yes,$($(call part_sw,$(p)))),$(p)))

PKGS := libcurl sqlite3 $(sort $(foreach p,$(PARTS_ON),$(PART_$(p)_pc)))
ifeq ($(WITH_SYSTEMD),yes)
PKGS += libsystemd
endif
# Where a missing library comes from on Debian, for the message: the core's
# here, each adapter's paired from its BUILD (pkg-config name i, package i).
DEB_libcurl = libcurl4-openssl-dev
DEB_sqlite3 = libsqlite3-dev
DEB_libsystemd = libsystemd-dev
DEB_cmocka = libcmocka-dev
$(foreach p,$(PARTS),$(foreach m,$(join $(addsuffix =,$(PART_$(p)_pc)),$(PART_$(p)_deb)),\
  $(eval DEB_$(firstword $(subst =, ,$(m))) := $(word 2,$(subst =, ,$(m))))))

# The parts compiled in, as macros for adapters/adapters.c and bot/daemon/notify.c.
WITH_DEFS := $(foreach p,$(PARTS_ON),-DHF_$(call part_sw,$(p))) \
             $(if $(filter yes,$(WITH_SYSTEMD)),-DHF_WITH_SYSTEMD)

# Recursively expanded, so pkg-config runs after the packages are installed.
PKG_CFLAGS  = $(shell pkg-config --cflags $(PKGS) 2>/dev/null) $(WITH_DEFS)
PKG_LIBS    = $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lm
# The tests' helpers speak JSON to the fake services whenever jansson is there.
HAVE_LIBCRYPTO := $(call have,libcrypto)
# libcrypto: tests/lib/synapse.c registers users with an HMAC (for Dendrite too; and the web tests).
TEST_PKGS   = cmocka $(if $(filter yes,$(call have,jansson)),jansson) $(if $(filter yes,$(HAVE_LIBCRYPTO)),libcrypto)
CMOCKA_CFLAGS = $(shell pkg-config --cflags $(TEST_PKGS) 2>/dev/null)
CMOCKA_LIBS = $(shell pkg-config --libs $(TEST_PKGS) 2>/dev/null)

# Sources are found by folder; the parts left out are filtered by name.
# An adapter left out takes its folder's name and its BUILD's files with it;
# the Matrix tests' homeservers need libcrypto too; test-checkdocs needs every
# adapter; lib/lwsserve.c is built when something links libwebsockets.
OUT_NAMES := $(foreach p,$(filter-out $(PARTS_ON),$(PARTS)),$(p) $(PART_$(p)_files)) \
             $(if $(filter no,$(WITH_MATRIX) $(HAVE_LIBCRYPTO)),synapse dendrite hsround) \
             $(if $(filter-out $(PARTS_ON),$(PARTS)),checkdocs) \
             $(if $(filter libwebsockets,$(PKGS)),,lwsserve)
left_out = $(foreach f,$(1),$(if $(strip $(foreach n,$(OUT_NAMES),$(findstring $(n),$(f)))),,$(f)))

LIB_SRC     := $(call left_out,$(sort $(wildcard lib/*.c)))
ENGINE_SRC  := $(sort $(wildcard engine/*.c))
BOT_MAIN    := bot/daemon/main.c
BOT_SRC     := $(sort $(filter-out $(BOT_MAIN),$(wildcard bot/*/*.c)))
# bot/'s folders, each on the include path of bot/ and the tests.
BOT_DIRS    := $(sort $(patsubst %/,%,$(dir $(wildcard bot/*/*.[ch]))))
ADAPTER_SRC := $(call left_out,$(sort $(wildcard adapters/*.c adapters/*/*.c)))
TESTLIB_SRC := $(call left_out,$(sort $(wildcard tests/lib/*.c)))
UNIT_SRC    := $(call left_out,$(sort $(wildcard tests/unit/*.c)))
E2E_SRC     := $(call left_out,$(sort $(wildcard tests/e2e/*.c)))
BENCH_SRC   := $(call left_out,$(sort $(wildcard tests/bench/*.c)))
FUZZ_SRC    := $(call left_out,$(sort $(wildcard tests/fuzz/*.c)))
# The web table's page, embedded in the binary at build time (tools/embed-assets.sh).
WEB_PAGE    := $(if $(filter yes,$(WITH_WEB)),$(sort $(wildcard adapters/web/page/*)))
# The adapter API: the only bot header an adapter may include (with lib/'s).
API_HDR     := bot/adapter.h
# The only lib/ header the engine may include.
ENGINE_LIB_HDR := lib/utf8.h

# Include paths enforce the layering (see docs/DESIGN.md): each floor is
# compiled seeing only what it may use.
LIB_INC     = -Ilib
ENGINE_INC  = -Iengine -I$(B)/engine-api
BOT_INC     = -Ibot $(addprefix -I,$(BOT_DIRS)) -Iengine -Ilib
ADAPTER_INC = -Iadapters -I$(B)/api -Ilib
TEST_INC    = -Itests/lib -Ibot $(addprefix -I,$(BOT_DIRS)) -Iengine -Iadapters -Ilib

# $(call objs,SOURCES)
objs = $(patsubst %.c,$(B)/obj/%.o,$(1))

.PHONY: all run run-console test check unit e2e bench fuzz install uninstall clean deps deps-test deps-fuzz \
        check-deps check-deps-test check-layers check-docs unit-build asan-build check-build \
        package package-test
.DEFAULT_GOAL := all

# ---------------------------------------------------------------- packages
# Installing is tools/setup-debian's alone (as root; it names what is missing
# otherwise).  The build itself only checks, with pkg-config.
deps:
	@sh tools/setup-debian build
# With `test`, setup-debian also puts Synapse (for the Matrix tests) in a venv
# in the build folder (tools/setup-synapse), builds Dendrite there when a
# Go 1.21+ is on the PATH (tools/setup-dendrite), and installs Lighthouse
# there from npm when a Node.js 18.16+ is (tools/setup-lighthouse).
deps-test:
	@HANDFOOT_BUILD=$(B) sh tools/setup-debian test package
deps-fuzz:
	@sh tools/setup-debian fuzz
check-deps:
	@missing=""; for p in $(PKGS); do pkg-config --exists $$p 2>/dev/null || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  for p in $$missing; do d="?"; for m in $(foreach p,$(PKGS),$(p)=$(DEB_$(p))); do \
	    [ "$${m%%=*}" = "$$p" ] && d=$${m#*=}; done; \
	    echo "handfoot needs the library $$p ($$p.pc not found by pkg-config; on Debian: $$d)"; done; \
	  echo "install them (as root on Debian: make deps), or leave the part out (WITH_MATRIX=no ...)"; exit 1; \
	fi
check-deps-test: check-deps
	@pkg-config --exists cmocka 2>/dev/null || \
	  { echo "the tests need the library cmocka (cmocka.pc not found by pkg-config; on Debian: $(DEB_cmocka))"; exit 1; }

# ---------------------------------------------------------------- the build tree
# One set of rules for $(B); the sanitizer tree is the same Makefile run again
# with B=$(B)/asan and the sanitizers in EXTRA_CFLAGS (see asan-build).
EXTRA_CFLAGS ?=
CF = $(BASE_CFLAGS) $(EXTRA_CFLAGS)

$(B)/obj/lib/%.o: lib/%.c | check-deps
	@mkdir -p $(@D)
	$(CC) $(CF) $(LIB_INC) $(PKG_CFLAGS) -c $< -o $@
$(B)/obj/engine/%.o: engine/%.c $(addprefix $(B)/engine-api/,$(notdir $(ENGINE_LIB_HDR))) | check-deps
	@mkdir -p $(@D)
	$(CC) $(CF) $(ENGINE_INC) -c $< -o $@
$(B)/obj/bot/%.o: bot/%.c | check-deps
	@mkdir -p $(@D)
	$(CC) $(CF) $(BOT_INC) $(PKG_CFLAGS) -c $< -o $@
$(B)/obj/adapters/%.o: adapters/%.c $(addprefix $(B)/api/,$(notdir $(API_HDR))) | check-deps
	@mkdir -p $(@D)
	$(CC) $(CF) $(ADAPTER_INC) $(PKG_CFLAGS) -c $< -o $@
$(B)/obj/tools/%.o: tools/%.c | check-deps
	@mkdir -p $(@D)
	$(CC) $(CF) -Iengine -c $< -o $@
$(B)/obj/tests/%.o: tests/%.c | check-deps check-deps-test
	@mkdir -p $(@D)
	$(CC) $(CF) $(TEST_INC) $(PKG_CFLAGS) $(CMOCKA_CFLAGS) -c $< -o $@
$(addprefix $(B)/api/,$(notdir $(API_HDR))): $(B)/api/%.h: bot/%.h
	@mkdir -p $(@D)
	cp $< $@
$(addprefix $(B)/engine-api/,$(notdir $(ENGINE_LIB_HDR))): $(B)/engine-api/%.h: lib/%.h
	@mkdir -p $(@D)
	cp $< $@
$(B)/libhflib.a: $(call objs,$(LIB_SRC))
	@mkdir -p $(@D); rm -f $@; $(if $^,ar rcs $@ $^,printf "!<arch>\n" > $@)
# The engine's public symbols: the functions its one public header declares.
$(B)/engine.syms: engine/handfoot.h
	@mkdir -p $(@D)
	sed -n -E 's/^[^#/ \t][^(]*[ *](hf_[a-z0-9_]+)\(.*/\1/p' $< | sort -u > $@
# One object, partially linked, whose only global symbols are those: a user
# of the library cannot reach (or collide with) the engine's internals.
$(B)/libhfengine.a: $(call objs,$(ENGINE_SRC)) $(B)/engine.syms
	@mkdir -p $(@D); rm -f $@
	$(CC) -r -nostdlib -o $(B)/obj/engine.o $(filter %.o,$^)
	objcopy --keep-global-symbols=$(B)/engine.syms $(B)/obj/engine.o
	ar rcs $@ $(B)/obj/engine.o
$(B)/libhfbot.a: $(call objs,$(BOT_SRC))
	@mkdir -p $(@D); rm -f $@; $(if $^,ar rcs $@ $^,printf "!<arch>\n" > $@)
$(B)/gen/web-assets.c: $(WEB_PAGE) tools/embed-assets.sh
	@mkdir -p $(@D)
	sh tools/embed-assets.sh $(WEB_PAGE) > $@
$(B)/obj/gen/web-assets.o: $(B)/gen/web-assets.c $(addprefix $(B)/api/,$(notdir $(API_HDR))) | check-deps
	@mkdir -p $(@D)
	$(CC) $(CF) $(ADAPTER_INC) -Iadapters/web -c $< -o $@
$(B)/libhfadapters.a: $(call objs,$(ADAPTER_SRC)) $(if $(WEB_PAGE),$(B)/obj/gen/web-assets.o)
	@mkdir -p $(@D); rm -f $@; $(if $^,ar rcs $@ $^,printf "!<arch>\n" > $@)
$(B)/handfoot: $(call objs,$(BOT_MAIN)) $(B)/libhfadapters.a $(B)/libhfbot.a $(B)/libhfengine.a $(B)/libhflib.a
	$(CC) $(EXTRA_CFLAGS) $(LDFLAGS) -o $@ $< $(filter %.a,$^) $(PKG_LIBS)
$(B)/handfoot-sim: $(B)/obj/tools/handfoot-sim.o $(B)/libhfengine.a $(B)/libhflib.a
	$(CC) $(EXTRA_CFLAGS) $(LDFLAGS) -o $@ $^ -lm
# Tests link the engine's objects (internals visible) rather than its library.
# Every test program lands in $(B)/tests/, whatever folder of tests/ it is from.
TEST_LINK = $(call objs,$(TESTLIB_SRC)) $(B)/libhfadapters.a $(B)/libhfbot.a $(call objs,$(ENGINE_SRC)) $(B)/libhflib.a
$(B)/tests/%: $(B)/obj/tests/unit/%.o $(TEST_LINK)
	@mkdir -p $(@D)
	$(CC) $(EXTRA_CFLAGS) $(LDFLAGS) -o $@ $< $(TEST_LINK) $(PKG_LIBS) $(CMOCKA_LIBS)
$(B)/tests/%: $(B)/obj/tests/e2e/%.o $(TEST_LINK)
	@mkdir -p $(@D)
	$(CC) $(EXTRA_CFLAGS) $(LDFLAGS) -o $@ $< $(TEST_LINK) $(PKG_LIBS) $(CMOCKA_LIBS)
$(B)/tests/%: $(B)/obj/tests/bench/%.o $(TEST_LINK)
	@mkdir -p $(@D)
	$(CC) $(EXTRA_CFLAGS) $(LDFLAGS) -o $@ $< $(TEST_LINK) $(PKG_LIBS) $(CMOCKA_LIBS)

-include $(shell find $(B) \( -path '$(B)/asan' -o -path '$(B)/pkg' -o -path '$(B)/check-*' \) -prune \
                 -o -name '*.d' -type f -print 2>/dev/null)

# Nothing built is deleted as an intermediate (objects, copied headers, symbol lists).
.SECONDARY:

PROGS      = $(if $(wildcard $(BOT_MAIN)),$(B)/handfoot) $(if $(wildcard tools/handfoot-sim.c),$(B)/handfoot-sim)
UNIT_BIN   = $(patsubst tests/unit/%.c,$(B)/tests/%,$(UNIT_SRC))
ASAN_BIN   = $(patsubst tests/unit/%.c,$(B)/asan/tests/%,$(UNIT_SRC))
E2E_BIN    = $(patsubst tests/e2e/%.c,$(B)/tests/%,$(E2E_SRC))
BENCH_BIN  = $(patsubst tests/bench/%.c,$(B)/tests/%,$(BENCH_SRC))

all: $(PROGS)

# ---------------------------------------------------------------- run
# On a fresh machine `deps` installs the libraries after this Makefile has
# decided its switches (WITH_WEB found no libwebsockets then): what reads them,
# the build and the command line (--web only where the table is built), is a
# sub-make's, which decides them again with the packages there.
RUN_ARGS ?= --rules classic --players 4 $(if $(filter yes,$(WITH_WEB)),--web 127.0.0.1:8088)
run: deps
	@$(MAKE) --no-print-directory run-console
run-console: all
	@mkdir -p var
	$(B)/handfoot --console $(RUN_ARGS)

# ---------------------------------------------------------------- tests
# tests/run-tests runs the programs side by side, JOBS at once (default: one
# more than the cores: the programs mostly wait on servers' timers), the
# longest first, and prints one summary line (tests/README.md).
# `make test` is the whole suite, as CI runs it; `make check` is the edit
# loop: the build, the unit tests (plain and sanitized) and the static checks.
JOBS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) + 1 )))
# The checks that run as programs of the suite beside the tests (each needs $(B) built).
SUITE_CHECKS = tests/check-build tests/check-package tests/check-adapter-folder
test: deps-test
	@$(MAKE) --no-print-directory -j$(JOBS) unit-build
	@$(MAKE) --no-print-directory check-layers check-docs
	@rm -rf $(B)/e2e-logs
	@HANDFOOT_BUILD=$(B) HF_TEST_JOBS=$(JOBS) bash tests/run-tests $(UNIT_BIN) $(ASAN_BIN) $(E2E_BIN) $(SUITE_CHECKS)

check: deps-test
	@$(MAKE) --no-print-directory -j$(JOBS) $(PROGS) $(UNIT_BIN) asan-build
	@$(MAKE) --no-print-directory check-layers check-docs
	@HANDFOOT_BUILD=$(B) HF_TEST_JOBS=$(JOBS) bash tests/run-tests $(UNIT_BIN) $(ASAN_BIN)

unit-build: $(UNIT_BIN) $(E2E_BIN) $(PROGS) asan-build

# The sanitizer tree: the daemon and the unit tests again, under ASan+UBSan.
asan-build:
	@$(MAKE) --no-print-directory B=$(B)/asan EXTRA_CFLAGS='$(SAN_FLAGS)' \
	  $(if $(wildcard $(BOT_MAIN)),$(B)/asan/handfoot) $(ASAN_BIN)

unit: all $(UNIT_BIN) | check-deps-test
	@HANDFOOT_BUILD=$(B) bash tests/run-tests $(UNIT_BIN)

e2e: all $(E2E_BIN) | check-deps-test
	@rm -rf $(B)/e2e-logs
	@HANDFOOT_BUILD=$(B) bash tests/run-tests $(E2E_BIN)

check-layers:
	@sh tests/check-layers
	@sh tests/check-sizes

# The build beyond Debian: each WITH_*=no, and pkg-config answering from a
# folder of .pc files with no dpkg on the PATH (tests/check-build).
check-build:
	@sh tests/check-build $(B)

# The Debian package: built, linted, installed, run, purged (as root: tests/check-package).
# Its debian/control is written from debian/control.in and the adapters' BUILD
# files (tools/debian-control): `make debian/control` before a dpkg-buildpackage
# of your own.
package:
	@mkdir -p $(B)/pkg && rm -rf $(B)/pkg/src && mkdir $(B)/pkg/src && \
	  git ls-files -z | xargs -0 tar -cf - | tar -xf - -C $(B)/pkg/src && \
	  sh tools/debian-control $(B)/pkg/src && \
	  cd $(B)/pkg/src && dpkg-buildpackage -us -uc -b
debian/control: debian/control.in tools/debian-control $(wildcard adapters/*/BUILD)
	sh tools/debian-control
package-test:
	@sh tests/check-package $(B)

# The configuration keys and commands against the man page and README (needs handfoot).
check-docs: all
	@sh tests/check-docs $(B)/handfoot

bench: deps-test
	@$(MAKE) --no-print-directory all $(BENCH_BIN)
	@HANDFOOT_BUILD=$(B) sh tests/run-bench $(BENCH_BIN)

# ---------------------------------------------------------------- fuzz
FUZZ_BIN = $(patsubst tests/fuzz/%.c,$(B)/fuzz/%,$(FUZZ_SRC))
FUZZ_FLAGS = -fsanitize=fuzzer,address,undefined -g -O1 -std=c11 -D_GNU_SOURCE
$(B)/fuzz/%: tests/fuzz/%.c $(LIB_SRC) $(ENGINE_SRC) $(BOT_SRC) $(ADAPTER_SRC) $(addprefix $(B)/fuzz/api/,$(notdir $(API_HDR))) \
             $(if $(WEB_PAGE),$(B)/gen/web-assets.c)
	@mkdir -p $(@D)
	clang $(FUZZ_FLAGS) $(TEST_INC) -I$(B)/fuzz/api -Iadapters $(if $(WEB_PAGE),-Iadapters/web) $(PKG_CFLAGS) -o $@ $< \
	  $(LIB_SRC) $(ENGINE_SRC) $(BOT_SRC) $(ADAPTER_SRC) $(if $(WEB_PAGE),$(B)/gen/web-assets.c) $(PKG_LIBS)
$(addprefix $(B)/fuzz/api/,$(notdir $(API_HDR))): $(B)/fuzz/api/%.h: bot/%.h
	@mkdir -p $(@D)
	cp $< $@
fuzz: deps-fuzz
	@$(MAKE) --no-print-directory $(FUZZ_BIN)
	@for f in $(FUZZ_BIN); do \
	  n=$$(basename $$f); mkdir -p $(B)/fuzz/corpus-$$n; \
	  echo "== $$n for $(FUZZ_TIME)s"; \
	  $$f -max_total_time=$(FUZZ_TIME) -print_final_stats=1 $(B)/fuzz/corpus-$$n tests/fuzz/corpus/$$n 2>&1 | tail -n 12 || exit 1; \
	done

# ---------------------------------------------------------------- install
# The example configuration goes in as handfoot.conf.example: an operator's
# handfoot.conf is never overwritten, and uninstall leaves it alone.
INSTALL_PROGS = $(if $(wildcard $(BOT_MAIN)),sbin/handfoot) $(if $(wildcard tools/handfoot-sim.c),bin/handfoot-sim)

install: all
	install -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(SYSCONFDIR)/handfoot \
	  $(DESTDIR)$(MANPREFIX)/man8 $(DESTDIR)$(MANPREFIX)/man5 $(DESTDIR)$(UNITDIR)
	install -m 755 $(B)/handfoot $(DESTDIR)$(SBINDIR)/handfoot
	$(if $(filter bin/handfoot-sim,$(INSTALL_PROGS)),install -d $(DESTDIR)$(BINDIR) && \
	  install -m 755 $(B)/handfoot-sim $(DESTDIR)$(BINDIR)/handfoot-sim)
	install -m 644 config/handfoot.conf $(DESTDIR)$(SYSCONFDIR)/handfoot/handfoot.conf.example
	install -m 644 config/handfoot.8 $(DESTDIR)$(MANPREFIX)/man8/handfoot.8
	install -m 644 config/handfoot.conf.5 $(DESTDIR)$(MANPREFIX)/man5/handfoot.conf.5
	sed -e 's|@SBINDIR@|$(SBINDIR)|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' \
	  systemd/handfoot.service.in > $(DESTDIR)$(UNITDIR)/handfoot.service
	chmod 644 $(DESTDIR)$(UNITDIR)/handfoot.service

uninstall:
	rm -f $(DESTDIR)$(SBINDIR)/handfoot $(DESTDIR)$(BINDIR)/handfoot-sim \
	  $(DESTDIR)$(SYSCONFDIR)/handfoot/handfoot.conf.example \
	  $(DESTDIR)$(MANPREFIX)/man8/handfoot.8 $(DESTDIR)$(MANPREFIX)/man5/handfoot.conf.5 \
	  $(DESTDIR)$(UNITDIR)/handfoot.service
	-rmdir $(DESTDIR)$(SYSCONFDIR)/handfoot 2>/dev/null

clean:
	rm -rf $(B)
