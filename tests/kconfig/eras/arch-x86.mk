# SPDX-License-Identifier: GPL-2.0-only
# arch/x86/Makefile of the model trees (tests/kconfig-eras.t): what `make *config` needs.
KBUILD_DEFCONFIG := x86_64_defconfig
