# SPDX-License-Identifier: GPL-2.0-only
# boards/: workloads (native and arm64 cross builds), `make record`, `make check-boards`.
# Included by the top-level Makefile; see boards/README.md.

WORKLOAD_SRCS := $(wildcard boards/workloads/*.c)
WORKLOAD_BINS := $(WORKLOAD_SRCS:boards/workloads/%.c=$(BUILD)/workloads/%)
WORKLOAD_ARM64_BINS := $(WORKLOAD_SRCS:boards/workloads/%.c=$(BUILD)/workloads-arm64/%)
CROSS_COMPILE_ARM64 ?= aarch64-linux-gnu-
WORKLOAD_CFLAGS := $(CFLAGS) $(WARN) -std=gnu11 -D_GNU_SOURCE

$(BUILD)/workloads/%: boards/workloads/%.c
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC      $@")
	$(Q)$(CC) $(WORKLOAD_CFLAGS) -o $@ $< $(LDFLAGS)

# Static, so the binary runs in a busybox initramfs without the arm64 libc.
$(BUILD)/workloads-arm64/%: boards/workloads/%.c
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC-A64  $@")
	$(Q)$(CROSS_COMPILE_ARM64)gcc $(WORKLOAD_CFLAGS) -static -o $@ $<

workloads: $(WORKLOAD_BINS)
workloads-arm64: $(WORKLOAD_ARM64_BINS)

check-build-extra: workloads

.PHONY: workloads workloads-arm64
