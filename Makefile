# SPDX-License-Identifier: GPL-3.0-or-later
# storan -- plain GNU make, pkg-config for every library.
#
#   make                 build ./storan
#   make check           every test, under AddressSanitizer + UBSan (the
#                        threaded paths under ThreadSanitizer too)
#   make demo            install what is missing, build, ingest sample-data/
#   make fuzz            every fuzz target, FUZZ_SECONDS each (clang)
#   make fuzz-long       the same, FUZZ_LONG_SECONDS each (docs/fuzzing.md)
#   make install PREFIX=/usr/local [DESTDIR=...]   binary, man pages, completions
#   make uninstall       the same files removed
#   make dist            storan-VERSION.tar.gz, a release that builds without git
#   make V=1             show the commands
#   make SANITIZE=1      build ./storan itself with the sanitizers
#                        (SANITIZE=thread: with ThreadSanitizer)
#   make DEVELOPER=0     no -Werror (the default outside a git checkout)
#
# CFLAGS, CPPFLAGS and LDFLAGS from the environment or the command line are
# honoured (a distribution's hardening flags); CFLAGS replaces -O2 -g.

CC ?= cc
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
ZSHCOMPDIR ?= $(DATADIR)/zsh/site-functions
FISHCOMPDIR ?= $(DATADIR)/fish/vendor_completions.d
PKG_CONFIG ?= pkg-config
BUILD ?= build
# scripts/version: the VERSION file of a release, else git describe
VERSION := $(shell scripts/version)

PKGS := liburing zlib jansson
# Loaded when a chart or workbook is drawn, a store opened, a digest made
# or a statistic computed, not linked (core/dynlib.h): their headers at
# build time, their sonames for dlopen().
GFX_PKGS := cairo fontconfig xlsxwriter libpq libcrypto gsl sqlite3
# One pkg-config call per package: asked together, one missing package
# empties the flags of all (scripts/check-build-deps names the missing).
pkg_each = $(foreach p,$(2),$(shell $(PKG_CONFIG) $(1) $(p) 2>/dev/null))
PKG_CFLAGS := $(call pkg_each,--cflags,$(PKGS) $(GFX_PKGS))
PKG_LIBS := $(call pkg_each,--libs,$(PKGS))
soname = $(shell readelf -d $$($(CC) -print-file-name=lib$(1).so) \
	2>/dev/null | sed -n 's/.*soname: \[\(.*\)\]/\1/p')
DLOPEN_LIBS := cairo fontconfig xlsxwriter pq crypto gsl sqlite3
GFX_SONAMES := $(foreach l,$(DLOPEN_LIBS),\
	$(if $(call soname,$(l)),-D$(shell echo $(l) | tr a-z A-Z)_SONAME='"$(call soname,$(l))"'))
CMOCKA_CFLAGS := $(shell $(PKG_CONFIG) --cflags cmocka 2>/dev/null)
CMOCKA_LIBS := $(shell $(PKG_CONFIG) --libs cmocka 2>/dev/null)

WARNINGS := -Wall -Wextra -Wstrict-prototypes -Wmissing-prototypes \
	-Wwrite-strings -Wvla -Wformat=2 -Wshadow -Wcast-qual -Wfloat-equal \
	-Wimplicit-fallthrough -Wno-format-nonliteral
# -Werror only where storan is developed: a git checkout.  A release
# tarball (no .git) must build on compilers newer than the code.
DEVELOPER ?= $(if $(wildcard .git),1,0)
ifeq ($(DEVELOPER),1)
WARNINGS += -Werror
endif

OPT ?= -O2
CFLAGS ?= $(OPT) -g
ALL_CFLAGS := -std=gnu11 $(WARNINGS) $(CPPFLAGS) $(CFLAGS) $(PKG_CFLAGS) \
	$(GFX_SONAMES) -I. -I$(BUILD)/gen -MMD -MP -pthread
LDLIBS := $(PKG_LIBS) -laio -lm -pthread

SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=undefined
ifeq ($(SANITIZE),1)
ALL_CFLAGS += $(SAN_FLAGS)
LDFLAGS += $(SAN_FLAGS)
endif
# SANITIZE=thread: ThreadSanitizer (make check's build-tsan)
ifeq ($(SANITIZE),thread)
ALL_CFLAGS += -fsanitize=thread -fno-omit-frame-pointer
LDFLAGS += -fsanitize=thread
endif

ifeq ($(V),1)
Q :=
else
Q := @
endif

