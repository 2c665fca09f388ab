# SPDX-License-Identifier: GPL-2.0-only
# plots/: the gnuplot scripts are embedded in tickscope (plots/embed.sh), which writes them
# next to the charts it draws so that every chart can be redrawn by hand from its folder.

PLOTS_GP := $(sort $(wildcard plots/*.gp))
PLOTS_GEN := $(BUILD)/gen/plots_gp.c
PLOTS_OBJ := $(BUILD)/gen/plots_gp.o

$(PLOTS_GEN): $(PLOTS_GP) plots/embed.sh
	@mkdir -p $(@D)
	$(if $(Q),@echo "  GEN     $@")
	$(Q)plots/embed.sh $(PLOTS_GP) >$@.tmp && mv $@.tmp $@

$(PLOTS_OBJ): $(PLOTS_GEN)
	$(if $(Q),@echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -Ianalysis/cli -c -o $@ $<

CLI_OBJS += $(PLOTS_OBJ)
$(CLI): $(PLOTS_OBJ)

# The static aarch64 tickscope for boards (analysis/record.mk) carries the scripts too.
ARM64_PLOTS_OBJ := $(ARM64_BUILD)/gen/plots_gp.o
$(ARM64_PLOTS_OBJ): $(PLOTS_GEN) | $(ARM64_LIBS)/.tickscope-extracted
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC-A64  $<")
	$(Q)$(CROSS_COMPILE_ARM64)gcc $(ARM64_CFLAGS) -Ianalysis/cli -c -o $@ $<
ARM64_OBJS += $(ARM64_PLOTS_OBJ)
$(ARM64_CLI): $(ARM64_PLOTS_OBJ)
