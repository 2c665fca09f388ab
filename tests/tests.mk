# SPDX-License-Identifier: GPL-2.0-only
# tests/: the libFuzzer target for the reader and decoder, built with clang into $(BUILD)/fuzz/
# (the library is rebuilt there with coverage and ASan/UBSan). `make fuzz` runs it for
# FUZZ_TIME seconds over the small fixtures; tests/fuzz.t runs it in `make check`.

FUZZ_CC ?= clang
FUZZ_TIME ?= 60
FUZZ_BUILD := $(BUILD)/fuzz
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
# The project flags minus gcc-only sanitizer flags and -Werror (clang warns differently).
FUZZ_CFLAGS := $(filter-out -Werror $(SANFLAGS) $(LTO) -ffat-lto-objects,$(ALL_CFLAGS)) $(FUZZ_SAN) -O1
FUZZ_LIB_OBJS := $(LIB_SRCS:%.c=$(FUZZ_BUILD)/%.o)
FUZZ_BIN := $(FUZZ_BUILD)/fuzz_reader
FUZZ_SEEDS := x86-tiny x86-tiny-pipe x86-tiny-zstd

$(FUZZ_BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(if $(Q),@echo "  FUZZCC  $<")
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_BIN): tests/fuzz/fuzz_reader.c $(FUZZ_LIB_OBJS)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  FUZZLD  $@")
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_LIB_OBJS) $(LIBS)

fuzz-build: $(FUZZ_BIN)

# A long run by hand: new inputs go to .cache/fuzz-corpus, crashes to .cache/fuzz-artifacts.
fuzz: $(FUZZ_BIN)
	$(Q)mkdir -p .cache/fuzz-corpus .cache/fuzz-artifacts
	$(Q)for s in $(FUZZ_SEEDS); do \
		[ -f .cache/fuzz-corpus/$$s ] || xz -dc tests/fixtures/$$s.data.xz >.cache/fuzz-corpus/$$s; \
	done
	LSAN_OPTIONS=suppressions=tests/lsan.supp $(FUZZ_BIN) -max_total_time=$(FUZZ_TIME) -max_len=65536 -timeout=10 \
		-artifact_prefix=.cache/fuzz-artifacts/ .cache/fuzz-corpus

check-build-extra: fuzz-build

.PHONY: fuzz fuzz-build
-include $(FUZZ_LIB_OBJS:.o=.d)

# Oracle helpers: small programs over the library that shell tests compare with perf.
ORACLE_SRCS := $(wildcard tests/oracle/*.c)
ORACLE_BINS := $(ORACLE_SRCS:tests/oracle/%.c=$(BUILD)/tests/oracle/%)

$(BUILD)/tests/oracle/%: tests/oracle/%.c $(LIB)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC      $@")
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB) $(LIBS) $(ALL_LDFLAGS)

all: $(ORACLE_BINS)
check-build-extra: $(ORACLE_BINS)
-include $(ORACLE_BINS:=.d)

# Planted bugs (tests/mutations.txt), one at a time in a scratch copy: not part of check.
mutation:
	$(Q)tests/mutation.sh

.PHONY: mutation
