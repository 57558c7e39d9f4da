# handfoot: the one non-recursive Makefile (build, run, test, bench, fuzz, install).
#
# Sources are found by folder, so adding a file never means editing this:
#   engine/*.c             -> $(B)/libhfengine.a   (libc only, -Iengine only)
#   bot/*.c but main.c     -> $(B)/libhfbot.a
#   adapters/*.c, */*.c    -> $(B)/libhfadapters.a (sees only the adapter API)
#   bot/main.c             -> $(B)/handfoot
#   tests/handfoot-sim.c   -> $(B)/handfoot-sim
#   tests/lib/*.c          -> linked into every test program
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
             libjansson-dev libsqlite3-dev libinih-dev libsystemd-dev \
             libwebsockets-dev
TEST_DEBS  = ngircd inspircd atheme-services openssl python3 python3-websockets systemd sqlite3 man-db
FUZZ_DEBS  = clang libclang-rt-14-dev

# Recursively expanded, so pkg-config runs after the packages are installed.
PKGS = libcurl jansson sqlite3 inih libsystemd libwebsockets
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) cmocka 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lm
CMOCKA_LIBS = $(shell pkg-config --libs cmocka 2>/dev/null)

ENGINE_SRC  := $(sort $(wildcard engine/*.c))
BOT_SRC     := $(sort $(filter-out bot/main.c,$(wildcard bot/*.c)))
ADAPTER_SRC := $(sort $(wildcard adapters/*.c adapters/*/*.c))
TESTLIB_SRC := $(sort $(wildcard tests/lib/*.c))
UNIT_SRC    := $(sort $(wildcard tests/test-*.c))
E2E_SRC     := $(sort $(wildcard tests/e2e-*.c))
BENCH_SRC   := $(sort $(wildcard tests/bench-*.c))
FUZZ_SRC    := $(sort $(wildcard tests/fuzz-*.c))
# The adapter API: the only bot headers an adapter may include.
API_HDR     := bot/adapter.h bot/loop.h bot/http.h

# Include paths enforce the layering (see DESIGN.md).
ENGINE_INC  = -Iengine
BOT_INC     = -Ibot -Iengine
ADAPTER_INC = -Iadapters -I$(1)/api
TEST_INC    = -Itests/lib -Ibot -Iengine -Iadapters

# $(call objs,BUILDDIR,SOURCES)
objs = $(patsubst %.c,$(1)/obj/%.o,$(2))

.PHONY: all run test unit e2e bench fuzz install uninstall clean deps deps-test deps-fuzz check-layers check-docs
.DEFAULT_GOAL := all

# ---------------------------------------------------------------- packages
define need_debs
	@missing=""; for p in $(1); do \
	  dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing Debian packages:$$missing"; \
	    export DEBIAN_FRONTEND=noninteractive; \
	    apt-get install -y --no-install-recommends $$missing || \
	      { apt-get update && apt-get install -y --no-install-recommends $$missing; } || exit 1; \
	  else \
	    echo "handfoot needs these Debian packages:$$missing"; \
	    echo "install them as root:  apt-get install -y$$missing"; \
	    exit 1; \
	  fi; \
	fi
endef

deps:
	$(call need_debs,$(BUILD_DEBS))
deps-test: deps
	$(call need_debs,$(TEST_DEBS))
deps-fuzz: deps
	$(call need_debs,$(FUZZ_DEBS))

# ---------------------------------------------------------------- one build tree
# $(call build_tree,DIR,EXTRA_CFLAGS): libraries, programs and tests in DIR.
define build_tree
$(1)/obj/engine/%.o: engine/%.c | deps
	@mkdir -p $$(@D)
	$$(CC) $$(BASE_CFLAGS) $(2) $$(ENGINE_INC) -c $$< -o $$@
$(1)/obj/bot/%.o: bot/%.c | deps
	@mkdir -p $$(@D)
	$$(CC) $$(BASE_CFLAGS) $(2) $$(BOT_INC) $$(PKG_CFLAGS) -c $$< -o $$@
$(1)/obj/adapters/%.o: adapters/%.c $(addprefix $(1)/api/,$(notdir $(API_HDR))) | deps
	@mkdir -p $$(@D)
	$$(CC) $$(BASE_CFLAGS) $(2) $$(call ADAPTER_INC,$(1)) $$(PKG_CFLAGS) -c $$< -o $$@
$(1)/obj/tests/%.o: tests/%.c | deps
	@mkdir -p $$(@D)
	$$(CC) $$(BASE_CFLAGS) $(2) $$(TEST_INC) $$(PKG_CFLAGS) -c $$< -o $$@
$(1)/api/%.h: bot/%.h
	@mkdir -p $$(@D)
	cp $$< $$@
$(1)/libhfengine.a: $(call objs,$(1),$(ENGINE_SRC))
	@mkdir -p $$(@D); rm -f $$@; $$(if $$^,ar rcs $$@ $$^,printf "!<arch>\n" > $$@)
$(1)/libhfbot.a: $(call objs,$(1),$(BOT_SRC))
	@mkdir -p $$(@D); rm -f $$@; $$(if $$^,ar rcs $$@ $$^,printf "!<arch>\n" > $$@)
$(1)/libhfadapters.a: $(call objs,$(1),$(ADAPTER_SRC))
	@mkdir -p $$(@D); rm -f $$@; $$(if $$^,ar rcs $$@ $$^,printf "!<arch>\n" > $$@)
$(1)/handfoot: $(1)/obj/bot/main.o $(1)/libhfadapters.a $(1)/libhfbot.a $(1)/libhfengine.a
	$$(CC) $(2) -o $$@ $$< -Wl,--start-group $$(filter %.a,$$^) -Wl,--end-group $$(PKG_LIBS)
$(1)/handfoot-sim: $(1)/obj/tests/handfoot-sim.o $(1)/libhfengine.a
	$$(CC) $(2) -o $$@ $$^ -lm
$(1)/tests/%: $(1)/obj/tests/%.o $(call objs,$(1),$(TESTLIB_SRC)) $(1)/libhfadapters.a $(1)/libhfbot.a $(1)/libhfengine.a
	@mkdir -p $$(@D)
	$$(CC) $(2) -o $$@ $$< $$(call objs,$(1),$(TESTLIB_SRC)) -Wl,--start-group $$(filter %.a,$$^) -Wl,--end-group $$(PKG_LIBS) $$(CMOCKA_LIBS)
endef

$(eval $(call build_tree,$(B),))
$(eval $(call build_tree,$(B)/asan,$(SAN_FLAGS)))

-include $(shell find $(B) -name '*.d' 2>/dev/null)

PROGS      = $(if $(wildcard bot/main.c),$(B)/handfoot) $(if $(wildcard tests/handfoot-sim.c),$(B)/handfoot-sim)
UNIT_BIN   = $(patsubst tests/%.c,$(B)/tests/%,$(UNIT_SRC))
ASAN_BIN   = $(patsubst tests/%.c,$(B)/asan/tests/%,$(UNIT_SRC))
E2E_BIN    = $(patsubst tests/%.c,$(B)/tests/%,$(E2E_SRC))
BENCH_BIN  = $(patsubst tests/%.c,$(B)/tests/%,$(BENCH_SRC))

all: $(PROGS)

# ---------------------------------------------------------------- run
RUN_ARGS ?= --rules classic --players 4
run: all
	@mkdir -p var
	$(B)/handfoot --console $(RUN_ARGS)

# ---------------------------------------------------------------- tests
# Each test program is run on its own; tests/run-tests prints one summary line.
test: deps-test all check-layers check-docs
	@$(MAKE) --no-print-directory unit-build
	@rm -rf $(B)/e2e-logs
	@HANDFOOT_BUILD=$(B) sh tests/run-tests $(UNIT_BIN) $(ASAN_BIN) $(E2E_BIN)

unit-build: $(UNIT_BIN) $(ASAN_BIN) $(E2E_BIN) $(PROGS) $(if $(wildcard bot/main.c),$(B)/asan/handfoot)

unit: all $(UNIT_BIN)
	@HANDFOOT_BUILD=$(B) sh tests/run-tests $(UNIT_BIN)

e2e: all $(E2E_BIN)
	@rm -rf $(B)/e2e-logs
	@HANDFOOT_BUILD=$(B) sh tests/run-tests $(E2E_BIN)

check-layers:
	@sh tests/check-layers

# The configuration keys and commands against the man page and README (needs handfoot).
check-docs: all
	@sh tests/check-docs $(B)/handfoot

bench: deps-test all $(BENCH_BIN)
	@HANDFOOT_BUILD=$(B) sh tests/run-bench $(BENCH_BIN)

# ---------------------------------------------------------------- fuzz
FUZZ_BIN = $(patsubst tests/%.c,$(B)/fuzz/%,$(FUZZ_SRC))
FUZZ_FLAGS = -fsanitize=fuzzer,address,undefined -g -O1 -std=c11 -D_GNU_SOURCE
$(B)/fuzz/%: tests/%.c $(ENGINE_SRC) $(BOT_SRC) $(ADAPTER_SRC) $(addprefix $(B)/fuzz/api/,$(notdir $(API_HDR))) | deps-fuzz
	@mkdir -p $(@D)
	clang $(FUZZ_FLAGS) $(TEST_INC) -I$(B)/fuzz/api -Iadapters $(PKG_CFLAGS) -o $@ $< $(ENGINE_SRC) $(BOT_SRC) $(ADAPTER_SRC) $(PKG_LIBS)
$(B)/fuzz/api/%.h: bot/%.h
	@mkdir -p $(@D)
	cp $< $@
fuzz: $(FUZZ_BIN)
	@for f in $(FUZZ_BIN); do \
	  n=$$(basename $$f); mkdir -p $(B)/fuzz/corpus-$$n; \
	  echo "== $$n for $(FUZZ_TIME)s"; \
	  $$f -max_total_time=$(FUZZ_TIME) -print_final_stats=1 $(B)/fuzz/corpus-$$n tests/corpus/$$n 2>&1 | tail -n 12 || exit 1; \
	done

# ---------------------------------------------------------------- install
# The example configuration goes in as handfoot.conf.example: an operator's
# handfoot.conf is never overwritten, and uninstall leaves it alone.
INSTALL_PROGS = $(if $(wildcard bot/main.c),sbin/handfoot) $(if $(wildcard tests/handfoot-sim.c),bin/handfoot-sim)

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
