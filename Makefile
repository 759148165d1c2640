# storan -- plain GNU make, pkg-config for every library.
#
#   make                 build ./storan
#   make check           every test, under AddressSanitizer + UBSan
#   make demo            install what is missing, build, ingest sample-data/
#   make fuzz            every fuzz target, FUZZ_SECONDS each (clang)
#   make fuzz-long       the same, FUZZ_LONG_SECONDS each (docs/fuzzing.md)
#   make install PREFIX=/usr/local
#   make V=1             show the commands
#   make SANITIZE=1      build ./storan itself with the sanitizers

CC ?= cc
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
PKG_CONFIG ?= pkg-config

PKGS := liburing gsl zlib jansson libcrypto
# Loaded when a chart or workbook is drawn, not linked (plot/gfx.h): their
# headers at build time, their sonames for dlopen().
GFX_PKGS := cairo fontconfig xlsxwriter
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS) $(GFX_PKGS) 2>/dev/null)
PKG_LIBS := $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null)
soname = $(shell readelf -d $$($(CC) -print-file-name=lib$(1).so) \
	2>/dev/null | sed -n 's/.*soname: \[\(.*\)\]/\1/p')
GFX_SONAMES := $(foreach l,cairo fontconfig xlsxwriter,\
	$(if $(call soname,$(l)),-D$(shell echo $(l) | tr a-z A-Z)_SONAME='"$(call soname,$(l))"'))
CMOCKA_CFLAGS := $(shell $(PKG_CONFIG) --cflags cmocka 2>/dev/null)
CMOCKA_LIBS := $(shell $(PKG_CONFIG) --libs cmocka 2>/dev/null)

WARNINGS := -Wall -Wextra -Wstrict-prototypes -Wmissing-prototypes \
	-Wwrite-strings -Wvla -Wformat=2 -Wshadow -Wcast-qual -Wfloat-equal \
	-Wimplicit-fallthrough -Wno-format-nonliteral
DEVELOPER ?= 1
ifeq ($(DEVELOPER),1)
WARNINGS += -Werror
endif

OPT ?= -O2
CFLAGS ?= $(OPT) -g
ALL_CFLAGS := -std=gnu11 $(WARNINGS) $(CFLAGS) $(PKG_CFLAGS) $(GFX_SONAMES) \
	-I. -MMD -MP -pthread
LDLIBS := $(PKG_LIBS) -laio -lm -pthread

SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=undefined
ifeq ($(SANITIZE),1)
ALL_CFLAGS += $(SAN_FLAGS)
LDFLAGS += $(SAN_FLAGS)
endif

ifeq ($(V),1)
Q :=
else
Q := @
endif

LIB_SRCS := $(sort $(wildcard core/*.c parsers/*.c cmd/*.c analysis/*.c \
	plot/*.c runner/*.c))
BUILD ?= build
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o)
UNIT_SRCS := $(sort $(wildcard tests/unit/test-*.c))
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)

all: storan

storan: $(BUILD)/storan
	$(Q)cp $< $@

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

# The test suite always runs under ASan + UBSan, in its own build tree.
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
	$(Q)ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		STORAN=$(CURDIR)/build-san/storan UNIT_DIR=$(CURDIR)/build-san/tests \
		STORAN_CLANG=$(if $(CLANG),$(CURDIR)/build-clang/storan) \
		tests/run-all

check-browser: storan
	$(Q)tests/browser/run

demo:
	$(Q)scripts/install-deps
	$(Q)$(MAKE) --no-print-directory storan
	$(Q)scripts/demo

# Fuzzing (clang's libFuzzer; docs/fuzzing.md): one target per reader,
# each with its seeds (tests/fuzz/corpus/T) and dictionary
# (tests/fuzz/dict/T.dict).  `make fuzz` runs each FUZZ_SECONDS, one after
# the other, and fails on a finding; FUZZ_TARGETS picks some.
FUZZ_PARSER_TARGETS := fio-text fio-json fio-terse iozone dd hdparm time \
	blockdev-perftest csv
FUZZ_OWN_TARGETS := fio-log result-set input json-scan ingest
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

install: storan
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 755 storan $(DESTDIR)$(BINDIR)/storan
	install -m 644 docs/*.1 $(DESTDIR)$(MANDIR)/man1/

clean:
	rm -rf build build-san build-clang build-fuzz storan

.PHONY: all check check-browser demo fuzz fuzz-build fuzz-long install clean \
	unit-tests

-include $(LIB_OBJS:.o=.d) $(BUILD)/storan.d $(BUILD)/tests/fuzz/fuzz-common.d
