/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the reader learns of an input (host, kernel, counts, lost events): plain data, shared
 * by the reader that fills it, `tickscope info` and the reports' headers.
 */
#ifndef TICKSCOPE_INFO_H
#define TICKSCOPE_INFO_H

#include <stdint.h>

#define TS_READER_MAX_WARNINGS 8

/*
 * Why an input without perf record's command line (ts_file_info.args NULL) is analysed as it
 * is: the warnings' and the JSON's cmdline_null_reason's sentence.
 */
#define TS_NO_CMDLINE_WHY                                                                        \
	"the file does not carry perf record's command line (HEADER_CMDLINE), so the filters "   \
	"it may have been recorded with (-p, -C, --filter, --exclude-perf) cannot be known: it " \
	"is analysed as unfiltered"

enum ts_input_kind {
	TS_INPUT_FILE = 0,
	TS_INPUT_PIPE,
};

/* What `tickscope info` shows; strings are empty when the feature was not recorded. */
struct ts_file_info {
	enum ts_input_kind kind;
	int compressed; /* saw PERF_RECORD_COMPRESSED */
	char hostname[128], osrelease[128], version[64], arch[32], cpudesc[256];
	char cpuid[128]; /* HEADER_CPUID: "GenuineIntel,6,85,4", "0x00000000410fd070" */
	char *cmdline; /* joined with spaces; NULL if absent */
	/* the same words apart, each NUL-terminated, one after the other; NULL if absent */
	char *args;
	uint32_t nr_args;
	uint32_t nr_cpus_avail, nr_cpus_online;
	char kernel_build_id[41]; /* hex of the [kernel.kallsyms] build id, "" if none */
	/*
	 * perf's kernel map record ("[kernel.kallsyms]_text"): the symbol it places the kernel by
	 * and that symbol's address in the recording boot, for kallsyms of another boot (KASLR).
	 * "" when the input has none.
	 */
	char kernel_ref[32];
	uint64_t kernel_ref_addr;
	uint64_t first_time, last_time; /* over samples */
	uint64_t nr_samples, nr_records;
	uint64_t nr_unknown_records; /* record types we do not know: skipped and counted */
	uint64_t nr_out_of_order; /* samples older than the last flushed round */
	/*
	 * What time order cost: bytes of the file read a second time (runs of rounds past the
	 * memory budget), and bytes written to the spill file (pipe and zstd rounds past it).
	 * Both 0 when every round was merged in memory from one read.
	 */
	uint64_t reread_bytes, spilled_bytes;
	/*
	 * The bytes of records the largest round queued (perf's order holds two rounds open at
	 * a time), and the budget the reader had for them (ts_reader_opts.round_budget).
	 */
	uint64_t max_round_bytes, round_budget;
	int nr_lost_cpus;
	uint64_t *lost_per_cpu; /* PERF_RECORD_LOST events per cpu; index nr_lost_cpus-1 max */
	uint64_t *lost_samples_per_cpu; /* PERF_RECORD_LOST_SAMPLES per cpu */
	uint64_t lost_total, lost_samples_total;
	/*
	 * Damage the reader read past: "file: offset N: what", in the order met. Only the first
	 * TS_READER_MAX_WARNINGS are kept; nr_warnings counts them all.
	 */
	char warnings[TS_READER_MAX_WARNINGS][200];
	/*
	 * The events followed tasks, not whole CPUs (perf record without -a: ID_INDEX names a
	 * tid): what ran on a CPU besides them was not recorded
	 */
	int per_task;
	uint64_t cut_at; /* a pipe-mode stream ended inside the record at this offset; else 0 */
	/*
	 * Bytes of a record left at the end of the decompressed stream (perf record -z does not
	 * flush its zstd stream at the end; perf drops them too), else 0
	 */
	uint64_t z_tail_bytes;
	int nr_warnings;
};

#endif
