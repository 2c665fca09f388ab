# SPDX-License-Identifier: GPL-2.0-only
# boards/: workloads (native, native static, arm64 static), `make record`, `make check-boards`.
# Included by the top-level Makefile; see boards/README.md.

WORKLOAD_SRCS := $(wildcard boards/workloads/*.c)
WORKLOAD_BINS := $(WORKLOAD_SRCS:boards/workloads/%.c=$(BUILD)/workloads/%)
WORKLOAD_STATIC_BINS := $(WORKLOAD_SRCS:boards/workloads/%.c=$(BUILD)/workloads-static/%)
WORKLOAD_ARM64_BINS := $(WORKLOAD_SRCS:boards/workloads/%.c=$(BUILD)/workloads-arm64/%)
CROSS_COMPILE_ARM64 ?= aarch64-linux-gnu-
WORKLOAD_CFLAGS := $(CFLAGS) $(WARN) -std=gnu11 -D_GNU_SOURCE

$(BUILD)/workloads/%: boards/workloads/%.c
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC      $@")
	$(Q)$(CC) $(WORKLOAD_CFLAGS) -o $@ $< $(LDFLAGS)

# Static builds run in a busybox initramfs (and on boards) without a matching libc.
$(BUILD)/workloads-static/%: boards/workloads/%.c
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC      $@")
	$(Q)$(CC) $(WORKLOAD_CFLAGS) -static -o $@ $<

$(BUILD)/workloads-arm64/%: boards/workloads/%.c
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC-A64  $@")
	$(Q)$(CROSS_COMPILE_ARM64)gcc $(WORKLOAD_CFLAGS) -static -o $@ $<

workloads: $(WORKLOAD_BINS)
workloads-static: $(WORKLOAD_STATIC_BINS)
workloads-arm64: $(WORKLOAD_ARM64_BINS)

# The tests build and run every flavour (the arm64 one only if the cross compiler is there).
check-build-extra: workloads workloads-static \
	$(if $(shell command -v $(CROSS_COMPILE_ARM64)gcc 2>/dev/null),workloads-arm64)

# make record BOARD=... WORKLOAD=... VARIANT=... RUNS=N: only the variables given on the command
# line (or in the environment) are passed, so the experiment .config fills the others. They are
# passed by name: make exports them, the script reads their values from its environment, so a
# quote, a space or a newline in a value is data, never shell (and no secret shows in ps).
RECORD_VARS := BOARD WORKLOAD VARIANT RUNS ITERS WARMUP DELAY_US WORKERS DURATION EVENTS PROBES \
	CALLCHAINS MMAP RECORDER GUEST_KERNEL BOOT_ARGS KERNEL_IMAGE FRAGMENTS SSH_TARGET ACCEL \
	BOOT_TIMEOUT TIMEOUT RETRIES RESULTS CONFIG
record: workloads
	$(Q)BUILD=$(BUILD) boards/record.sh $(foreach v,$(RECORD_VARS),$(if $(filter \
		command line environment,$(origin $(v))),$(v)))

# make experiment BOARD=... WORKLOAD=... A=... B=... [C=...] RUNS=N: two or three variants recorded
# interleaved through `make record`, then compared (boards/experiment.sh --help). Without a B
# (given, or in the .config) it says so at once, as experiment.sh would after the build.
ifneq ($(filter experiment,$(MAKECMDGOALS)),)
ifeq ($(B)$(wildcard $(or $(CONFIG),.config)),)
$(error experiment: B= is required (the variant to compare against A=$(or $(A),default); \
	boards/experiment.sh --help))
endif
endif
EXPERIMENT_VARS := BOARD WORKLOAD A B C A_FRAGMENTS A_PATCHES B_FRAGMENTS B_PATCHES C_FRAGMENTS \
	C_PATCHES RUNS ORDER SEED NAME REPRODUCES FRESH ITERS WARMUP DELAY_US WORKERS DURATION EVENTS \
	PROBES CALLCHAINS MMAP RECORDER ACCEL RESULTS RECORD MAKE_KERNEL TICKSCOPE CONFIG
experiment: $(CLI) workloads
	$(Q)BUILD=$(BUILD) boards/experiment.sh $(foreach v,$(EXPERIMENT_VARS),$(if $(filter \
		command line environment,$(origin $(v))),$(v)))

# make bisect PATCHES=dir [GOOD=k BAD=k] or KSRC=tree GOOD=commit BAD=commit: the first bad
# change, each step decided by compare's U test and verified by revert (docs/bisect.md). Without
# either it says so at once, as bisect.sh would after the build.
ifneq ($(filter bisect,$(MAKECMDGOALS)),)
ifeq ($(PATCHES)$(KSRC),)
$(error bisect: PATCHES= (a patch series) or KSRC= (a git work tree) is required \
	(docs/bisect.md))
endif
endif
BISECT_VARS := PATCHES GOOD BAD KSRC NAME BOARD WORKLOAD FRAGMENTS RUNS MAX_RUNS ALPHA METRIC \
	VERIFY FRESH PLAN ITERS WARMUP DELAY_US WORKERS DURATION EVENTS CALLCHAINS MMAP RECORDER ACCEL \
	RESULTS RECORD MAKE_KERNEL TICKSCOPE
bisect: $(CLI) workloads
	$(Q)BUILD=$(BUILD) boards/bisect.sh $(foreach v,$(BISECT_VARS),$(if $(filter \
		command line environment,$(origin $(v))),$(v)))

# make bisect over the known-answer series, live on qemu-aarch64 (tests/bisect-qemu.t; slow).
check-bisect: deps
	$(Q)$(MAKE) --no-print-directory all workloads workloads-arm64
	$(Q)TS_CHECK_BISECT=1 $(CHECK_ENV) \
		$(PROVE) --exec '' tests/bisect-qemu.t

# The nohz=off against default experiment, live on qemu-aarch64 (tests/experiment-qemu.t).
check-experiment: deps
	$(Q)$(MAKE) --no-print-directory all workloads workloads-arm64
	$(Q)TS_CHECK_EXPERIMENT=1 $(CHECK_ENV) \
		$(PROVE) --exec '' tests/experiment-qemu.t

# Boots qemu-aarch64 once (generic kernel): a real aarch64 perf.data must come back decodable.
check-boards: deps
	$(Q)$(MAKE) --no-print-directory all workloads workloads-arm64 workloads-static
	$(Q)TS_CHECK_BOARDS=1 $(CHECK_ENV) \
		$(PROVE) --exec '' tests/boards-qemu.t

include boards/kernel/kernel.mk

.PHONY: workloads workloads-static workloads-arm64 record experiment bisect check-bisect \
	check-experiment check-boards
