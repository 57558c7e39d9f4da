# handfoot: the one Makefile (build, run, test, bench, fuzz, install).
#
# Plain `make` builds and never installs anything: when a Debian package is
# missing it says which, and stops.  `make deps` installs the build packages
# (as root); `make run` and `make test` call it (and deps-test) first, so
# that they set up a fresh Debian 12 machine, then build in a sub-make.
#
# Sources are found by folder, so adding a file never means editing this:
#   lib/*.c                -> $(B)/libhflib.a      (the bottom floor: -Ilib only)
#   engine/*.c             -> $(B)/libhfengine.a   (libc and lib/utf8.h only; one object
#                                                   whose only global symbols are the
#                                                   functions of engine/handfoot.h)
#   bot/*.c but main.c     -> $(B)/libhfbot.a      (lib/, the engine's public header)
#   adapters/*.c, */*.c    -> $(B)/libhfadapters.a (sees only lib/ and the adapter API)
#   bot/main.c             -> $(B)/handfoot        (the composition root: the table of adapters)
# Programs link in plain library order, each floor after the ones above it:
#   main.o libhfadapters.a libhfbot.a libhfengine.a libhflib.a
#   tools/handfoot-sim.c   -> $(B)/handfoot-sim
#   tests/lib/*.c          -> linked into every test program (with the engine's
#                             objects, internals visible, rather than its library)
#   tests/test-*.c         -> unit tests (cmocka), run plain and under ASan+UBSan
#   tests/e2e-*.c          -> end-to-end tests (cmocka) against the real binary
#   tests/bench-*.c        -> benchmarks, run by `make bench`
#   tests/fuzz-*.c         -> libFuzzer targets, run by `make fuzz`

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

# Debian packages: what building needs, and what the tests start or use.
BUILD_DEBS = gcc make pkg-config libc6-dev libcmocka-dev libcurl4-openssl-dev \
             libjansson-dev libsqlite3-dev libsystemd-dev \
             libwebsockets-dev libssl-dev
TEST_DEBS  = ngircd inspircd atheme-services openssl python3 python3-websockets systemd sqlite3 man-db chromium
FUZZ_DEBS  = clang libclang-rt-14-dev

# Recursively expanded, so pkg-config runs after the packages are installed.
PKGS = libcurl jansson sqlite3 libsystemd libwebsockets libcrypto
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) cmocka 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lm
CMOCKA_LIBS = $(shell pkg-config --libs cmocka 2>/dev/null)

