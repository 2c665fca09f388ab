# SPDX-License-Identifier: GPL-2.0-only
# tickscope: one non-recursive build. `make V=1` shows commands, `make SANITIZE=1` builds with
# ASan+UBSan into build-san/, PREFIX/DESTDIR install. Folders add rules through their own *.mk.

PREFIX ?= /usr/local
DESTDIR ?=
CC ?= cc
PKG_CONFIG ?= pkg-config

ifeq ($(V),1)
Q :=
else
Q := @
endif

ifeq ($(SANITIZE),1)
BUILD ?= build-san
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
else
BUILD ?= build
SANFLAGS :=
endif
# The build folder in one spelling, however it was given: inside the tree relative to it (as
# make's CURDIR has it, symlinks resolved), outside it absolute; no '.', '..' or trailing '/'.
# The .d files name the objects as the build that wrote them spelled BUILD: boards/record.sh
# gave make an absolute BUILD and lava.mk a relative one, so neither saw the headers the other
# had recorded, and a changed header left a stale arm64 tickscope of objects from two versions.
# Name targets as make does here (-o, -W, goals): $(BUILD)/tickscope, build/tickscope.
# A blank cannot be in a target's name: make would take "my build" for two of them.
ifneq ($(words $(BUILD)),1)
$(error BUILD='$(BUILD)': one folder, without blanks (BUILD=build, or a path))
endif
ts_real_parent = $(or $(realpath $(dir $(1))),$(patsubst %/,%,$(dir $(1))))/$(notdir $(1))
ts_canon = $(patsubst $(CURDIR)/%,%,$(call ts_real_parent,$(abspath $(1))))
override BUILD := $(if $(filter /%,$(BUILD))$(findstring ..,$(BUILD)),$(call ts_canon,$(if \
	$(filter /%,$(BUILD)),$(BUILD),$(CURDIR)/$(BUILD))),$(patsubst /%,%,$(abspath /$(BUILD))))
