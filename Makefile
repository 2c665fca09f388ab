# SPDX-License-Identifier: GPL-2.0-only
# tickscope: one non-recursive build. `make V=1` shows commands, `make SANITIZE=1` builds with
# ASan+UBSan into build-san/, PREFIX/DESTDIR install. Folders add rules through their own *.mk.

PREFIX ?= /usr/local
DESTDIR ?=
CC ?= cc
PKG_CONFIG ?= pkg-config

ifeq ($(V),1)
Q :=
else
Q := @
endif

ifeq ($(SANITIZE),1)
BUILD ?= build-san
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
else
BUILD ?= build
SANFLAGS :=
endif

TRACEEVENT_CFLAGS := $(shell $(PKG_CONFIG) --cflags libtraceevent 2>/dev/null)
TRACEEVENT_LIBS := $(shell $(PKG_CONFIG) --libs libtraceevent 2>/dev/null || echo -ltraceevent)
ZSTD_CFLAGS := $(shell $(PKG_CONFIG) --cflags libzstd 2>/dev/null)
ZSTD_LIBS := $(shell $(PKG_CONFIG) --libs libzstd 2>/dev/null || echo -lzstd)

WARN := -Wall -Wextra -Wshadow -Wno-unused-parameter -Wmissing-prototypes -Wstrict-prototypes
ifeq ($(CI),true)
WARN += -Werror
endif
CFLAGS ?= -O2 -g
ALL_CFLAGS := $(CFLAGS) $(WARN) -std=gnu11 -D_GNU_SOURCE -fPIC -pthread $(SANFLAGS) \
	-Ianalysis/include -Ianalysis $(TRACEEVENT_CFLAGS) $(ZSTD_CFLAGS) -MMD -MP
ALL_LDFLAGS := $(LDFLAGS) -pthread $(SANFLAGS)

# The library, one folder per layer (analysis/README.md): common -> source -> model -> report.
LIB_DIRS := common source model report
LIB_SRCS := $(foreach d,$(LIB_DIRS),$(wildcard analysis/$(d)/*.c))
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o)
LIB := $(BUILD)/libtickscope.a

CLI_SRCS := $(wildcard analysis/cli/*.c)
CLI_OBJS := $(CLI_SRCS:%.c=$(BUILD)/%.o)
CLI := $(BUILD)/tickscope

# C unit tests: tests/unit/NAME.c -> $(BUILD)/tests/NAME.t, run by prove with the shell tests.
UNIT_SRCS := $(wildcard tests/unit/*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%.t)

LIBS := $(TRACEEVENT_LIBS) $(ZSTD_LIBS) -lm

all: $(CLI) $(UNIT_BINS)

$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(LIB): $(LIB_OBJS)
	$(if $(Q),@echo "  AR      $@")
	$(Q)rm -f $@ && ar rcs $@ $^

$(CLI): $(CLI_OBJS) $(LIB)
	$(if $(Q),@echo "  LINK    $@")
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $(CLI_OBJS) $(LIB) $(LIBS)

$(BUILD)/tests/%.t: tests/unit/%.c $(LIB) tests/lib/tap.h tests/lib/events.h
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC      $@")
	$(Q)$(CC) $(ALL_CFLAGS) -Itests/lib -o $@ $< $(LIB) $(LIBS) $(ALL_LDFLAGS)

# Set-up: install what is missing (Debian packages by name). Both demo and check run it.
deps:
	$(Q)scripts/deps.sh

# The README's test command. TS_BUILD tells shell tests which binaries to use.
PROVE ?= prove
check: deps
	$(Q)$(MAKE) --no-print-directory all check-build-extra
	$(Q)TS_BUILD=$(CURDIR)/$(BUILD) TS_TOP=$(CURDIR) SANITIZE=$(SANITIZE) \
		$(PROVE) --exec '' -r tests/ $(BUILD)/tests/

demo: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)TS_BUILD=$(CURDIR)/$(BUILD) scripts/demo.sh

bench: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)TS_BUILD=$(CURDIR)/$(BUILD) scripts/bench.sh

install: all
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(CLI) $(DESTDIR)$(PREFIX)/bin/tickscope

clean:
	rm -rf build build-san

format:
	clang-format -i $(wildcard analysis/*/*.[ch] analysis/include/tickscope/*.h plugin/*.c tests/unit/*.c)

# Extra build products that tests need (the plugin, workloads, ...); folders append to it.
check-build-extra:

.PHONY: all deps check demo bench install clean format check-build-extra

-include $(wildcard */*.mk)
-include $(LIB_OBJS:.o=.d) $(CLI_OBJS:.o=.d)
