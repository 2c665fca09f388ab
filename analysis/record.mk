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
$(CLI): LIBS += $(LIBPERF_LIBS)