ifneq ($(words $(BUILD)),1)
$(error BUILD: the tree's path has a blank: give BUILD inside it, without '..')
endif
# The same folder as an absolute path, for the scripts and tests given it.
BUILD_ABS := $(if $(filter /%,$(BUILD)),$(BUILD),$(CURDIR)/$(BUILD))

TRACEEVENT_CFLAGS := $(shell $(PKG_CONFIG) --cflags libtraceevent 2>/dev/null)
TRACEEVENT_LIBS := $(shell $(PKG_CONFIG) --libs libtraceevent 2>/dev/null || echo -ltraceevent)
ZSTD_CFLAGS := $(shell $(PKG_CONFIG) --cflags libzstd 2>/dev/null)
ZSTD_LIBS := $(shell $(PKG_CONFIG) --libs libzstd 2>/dev/null || echo -lzstd)
LZMA_CFLAGS := $(shell $(PKG_CONFIG) --cflags liblzma 2>/dev/null)
LZMA_LIBS := $(shell $(PKG_CONFIG) --libs liblzma 2>/dev/null || echo -llzma)

WARN := -Wall -Wextra -Wshadow -Wno-unused-parameter -Wmissing-prototypes -Wstrict-prototypes
ifeq ($(CI),true)
WARN += -Werror
endif
CFLAGS ?= -O2 -g
# The tickscope binary is linked with link-time optimization: a sample crosses the reader, the
# decoder and the printer, one small function of each layer after another (dump: 8-10% fewer
# instructions). Objects carry both forms, so that tests and the plugin link them as usual.
# LTO= builds without it; sanitized builds go without.
ifeq ($(SANITIZE),1)
LTO ?=
else
LTO ?= -flto=auto
endif
ALL_CFLAGS := $(CFLAGS) $(WARN) -std=gnu11 -D_GNU_SOURCE -fPIC -pthread $(SANFLAGS) \
	$(if $(LTO),$(LTO) -ffat-lto-objects) \
	-Ianalysis/include -Ianalysis -I$(BUILD)/gen $(TRACEEVENT_CFLAGS) $(ZSTD_CFLAGS) \
	$(LZMA_CFLAGS) -MMD -MP
ALL_LDFLAGS := $(LDFLAGS) -pthread $(SANFLAGS)

# The library, one folder per layer (analysis/README.md): common -> source -> model -> report.
LIB_DIRS := common source model report
LIB_SRCS := $(foreach d,$(LIB_DIRS),$(wildcard analysis/$(d)/*.c))
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o)
LIB := $(BUILD)/libtickscope.a

CLI_SRCS := $(wildcard analysis/cli/*.c)
CLI_OBJS := $(CLI_SRCS:%.c=$(BUILD)/%.o)
CLI := $(BUILD)/tickscope

# C unit tests: tests/unit/NAME.c -> $(BUILD)/tests/NAME.t, run by prove with the shell tests.
UNIT_SRCS := $(wildcard tests/unit/*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%.t)

LIBS := $(TRACEEVENT_LIBS) $(ZSTD_LIBS) $(LZMA_LIBS) -lm

all: $(CLI) $(UNIT_BINS)

# The analysis code's identity: a summary cached beside a trace is keyed by it, so that one
# computed by other code (an older tickscope of the same version) is computed again, not read.
MODELS_ID := $(shell cat $(sort $(wildcard analysis/*/*.c analysis/*/*.h \
	analysis/include/tickscope/*.h)) | sha256sum | cut -c1-12)
MODELS_ID_H := $(BUILD)/gen/tickscope/models_id.h

$(MODELS_ID_H): FORCE
	@mkdir -p $(@D)
	@echo '#define TS_MODELS_ID "$(MODELS_ID)"' >$@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv -f $@.tmp $@; fi

.PHONY: FORCE
FORCE:

$(BUILD)/%.o: %.c | $(MODELS_ID_H)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(LIB): $(LIB_OBJS)
	$(if $(Q),@echo "  AR      $@")
	$(Q)rm -f $@ && ar rcs $@ $^

$(CLI): $(CLI_OBJS) $(LIB)
	$(if $(Q),@echo "  LINK    $@")
	$(Q)$(CC) $(ALL_LDFLAGS) $(LTO) -O2 -o $@ $(CLI_OBJS) $(LIB) $(LIBS)

$(BUILD)/tests/%.t: tests/unit/%.c $(LIB) tests/lib/tap.h tests/lib/events.h
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC      $@")
	$(Q)$(CC) $(ALL_CFLAGS) -Itests/lib -o $@ $< $(UNIT_OBJS) $(LIB) $(LIBS) $(ALL_LDFLAGS)

# Set-up: install what is missing (Debian packages by name). Both demo and check run it.
deps:
	$(Q)scripts/deps.sh

deps-demo:
	$(Q)scripts/deps.sh demo

# The README's test command. TS_BUILD tells shell tests which binaries to use.
PROVE ?= prove
# What every check target's tests run with: this tree's binaries, and the kallsyms, formats and
# summary caches kept in the build (not ~/.cache/tickscope, which every tickscope on the machine
# shares).
# The tree's and the build's absolute paths as one shell word each: from a folder whose path
# has a space (a folder named "my tree"), TS_BUILD=.../my tree/build ran "tree/build".
shq = '$(subst ','\'',$(1))'
TOP_Q := $(call shq,$(CURDIR))
BUILD_Q := $(call shq,$(BUILD_ABS))
CHECK_ENV = TS_BUILD=$(BUILD_Q) TS_TOP=$(TOP_Q) \
	TS_KSYMS_CACHE=$(call shq,$(BUILD_ABS)/ksyms-cache) \
	TS_FORMATS_CACHE=$(call shq,$(BUILD_ABS)/formats-cache) \
	TS_SUMMARY_CACHE=$(call shq,$(BUILD_ABS)/summary-cache)
# Sanitized binaries run with tests/lsan.supp: leaks inside libtraceevent are not ours.
check: deps
	$(Q)$(MAKE) --no-print-directory all check-build-extra
	$(Q)$(CHECK_ENV) SANITIZE=$(SANITIZE) \
		$(if $(filter 1,$(SANITIZE)),LSAN_OPTIONS=suppressions=$(call shq,$(CURDIR)/tests/lsan.supp)) \
		$(PROVE) --exec '' -r tests/ $(BUILD)/tests/

# The demo builds what it runs, the CLI and the dlfilter plugin, not the unit tests.
# The libtraceevent plugin too (seconds), so that the demo's perf report runs and the README's
# "Used with" commands work after it without `make`, which builds every unit test first.
demo: deps-demo
	$(Q)$(MAKE) --no-print-directory $(CLI) $(PLUGIN) $(TEP_PLUGIN)
	$(Q)TS_BUILD=$(BUILD_Q) scripts/demo.sh

# workloads: bench-record.sh runs the ping-pong under both recorders; without it only a first
# run built them (through make record, for the compare runs) and a cached run skipped the line.
bench: deps
	$(Q)$(MAKE) --no-print-directory all workloads
	$(Q)TS_BUILD=$(BUILD_Q) scripts/bench.sh
	$(Q)TS_BUILD=$(BUILD_Q) scripts/bench-charts.sh

# Only what it installs: the unit tests (all) are not, and cost a new user minutes to build.
install: $(CLI)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(CLI) $(DESTDIR)$(PREFIX)/bin/tickscope
	install -m 644 docs/man/tickscope.1 $(DESTDIR)$(PREFIX)/share/man/man1/tickscope.1

# What install wrote, then lib/tickscope, and the folders install makes when they are left
# empty; a system's own /usr and /usr/local folders stay. Running it twice is not an error.
UNINSTALL_DIRS := lib/tickscope lib/traceevent/plugins lib/traceevent $(if $(DESTDIR)$(filter-out /usr /usr/local,$(PREFIX)), \
	bin lib share/man/man1 share/man share)
uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/tickscope $(DESTDIR)$(PREFIX)/share/man/man1/tickscope.1 \
		$(DESTDIR)$(PREFIX)/lib/tickscope/tickscope.so \
		$(DESTDIR)$(PREFIX)/lib/traceevent/plugins/plugin_tickscope.so
	$(Q)for d in $(UNINSTALL_DIRS); do \
		if [ -d "$(DESTDIR)$(PREFIX)/$$d" ]; then \
			rmdir --ignore-fail-on-non-empty "$(DESTDIR)$(PREFIX)/$$d" || exit 1; \
		fi; \
	done

help:
	@echo 'tickscope: make [TARGET] [VARIABLE=value ...]'
	@echo
	@echo 'targets:'
	@echo '  all (default)    build build/tickscope (the CLI, not installed: run it from there'
	@echo '                   or make install), build/tickscope.so (the perf plugin),'
	@echo '                   build/traceevent/plugins/plugin_tickscope.so (the libtraceevent'
	@echo '                   plugin: TRACEEVENT_PLUGIN_DIR=build/traceevent/plugins perf report)'
	@echo '                   and the unit tests (build/tests/)'
	@echo '  demo             install the demo packages (scripts/packages), build the CLI and both'
	@echo '                   plugins, run the demo on the bundled traces'
	@echo '  check            install every packages list, build, run the TAP suite (prove)'
	@echo '  deps, deps-demo  only install the missing Debian packages (all lists, or the demo)'
	@echo '  bench            speed and memory against perf on the same file'
	@echo '  fuzz             run the libFuzzer target (FUZZ_TIME seconds)'
	@echo '  mutation         plant each bug of tests/mutations.txt in a scratch copy and run'
	@echo '                   the tests that cover it (slow; tests/mutation.sh --help)'
	@echo '  tickscope-arm64  a static aarch64 build/arm64/tickscope for boards without perf'
	@echo '  record           record runs on a board (BOARD WORKLOAD VARIANT RUNS; boards/README.md)'
	@echo '  experiment       record two variants interleaved and compare them (BOARD WORKLOAD A B RUNS;'
	@echo '                   ORDER SEED: each batch'"'"'s order, shuffled from SEED by default)'
	@echo '                   NAME and variant names: letters, digits . _ + - (not first . or -)'
	@echo '  bisect           the first bad change of a series or git range (PATCHES or KSRC, GOOD, BAD)'
	@echo '  check-bisect     make bisect over the known-answer series, live on qemu-aarch64'
	@echo '  check-experiment  the nohz=off against default experiment, live on qemu-aarch64'
	@echo '  check-boards     boot the emulated aarch64 board and check a recording arrives'
	@echo '  kernel           build a kernel variant (BOARD VARIANT FRAGMENTS PATCHES; boards/README.md)'
	@echo '  check-kernel-variants  build hz-periodic and nohz-idle kernels, run and check their experiment'
	@echo '  lava-jobs        LAVA job definitions of an experiment (EXPERIMENT DEVICE_TYPE UPLOAD_URL RUNS'
	@echo '                   ORDER SEED, as experiment)'
	@echo '  lava-ramdisk     the emulated board'"'"'s LAVA ramdisk and kernels file (results/lava/)'
	@echo '  lava-collect     check and compare the runs LAVA jobs uploaded (IN EXPERIMENT OUT)'
	@echo '  check-lava       lava-run boots generated qemu jobs locally, then lava-collect'
	@echo '  kernel-config    apply Kconfig fragments to a tree (KSRC ARCH BOARD FRAGMENTS BASE O'
	@echo '                   ALLOW_DROPS; KSRC_B: the same variant on a second tree)'
	@echo '  check-kconfig-trees  kernel-config on other kernel eras'"'"' extracts (TS_KCONFIG_TREES;'
	@echo '                   kconfig-fragments/README.md)'
	@echo '  menuconfig, <board>_defconfig, savedefconfig, alldefconfig, olddefconfig'
	@echo '                   the experiment configuration (.config; Kconfig, configs/)'
	@echo '  workloads, workloads-static, workloads-arm64   the benchmark programs: native,'
	@echo '                   static x86_64, static aarch64 (boards/README.md)'
	@echo '  install          bin/tickscope, lib/tickscope/tickscope.so, share/man/man1/tickscope.1,'
	@echo '                   lib/traceevent/plugins/plugin_tickscope.so'
	@echo '  uninstall        remove what install wrote, and the folders it left empty'
	@echo '  format           clang-format the C sources'
	@echo '  clean            remove build/ and build-san/'
	@echo '  help             this text'
	@echo
	@echo 'variables:'
	@echo '  PREFIX=$(PREFIX)  DESTDIR=  where install and uninstall write'
	@echo '  V=1              show the commands'
	@echo '  SANITIZE=1       build with ASan and UBSan into build-san/ (check runs the tests there)'
	@echo '  CC, CFLAGS, LDFLAGS, PKG_CONFIG   the toolchain'
	@echo '  FUZZ_TIME=60     seconds of make fuzz'
	@echo '  BASE=defconfig|board|running|FILE   kernel-config'"'"'s starting config'
	@echo '  KSRC=6.1|6.12|DIR, KSRC_B=DIR       kernel-config'"'"'s kernel trees'
	@echo '  LIBPERF_KSRC=DIR  build libperf for tickscope record from another kernel tree'

clean:
	rm -rf build build-san

format:
	clang-format -i $(wildcard analysis/*/*.[ch] analysis/include/tickscope/*.h plugin/*.c tests/unit/*.c)

# Extra build products that tests need (the plugin, workloads, ...); folders append to it.
check-build-extra:

.PHONY: all deps deps-demo check demo bench install uninstall help clean format check-build-extra

-include $(wildcard */*.mk)
# After the folders' *.mk, which add objects (plots.mk: the embedded scripts, also for arm64).
-include $(LIB_OBJS:.o=.d) $(CLI_OBJS:.o=.d) $(UNIT_BINS:.t=.d) $(ARM64_OBJS:.o=.d)
