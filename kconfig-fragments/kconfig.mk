# SPDX-License-Identifier: GPL-2.0-only
# kconfig-fragments: `make kernel-config` (validated kernel .config per variant) and the
# Buildroot-like experiment targets over the top-level Kconfig (kconfig-frontends).

TS_KCONF ?= kconfig-conf
TS_KMCONF ?= kconfig-mconf
# The experiment configuration and where savedefconfig writes (as Buildroot: ./defconfig).
TS_EXPERIMENT ?= .config
DEFCONFIG ?= defconfig

# The variables reach the script through the environment, as typed (their unexpanded text):
# never pasted into the recipe, so a quote, a '$' or a newline in a value runs nothing.
TS_KC_VARS := KSRC KSRC_B ARCH BOARD BASE O JSON FAST REUSE DIFF VERBOSE FRAGMENTS ALLOW_DROPS
$(foreach v,$(TS_KC_VARS),$(eval kernel-config: export TS_MK_$(v) := $$(value $(v))))
kernel-config: export TS_MK_EXPERIMENT := $(if $(wildcard $(TS_EXPERIMENT)),$(TS_EXPERIMENT))
kernel-config:
	$(Q)kconfig-fragments/make-kernel-config.sh

menuconfig:
	$(Q)KCONFIG_CONFIG=$(TS_EXPERIMENT) $(TS_KMCONF) Kconfig

%_defconfig: configs/%_defconfig
	$(Q)KCONFIG_CONFIG=$(TS_EXPERIMENT) $(TS_KCONF) -s --defconfig=$< Kconfig

# Without the configuration there is nothing to save: kconfig-conf took the defaults, wrote them
# as the defconfig and exited 0.
savedefconfig:
	$(if $(wildcard $(TS_EXPERIMENT)),,$(error make savedefconfig: no $(TS_EXPERIMENT) to save \
		(TS_EXPERIMENT=): run 'make <board>_defconfig' or 'make menuconfig' first))
	$(Q)KCONFIG_CONFIG=$(TS_EXPERIMENT) $(TS_KCONF) -s --savedefconfig=$(DEFCONFIG) Kconfig

alldefconfig olddefconfig:
	$(Q)KCONFIG_CONFIG=$(TS_EXPERIMENT) $(TS_KCONF) -s --$@ Kconfig

# The Kconfig-only kernel tree the kconfig tests use, extracted once into .cache/. A missing
# linux-source-6.1 is not fatal here: the tests then SKIP and say why.
kconfig-ksrc:
	$(Q)kconfig-fragments/ksrc.sh >/dev/null || true

check-build-extra: kconfig-ksrc

# The other kernel eras, which cannot ship with tickscope: extracts of pristine trees (made by
# tree-extract.sh) given as TS_KCONFIG_TREES="4.4=DIR 5.10=DIR 6.14=DIR" (each about 2 minutes
# on 2 CPUs). Not in make check. Without them it says so at once, before building anything.
ifneq ($(filter check-kconfig-trees,$(MAKECMDGOALS)),)
ifeq ($(strip $(TS_KCONFIG_TREES)),)
$(error check-kconfig-trees: TS_KCONFIG_TREES= is required: the other eras' extracts, \
	"4.4=DIR 5.10=DIR" (kconfig-fragments/README.md))
endif
endif
check-kconfig-trees: all check-build-extra
	$(Q)$(CHECK_ENV) TS_KCONFIG_TREES="$(TS_KCONFIG_TREES)" \
		$(PROVE) tests/kconfig-trees.t

.PHONY: kernel-config menuconfig savedefconfig alldefconfig olddefconfig kconfig-ksrc
.PHONY: check-kconfig-trees
