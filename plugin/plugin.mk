# SPDX-License-Identifier: GPL-2.0-only
# The perf --dlfilter plugin: our objects plus a static libtraceevent, every symbol hidden but
# perf's entry points (Debian's perf exports its own tep_* copies, which must not bind ours).

PLUGIN := $(BUILD)/tickscope.so
PLUGIN_NOOP := $(BUILD)/noop.so
PLUGIN_OBJS := $(BUILD)/plugin/tickscope.o $(BUILD)/plugin/perf_cmdline.o
TRACEEVENT_STATIC ?= $(shell $(PKG_CONFIG) --variable=libdir libtraceevent 2>/dev/null || \
	echo /usr/lib/x86_64-linux-gnu)/libtraceevent.a

$(PLUGIN): $(PLUGIN_OBJS) $(LIB) plugin/exports.map
	$(if $(Q),@echo "  LINK    $@")
	$(Q)$(CC) -shared $(ALL_LDFLAGS) -Wl,--version-script=plugin/exports.map \
		-Wl,--exclude-libs,ALL -Wl,-z,defs -o $@ $(PLUGIN_OBJS) $(LIB) \
		$(TRACEEVENT_STATIC) $(ZSTD_LIBS) -ldl -lm

$(PLUGIN_NOOP): $(BUILD)/plugin/noop.o plugin/exports.map
	$(if $(Q),@echo "  LINK    $@")
	$(Q)$(CC) -shared $(ALL_LDFLAGS) -Wl,--version-script=plugin/exports.map -o $@ $<

# The libtraceevent plugin for perf report, perf script, trace-cmd and KernelShark: the class
# rules (classify.o) linked in and hidden; the tep_* functions come from the host at load time
# (perf 6.1's own copy, or libtraceevent.so.1), so neither is linked and -z defs cannot apply.
# Alone in its folder, so that TRACEEVENT_PLUGIN_DIR can point there (the dlfilter is no plugin).
TEP_PLUGIN := $(BUILD)/traceevent/plugins/plugin_tickscope.so
TEP_PLUGIN_OBJS := $(BUILD)/plugin/plugin_tickscope.o $(BUILD)/analysis/model/classify.o

$(TEP_PLUGIN): $(TEP_PLUGIN_OBJS) plugin/tep-exports.map
	@mkdir -p $(@D)
	$(if $(Q),@echo "  LINK    $@")
	$(Q)$(CC) -shared $(ALL_LDFLAGS) -Wl,--version-script=plugin/tep-exports.map -o $@ \
		$(TEP_PLUGIN_OBJS)

all: $(PLUGIN) $(PLUGIN_NOOP) $(TEP_PLUGIN)
check-build-extra: $(PLUGIN) $(PLUGIN_NOOP) $(TEP_PLUGIN)

install: install-plugin
install-plugin: $(PLUGIN) $(TEP_PLUGIN)
	install -d $(DESTDIR)$(PREFIX)/lib/tickscope $(DESTDIR)$(PREFIX)/lib/traceevent/plugins
	install -m 644 $(PLUGIN) $(DESTDIR)$(PREFIX)/lib/tickscope/tickscope.so
	install -m 644 $(TEP_PLUGIN) \
		$(DESTDIR)$(PREFIX)/lib/traceevent/plugins/plugin_tickscope.so

.PHONY: install-plugin
-include $(PLUGIN_OBJS:.o=.d) $(BUILD)/plugin/noop.d $(BUILD)/plugin/plugin_tickscope.d
