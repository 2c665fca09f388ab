# SPDX-License-Identifier: GPL-2.0-only
# libperf for `tickscope record`: static libperf.a and libapi.a built from a kernel tree's
# tools/lib/perf (Debian's linux-source-6.1, extracted once into .cache/), for the host and arm64.
# `make LIBPERF_KSRC=DIR` builds it from another kernel source tree instead.

LIBPERF_KSRC ?=
LIBPERF_HOST := $(BUILD)/libperf/host
LIBPERF_LIBS = $(LIBPERF_HOST)/lib/libperf.a $(LIBPERF_HOST)/lib/libapi.a

$(LIBPERF_HOST)/lib/libperf.a: scripts/libperf.sh
	$(if $(Q),@echo "  LIBPERF $(@D)")
	$(Q)scripts/libperf.sh $(if $(LIBPERF_KSRC),--ksrc "$(LIBPERF_KSRC)") --out $(LIBPERF_HOST) \
		>/dev/null
	$(Q)touch $@

$(LIBPERF_HOST)/lib/libapi.a: $(LIBPERF_HOST)/lib/libperf.a

# Only the CLI uses libperf; the library and the plugin do not.
$(CLI_OBJS): ALL_CFLAGS += -I$(LIBPERF_HOST)/include
$(CLI_OBJS): | $(LIBPERF_HOST)/lib/libperf.a
# The one file that reads struct perf_mmap (to mend records that libperf 6.1 cuts short).
$(BUILD)/analysis/cli/record_ring.o: ALL_CFLAGS += -I$(LIBPERF_HOST)/tools/include \
	-I$(LIBPERF_HOST)/arch-include
$(CLI): $(LIBPERF_LIBS)
# The queue between the ring reader and the writer has a unit test of its own.
$(BUILD)/tests/record_queue.t: $(BUILD)/analysis/cli/record_queue.o
$(BUILD)/tests/record_queue.t: UNIT_OBJS := $(BUILD)/analysis/cli/record_queue.o
$(CLI): LIBS += $(LIBPERF_LIBS)

# A static aarch64 tickscope for boards without a working perf (boards/target/ts-record.sh):
# `make tickscope-arm64`, with Debian's cross compiler and arm64 libtraceevent/libzstd/liblzma
# (scripts/arm64-libs.sh).
CROSS_COMPILE_ARM64 ?= aarch64-linux-gnu-
ARM64_BUILD := $(BUILD)/arm64
ARM64_LIBS := .cache/arm64-libs
LIBPERF_ARM64 := $(BUILD)/libperf/arm64
ARM64_CLI := $(ARM64_BUILD)/tickscope
ARM64_OBJS := $(LIB_SRCS:%.c=$(ARM64_BUILD)/%.o) $(CLI_SRCS:%.c=$(ARM64_BUILD)/%.o)
ARM64_CFLAGS := $(CFLAGS) $(WARN) -std=gnu11 -D_GNU_SOURCE -pthread -Ianalysis/include -Ianalysis \
	-I$(BUILD)/gen \
	-I$(ARM64_LIBS)/usr/include/traceevent -I$(ARM64_LIBS)/usr/include \
	-I$(LIBPERF_ARM64)/include -MMD -MP

$(ARM64_LIBS)/.tickscope-extracted: scripts/arm64-libs.sh
	$(Q)TS_ARM64_LIBS=$(CURDIR)/$(ARM64_LIBS) scripts/arm64-libs.sh >/dev/null

$(LIBPERF_ARM64)/lib/libperf.a: scripts/libperf.sh
	$(if $(Q),@echo "  LIBPERF $(@D)")
	$(Q)scripts/libperf.sh $(if $(LIBPERF_KSRC),--ksrc "$(LIBPERF_KSRC)") --arch arm64 \
		--out $(LIBPERF_ARM64) >/dev/null
	$(Q)touch $@

$(ARM64_BUILD)/%.o: %.c | $(ARM64_LIBS)/.tickscope-extracted $(LIBPERF_ARM64)/lib/libperf.a \
		$(MODELS_ID_H)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC-A64  $<")
	$(Q)$(CROSS_COMPILE_ARM64)gcc $(ARM64_CFLAGS) -c -o $@ $<

$(ARM64_BUILD)/analysis/cli/record_ring.o: ARM64_CFLAGS += -I$(LIBPERF_ARM64)/tools/include \
	-I$(LIBPERF_ARM64)/arch-include

$(ARM64_CLI): $(ARM64_OBJS) $(LIBPERF_ARM64)/lib/libperf.a
	$(if $(Q),@echo "  LINK-A64 $@")
	$(Q)$(CROSS_COMPILE_ARM64)gcc -static -pthread -o $@ $(ARM64_OBJS) \
		$(LIBPERF_ARM64)/lib/libperf.a $(LIBPERF_ARM64)/lib/libapi.a \
		$(ARM64_LIBS)/usr/lib/aarch64-linux-gnu/libtraceevent.a \
		$(ARM64_LIBS)/usr/lib/aarch64-linux-gnu/libzstd.a \
		$(ARM64_LIBS)/usr/lib/aarch64-linux-gnu/liblzma.a -lm -ldl

# next to the arm64 workloads, where the board recipes pick their binaries up
$(BUILD)/workloads-arm64/tickscope: $(ARM64_CLI)
	@mkdir -p $(@D)
	$(Q)cp $< $@

tickscope-arm64: $(ARM64_CLI) $(BUILD)/workloads-arm64/tickscope

.PHONY: tickscope-arm64
# Its .d files are read by the Makefile, after plots.mk has added the scripts' object.