LIB_SRCS := $(sort $(wildcard core/*.c parsers/*.c cmd/*.c analysis/*.c \
	ingest/*.c plot/*.c runner/*.c store/*.c))
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o)
UNIT_SRCS := $(sort $(wildcard tests/unit/test-*.c))
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)

MAN_PAGES := $(sort $(wildcard docs/*.1))
COMPLETIONS := $(BUILD)/completions/storan.bash $(BUILD)/completions/_storan \
	$(BUILD)/completions/storan.fish

all: storan $(COMPLETIONS)

storan: $(BUILD)/storan
	$(Q)cp $< $@

# Every object waits for these two: the libraries are checked once (a
# missing one is named as the package to install), and the version header
# is rewritten only when the version changed, so that only the files that
# include core/version.h are compiled again.
build-deps:
	$(Q)scripts/check-build-deps "$(PKG_CONFIG)" "$(CC)"

$(BUILD)/gen/storan-version.h: FORCE
	@mkdir -p $(dir $@)
	$(Q)v='#define STORAN_VERSION "$(VERSION)"'; \
	[ "$$(cat $@ 2>/dev/null)" = "$$v" ] || echo "$$v" >$@

$(LIB_OBJS) $(BUILD)/storan.o: | build-deps $(BUILD)/gen/storan-version.h

# Completions and man pages are made from the binary and docs/: they
# cannot list an option the binary does not have.
$(COMPLETIONS) &: $(BUILD)/storan scripts/gen-completions scripts/storan-options
	@echo "  GEN     $(BUILD)/completions"
	$(Q)scripts/gen-completions $(BUILD)/storan $(BUILD)/completions

$(BUILD)/man/%.1: docs/%.1 $(BUILD)/gen/storan-version.h
	@mkdir -p $(dir $@)
	$(Q)sed '1,3s/^\(\.TH .*\) "storan [^"]*"/\1 "storan $(VERSION)"/' $< >$@

man: $(MAN_PAGES:docs/%=$(BUILD)/man/%)
completions: $(COMPLETIONS)

$(BUILD)/storan: $(BUILD)/storan.o $(BUILD)/libstoran.a
	@echo "  LINK    $@"
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/libstoran.a: $(LIB_OBJS)
	@echo "  AR      $@"
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libstoran.a
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(ALL_CFLAGS) $(CMOCKA_CFLAGS) $(LDFLAGS) -o $@ $< \
		$(BUILD)/libstoran.a $(CMOCKA_LIBS) $(LDLIBS)

unit-tests: $(UNIT_BINS)

# The test suite always runs under ASan + UBSan, in its own build tree;
# the paths that run on several threads also under ThreadSanitizer
# (build-tsan, tests/run-threads).
# Where clang is installed, the golden fixtures also run through a clang
# ASan + UBSan build (build-clang): clang checks what GCC does not (a zero
# offset added to a NULL pointer passed GCC's UBSan and stopped clang's).
CLANG ?= $(shell command -v clang 2>/dev/null)
check:
	$(Q)$(PKG_CONFIG) --exists $(PKGS) $(GFX_PKGS) cmocka || scripts/install-deps
	$(Q)$(MAKE) --no-print-directory SANITIZE=1 BUILD=build-san \
		build-san/storan unit-tests
	$(Q)$(if $(CLANG),$(MAKE) --no-print-directory CC=$(CLANG) SANITIZE=1 \
		BUILD=build-clang build-clang/storan,:)
	$(Q)$(MAKE) --no-print-directory SANITIZE=thread BUILD=build-tsan \
		build-tsan/storan
	$(Q)ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		STORAN=$(CURDIR)/build-san/storan UNIT_DIR=$(CURDIR)/build-san/tests \
		STORAN_CLANG=$(if $(CLANG),$(CURDIR)/build-clang/storan) \
		STORAN_TSAN=$(CURDIR)/build-tsan/storan \
		tests/run-all

check-browser: storan
	$(Q)tests/browser/run

# As root it installs what is missing; as anyone else it says what is
# missing and the command that installs it.
demo:
	$(Q)scripts/install-deps --demo
	$(Q)$(MAKE) --no-print-directory storan
	$(Q)scripts/demo

# Fuzzing (clang's libFuzzer; docs/fuzzing.md): one target per reader,
# each with its seeds (tests/fuzz/corpus/T) and dictionary
# (tests/fuzz/dict/T.dict).  `make fuzz` runs each FUZZ_SECONDS, one after
# the other, and fails on a finding; FUZZ_TARGETS picks some.
FUZZ_PARSER_TARGETS := fio-text fio-json fio-terse iozone dd hdparm time \
	blockdev-perftest csv
FUZZ_OWN_TARGETS := fio-log result-set result-set-bin input json-scan ingest \
	windows
FUZZ_ALL := $(FUZZ_PARSER_TARGETS) $(FUZZ_OWN_TARGETS)
FUZZ_TARGETS ?= $(FUZZ_ALL)
FUZZ_SECONDS ?= 30
FUZZ_LONG_SECONDS ?= 3600
FUZZ_CFLAGS := -O1 -g -fno-omit-frame-pointer \
	-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
fuzz_parser_name = $(if $(filter fio-text,$(1)),fio,$(1))
FUZZ_DEPS := $(BUILD)/tests/fuzz/fuzz-common.o $(BUILD)/libstoran.a

$(FUZZ_PARSER_TARGETS:%=$(BUILD)/fuzz/%): $(BUILD)/fuzz/%: \
		tests/fuzz/fuzz-parser.c $(FUZZ_DEPS)
	@mkdir -p $(dir $@)
	@echo "  FUZZ    $@"
	$(Q)$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer \
		-DFUZZ_PARSER='"$(call fuzz_parser_name,$*)"' -o $@ $^ $(LDLIBS)

$(FUZZ_OWN_TARGETS:%=$(BUILD)/fuzz/%): $(BUILD)/fuzz/%: \
		tests/fuzz/fuzz-%.c $(FUZZ_DEPS)
	@mkdir -p $(dir $@)
	@echo "  FUZZ    $@"
	$(Q)$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)

fuzz-build:
	$(Q)$(MAKE) --no-print-directory CC=clang BUILD=build-fuzz \
		CFLAGS="$(FUZZ_CFLAGS)" $(FUZZ_ALL:%=build-fuzz/fuzz/%)

fuzz: fuzz-build
	$(Q)FUZZ_SECONDS=$(FUZZ_SECONDS) tests/fuzz/run $(FUZZ_TARGETS)

fuzz-long: fuzz-build
	$(Q)FUZZ_SECONDS=$(FUZZ_LONG_SECONDS) tests/fuzz/run $(FUZZ_TARGETS)

install: $(BUILD)/storan man completions
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) \
		$(DESTDIR)$(FISHCOMPDIR)
	install -m 755 $(BUILD)/storan $(DESTDIR)$(BINDIR)/storan
	install -m 644 $(MAN_PAGES:docs/%=$(BUILD)/man/%) $(DESTDIR)$(MANDIR)/man1/
	install -m 644 $(BUILD)/completions/storan.bash $(DESTDIR)$(BASHCOMPDIR)/storan
	install -m 644 $(BUILD)/completions/_storan $(DESTDIR)$(ZSHCOMPDIR)/_storan
	install -m 644 $(BUILD)/completions/storan.fish \
		$(DESTDIR)$(FISHCOMPDIR)/storan.fish

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/storan \
		$(MAN_PAGES:docs/%=$(DESTDIR)$(MANDIR)/man1/%) \
		$(DESTDIR)$(BASHCOMPDIR)/storan $(DESTDIR)$(ZSHCOMPDIR)/_storan \
		$(DESTDIR)$(FISHCOMPDIR)/storan.fish

# The release: what git has at HEAD, plus VERSION (there is no git to ask
# in a tarball), unpacked into storan-VERSION/.  It builds with DEVELOPER=0.
DIST := storan-$(VERSION)
DISTDIR ?= .
dist:
	$(Q)git rev-parse --git-dir >/dev/null 2>&1 || \
		{ echo "make dist: needs a git checkout" >&2; exit 1; }
	$(Q)rm -rf $(BUILD)/dist && mkdir -p $(BUILD)/dist/$(DIST)
	$(Q)git archive --format=tar HEAD | tar -x -C $(BUILD)/dist/$(DIST)
	$(Q)echo "$(VERSION)" >$(BUILD)/dist/$(DIST)/VERSION
	$(Q)tar -C $(BUILD)/dist -czf $(DISTDIR)/$(DIST).tar.gz --owner=0 \
		--group=0 --sort=name $(DIST)
	@echo "  DIST    $(DISTDIR)/$(DIST).tar.gz"

# The libraries dlopen()ed at run time, by soname (debian/rules makes the
# package depend on them: no ELF NEEDED entry names them).
print-sonames:
	@echo $(foreach l,$(DLOPEN_LIBS),$(call soname,$(l)))

# What a build uses (for scripts: make -s print-flags).
print-flags:
	@echo "VERSION=$(VERSION) DEVELOPER=$(DEVELOPER)"
	@echo "CFLAGS=$(ALL_CFLAGS)"
	@echo "LDFLAGS=$(LDFLAGS)"

clean:
	rm -rf build build-san build-clang build-tsan build-fuzz storan storan-*.tar.gz

.PHONY: all check check-browser demo fuzz fuzz-build fuzz-long install \
	uninstall dist clean unit-tests man completions build-deps print-flags \
	print-sonames FORCE

-include $(LIB_OBJS:.o=.d) $(BUILD)/storan.d $(BUILD)/tests/fuzz/fuzz-common.d
