# SPDX-License-Identifier: GPL-2.0-only
# Board farms with LAVA (boards/lava/README.md): job definitions, the emulated board's LAVA
# ramdisk, collecting what the jobs published, and the local lava-run check.

LAVA_JOBS_VARS := EXPERIMENT DEVICE_TYPE KERNELS UPLOAD_URL UPLOAD_TOKEN RUNS RUNS_PER_JOB TRACES \
	ORDER SEED OUT
lava-jobs:
	$(Q)boards/lava/jobs.sh $(foreach v,$(LAVA_JOBS_VARS),$(if $(filter \
		command line environment,$(origin $(v))),$(v)))

# the board computes each run's summary with the static aarch64 tickscope (tickscope-arm64)
lava-ramdisk: workloads-arm64 tickscope-arm64
	$(Q)BUILD=$(BUILD) boards/lava/ramdisk.sh

LAVA_COLLECT_VARS := IN OUT EXPERIMENT TICKSCOPE
# without IN it says so at once, as collect.sh would after the build
ifneq ($(filter lava-collect,$(MAKECMDGOALS)),)
ifeq ($(IN),)
$(error lava-collect: IN= is required: the folder(s) the jobs uploaded into (boards/lava/README.md))
endif
endif
lava-collect: $(CLI)
	$(Q)BUILD=$(BUILD) boards/lava/collect.sh $(foreach v,$(LAVA_COLLECT_VARS),$(if $(filter \
		command line environment,$(origin $(v))),$(v)))

# lava-run (no server) boots generated qemu jobs on the emulated aarch64 board (tests/lava-qemu.t).
check-lava: deps
	$(Q)$(MAKE) --no-print-directory all workloads-arm64 tickscope-arm64
	$(Q)TS_CHECK_LAVA=1 $(CHECK_ENV) \
		$(PROVE) --exec '' tests/lava-qemu.t

.PHONY: lava-jobs lava-ramdisk lava-collect check-lava