LIB_SRC     := $(sort $(wildcard lib/*.c))
ENGINE_SRC  := $(sort $(wildcard engine/*.c))
BOT_SRC     := $(sort $(filter-out bot/main.c,$(wildcard bot/*.c)))
ADAPTER_SRC := $(sort $(wildcard adapters/*.c adapters/*/*.c))
TESTLIB_SRC := $(sort $(wildcard tests/lib/*.c))
UNIT_SRC    := $(sort $(wildcard tests/test-*.c))
E2E_SRC     := $(sort $(wildcard tests/e2e-*.c))
BENCH_SRC   := $(sort $(wildcard tests/bench-*.c))
FUZZ_SRC    := $(sort $(wildcard tests/fuzz-*.c))
# The web table's page, embedded in the binary at build time (tools/embed-assets.sh).
WEB_PAGE    := $(sort $(wildcard adapters/web/page/*))
# The adapter API: the only bot header an adapter may include (with lib/'s).
API_HDR     := bot/adapter.h
# The only lib/ header the engine may include.
ENGINE_LIB_HDR := lib/utf8.h

# Include paths enforce the layering (see docs/DESIGN.md): each floor is
# compiled seeing only what it may use.
LIB_INC     = -Ilib
ENGINE_INC  = -Iengine -I$(1)/engine-api
BOT_INC     = -Ibot -Iengine -Ilib
ADAPTER_INC = -Iadapters -I$(1)/api -Ilib
TEST_INC    = -Itests/lib -Ibot -Iengine -Iadapters -Ilib

# $(call objs,BUILDDIR,SOURCES)
objs = $(patsubst %.c,$(1)/obj/%.o,$(2))

.PHONY: all run test unit e2e bench fuzz install uninstall clean deps deps-test deps-fuzz \
        check-deps check-deps-test check-layers check-docs unit-build
.DEFAULT_GOAL := all

# ---------------------------------------------------------------- packages
# $(call need_debs,PACKAGES,TARGET): installs what is missing when TARGET is
# "install" and we are root; otherwise names what is missing, and fails.
define need_debs
	@missing=""; for p in $(1); do \
	  dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$(2)" = install ] && [ "$$(id -u)" = 0 ]; then \
	    echo "installing Debian packages:$$missing"; \
	    export DEBIAN_FRONTEND=noninteractive; \
	    apt-get install -y --no-install-recommends $$missing || \
	      { apt-get update && apt-get install -y --no-install-recommends $$missing; } || exit 1; \
	  else \
	    echo "handfoot needs these Debian packages:$$missing"; \
	    echo "install them as root:  apt-get install -y$$missing   (or: make $(2))"; \
	    exit 1; \
	  fi; \
	fi
endef

# What installs, and what only checks.
deps:
	$(call need_debs,$(BUILD_DEBS),install)
deps-test: deps
	$(call need_debs,$(TEST_DEBS),install)
deps-fuzz: deps
	$(call need_debs,$(FUZZ_DEBS),install)
check-deps:
	$(call need_debs,$(BUILD_DEBS),deps)
check-deps-test: check-deps
	$(call need_debs,$(TEST_DEBS),deps-test)

# ---------------------------------------------------------------- one build tree
# $(call build_tree,DIR,EXTRA_CFLAGS): libraries, programs and tests in DIR.
define build_tree
$(1)/obj/lib/%.o: lib/%.c | check-deps
	@mkdir -p $$(@D)
	$$(CC) $$(BASE_CFLAGS) $(2) $$(LIB_INC) $$(PKG_CFLAGS) -c $$< -o $$@
$(1)/obj/engine/%.o: engine/%.c $(addprefix $(1)/engine-api/,$(notdir $(ENGINE_LIB_HDR))) | check-deps
	@mkdir -p $$(@D)
	$$(CC) $$(BASE_CFLAGS) $(2) $$(call ENGINE_INC,$(1)) -c $$< -o $$@
$(1)/obj/bot/%.o: bot/%.c | check-deps
	@mkdir -p $$(@D)
	$$(CC) $$(BASE_CFLAGS) $(2) $$(BOT_INC) $$(PKG_CFLAGS) -c $$< -o $$@
# main.c is the composition root: the one bot file that sees the adapter table.
$(1)/obj/bot/main.o: bot/main.c | check-deps
	@mkdir -p $$(@D)
	$$(CC) $$(BASE_CFLAGS) $(2) $$(BOT_INC) -Iadapters $$(PKG_CFLAGS) -c $$< -o $$@
$(1)/obj/adapters/%.o: adapters/%.c $(addprefix $(1)/api/,$(notdir $(API_HDR))) | check-deps
	@mkdir -p $$(@D)
	$$(CC) $$(BASE_CFLAGS) $(2) $$(call ADAPTER_INC,$(1)) $$(PKG_CFLAGS) -c $$< -o $$@
$(1)/obj/tools/%.o: tools/%.c | check-deps
	@mkdir -p $$(@D)
	$$(CC) $$(BASE_CFLAGS) $(2) -Iengine -c $$< -o $$@
$(1)/obj/tests/%.o: tests/%.c | check-deps
	@mkdir -p $$(@D)
	$$(CC) $$(BASE_CFLAGS) $(2) $$(TEST_INC) $$(PKG_CFLAGS) -c $$< -o $$@
$(addprefix $(1)/api/,$(notdir $(API_HDR))): $(1)/api/%.h: bot/%.h
	@mkdir -p $$(@D)
	cp $$< $$@
$(addprefix $(1)/engine-api/,$(notdir $(ENGINE_LIB_HDR))): $(1)/engine-api/%.h: lib/%.h
	@mkdir -p $$(@D)
	cp $$< $$@
$(1)/libhflib.a: $(call objs,$(1),$(LIB_SRC))
	@mkdir -p $$(@D); rm -f $$@; $$(if $$^,ar rcs $$@ $$^,printf "!<arch>\n" > $$@)
# The engine's public symbols: the functions its one public header declares.
$(1)/engine.syms: engine/handfoot.h
	@mkdir -p $$(@D)
	sed -n -E 's/^[^#/ \t][^(]*[ *](hf_[a-z0-9_]+)\(.*/\1/p' $$< | sort -u > $$@
# One object, partially linked, whose only global symbols are those: a user
# of the library cannot reach (or collide with) the engine's internals.
$(1)/libhfengine.a: $(call objs,$(1),$(ENGINE_SRC)) $(1)/engine.syms
	@mkdir -p $$(@D); rm -f $$@
	$$(CC) -r -nostdlib -o $(1)/obj/engine.o $$(filter %.o,$$^)
	objcopy --keep-global-symbols=$(1)/engine.syms $(1)/obj/engine.o
	ar rcs $$@ $(1)/obj/engine.o
$(1)/libhfbot.a: $(call objs,$(1),$(BOT_SRC))
	@mkdir -p $$(@D); rm -f $$@; $$(if $$^,ar rcs $$@ $$^,printf "!<arch>\n" > $$@)
$(1)/gen/web-assets.c: $(WEB_PAGE) tools/embed-assets.sh
	@mkdir -p $$(@D)
	sh tools/embed-assets.sh $(WEB_PAGE) > $$@
$(1)/obj/gen/web-assets.o: $(1)/gen/web-assets.c $(addprefix $(1)/api/,$(notdir $(API_HDR))) | check-deps
	@mkdir -p $$(@D)
	$$(CC) $$(BASE_CFLAGS) $(2) $$(call ADAPTER_INC,$(1)) -Iadapters/web -c $$< -o $$@
$(1)/libhfadapters.a: $(call objs,$(1),$(ADAPTER_SRC)) $(if $(WEB_PAGE),$(1)/obj/gen/web-assets.o)
	@mkdir -p $$(@D); rm -f $$@; $$(if $$^,ar rcs $$@ $$^,printf "!<arch>\n" > $$@)
$(1)/handfoot: $(1)/obj/bot/main.o $(1)/libhfadapters.a $(1)/libhfbot.a $(1)/libhfengine.a $(1)/libhflib.a
	$$(CC) $(2) -o $$@ $$< $$(filter %.a,$$^) $$(PKG_LIBS)
$(1)/handfoot-sim: $(1)/obj/tools/handfoot-sim.o $(1)/libhfengine.a $(1)/libhflib.a
	$$(CC) $(2) -o $$@ $$^ -lm
$(1)/tests/%: $(1)/obj/tests/%.o $(call objs,$(1),$(TESTLIB_SRC)) $(1)/libhfadapters.a $(1)/libhfbot.a \
              $(call objs,$(1),$(ENGINE_SRC)) $(1)/libhflib.a
	@mkdir -p $$(@D)
	$$(CC) $(2) -o $$@ $$< $$(call objs,$(1),$(TESTLIB_SRC)) $(1)/libhfadapters.a $(1)/libhfbot.a \
	  $$(call objs,$(1),$(ENGINE_SRC)) $(1)/libhflib.a $$(PKG_LIBS) $$(CMOCKA_LIBS)
endef

$(eval $(call build_tree,$(B),))
$(eval $(call build_tree,$(B)/asan,$(SAN_FLAGS)))

-include $(shell find $(B) -name '*.d' 2>/dev/null)

# Generated files kept, not deleted as intermediates after each build.
.SECONDARY: $(foreach d,$(B) $(B)/asan,$(addprefix $(d)/api/,$(notdir $(API_HDR))) \
              $(addprefix $(d)/engine-api/,$(notdir $(ENGINE_LIB_HDR))) $(d)/engine.syms) \
            $(addprefix $(B)/fuzz/api/,$(notdir $(API_HDR)))

PROGS      = $(if $(wildcard bot/main.c),$(B)/handfoot) $(if $(wildcard tools/handfoot-sim.c),$(B)/handfoot-sim)
UNIT_BIN   = $(patsubst tests/%.c,$(B)/tests/%,$(UNIT_SRC))
ASAN_BIN   = $(patsubst tests/%.c,$(B)/asan/tests/%,$(UNIT_SRC))
E2E_BIN    = $(patsubst tests/%.c,$(B)/tests/%,$(E2E_SRC))
BENCH_BIN  = $(patsubst tests/%.c,$(B)/tests/%,$(BENCH_SRC))

all: $(PROGS)

# ---------------------------------------------------------------- run
RUN_ARGS ?= --rules classic --players 4 --web 127.0.0.1:8088
run: deps
	@$(MAKE) --no-print-directory all
	@mkdir -p var
	$(B)/handfoot --console $(RUN_ARGS)

# ---------------------------------------------------------------- tests
# Each test program is run on its own; tests/run-tests prints one summary line.
test: deps-test
	@$(MAKE) --no-print-directory check-layers check-docs unit-build
	@rm -rf $(B)/e2e-logs
	@HANDFOOT_BUILD=$(B) sh tests/run-tests $(UNIT_BIN) $(ASAN_BIN) $(E2E_BIN)

unit-build: $(UNIT_BIN) $(ASAN_BIN) $(E2E_BIN) $(PROGS) $(if $(wildcard bot/main.c),$(B)/asan/handfoot)

unit: all $(UNIT_BIN) | check-deps-test
	@HANDFOOT_BUILD=$(B) sh tests/run-tests $(UNIT_BIN)

e2e: all $(E2E_BIN) | check-deps-test
	@rm -rf $(B)/e2e-logs
	@HANDFOOT_BUILD=$(B) sh tests/run-tests $(E2E_BIN)

check-layers:
	@sh tests/check-layers

# The configuration keys and commands against the man page and README (needs handfoot).
check-docs: all
	@sh tests/check-docs $(B)/handfoot

bench: deps-test
	@$(MAKE) --no-print-directory all $(BENCH_BIN)
	@HANDFOOT_BUILD=$(B) sh tests/run-bench $(BENCH_BIN)

# ---------------------------------------------------------------- fuzz
FUZZ_BIN = $(patsubst tests/%.c,$(B)/fuzz/%,$(FUZZ_SRC))
FUZZ_FLAGS = -fsanitize=fuzzer,address,undefined -g -O1 -std=c11 -D_GNU_SOURCE
$(B)/fuzz/%: tests/%.c $(LIB_SRC) $(ENGINE_SRC) $(BOT_SRC) $(ADAPTER_SRC) $(addprefix $(B)/fuzz/api/,$(notdir $(API_HDR))) \
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
	  $$f -max_total_time=$(FUZZ_TIME) -print_final_stats=1 $(B)/fuzz/corpus-$$n tests/corpus/$$n 2>&1 | tail -n 12 || exit 1; \
	done

# ---------------------------------------------------------------- install
# The example configuration goes in as handfoot.conf.example: an operator's
# handfoot.conf is never overwritten, and uninstall leaves it alone.
INSTALL_PROGS = $(if $(wildcard bot/main.c),sbin/handfoot) $(if $(wildcard tools/handfoot-sim.c),bin/handfoot-sim)

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
