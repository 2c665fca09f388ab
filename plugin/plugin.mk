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

all: $(PLUGIN) $(PLUGIN_NOOP)
check-build-extra: $(PLUGIN) $(PLUGIN_NOOP)

install: install-plugin
install-plugin: $(PLUGIN)
	install -d $(DESTDIR)$(PREFIX)/lib/tickscope
	install -m 644 $(PLUGIN) $(DESTDIR)$(PREFIX)/lib/tickscope/tickscope.so

.PHONY: install-plugin
-include $(PLUGIN_OBJS:.o=.d) $(BUILD)/plugin/noop.d
