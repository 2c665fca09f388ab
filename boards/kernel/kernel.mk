# SPDX-License-Identifier: GPL-2.0-only
# `make kernel` (one kernel variant built from fragments and patches, boards/kernel/kernel.sh) and
# `make check-kernel-variants` (two built kernels through make experiment; slow, not in CI).

# make kernel BOARD=qemu-aarch64 VARIANT=nohz-idle FRAGMENTS="nohz-idle tracing" [PATCHES=dir]
kernel:
	$(Q)boards/kernel/kernel.sh --board '$(or $(BOARD),qemu-aarch64)' --variant '$(VARIANT)' \
		--fragments '$(FRAGMENTS)' $(if $(PATCHES),--patches '$(PATCHES)') \
		$(if $(filter 1,$(FORCE)),--force)

# Builds hz-periodic and nohz-idle kernels for qemu-aarch64, records the ping-pong on both
# interleaved and checks compare's answer (tests/kernel-variants-qemu.t; TS_KV_TICK=0 leaves it
# out); then the shrinker patch against its baseline on stress-ng ramfs (TS_KV_SHRINKER=0), the
# shrinker case three ways with our fix (TS_KV_SHRINKER3=0), and the vmstat case three ways,
# unpinned and pinned, on qemu-aarch64 (TS_KV_VMSTAT=0) and on qemu-x86 (TS_KV_VMSTAT_X86=0).
check-kernel-variants: deps
	$(Q)$(MAKE) --no-print-directory all workloads workloads-arm64
	$(Q)TS_CHECK_KERNEL_VARIANTS=1 $(CHECK_ENV) \
		$(PROVE) --exec '' tests/kernel-variants-qemu.t

.PHONY: kernel check-kernel-variants
