/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One table of tickscope error codes: it generates both the enum and ts_strerror().
 * Functions below main() return 0 or a negative TS_E* (or -errno) and never print.
 */
#ifndef TICKSCOPE_ERROR_H
#define TICKSCOPE_ERROR_H

#define TS_ERRORS(X)                                                                 \
	X(TS_ETRUNC, "file is truncated")                                            \
	X(TS_EMAGIC, "not a perf.data file (bad magic)")                             \
	X(TS_EBIGENDIAN, "big-endian perf.data is not supported")                    \
	X(TS_ECORRUPT, "corrupt record or header")                                   \
	X(TS_ERECSIZE, "record size is zero or smaller than its header")             \
	X(TS_ENOATTR, "sample id matches no event attr")                             \
	X(TS_ESAMPLETYPE, "unsupported sample_type bit")                             \
	X(TS_ETRACEDATA, "bad tracing data section")                                 \
	X(TS_ENOTRACEDATA, "file has no tracing data (no tracepoint formats)")       \
	X(TS_ENOFORMAT, "no format for this tracepoint")                             \
	X(TS_ENOFIELD, "required field missing from the event format")               \
	X(TS_EZSTD, "zstd decompression failed")                                     \
	X(TS_EUSAGE, "invalid arguments")                                            \
	X(TS_EKALLSYMS, "bad kallsyms file")                                         \
	X(TS_EBENCH, "unrecognised or malformed benchmark output")                   \
	X(TS_EBENCHCUT, "benchmark output cut short inside a figure")                \
	X(TS_EBENCHNONE, "the benchmark measured nothing (a zero time or count)")    \
	X(TS_EBENCHTWICE, "two benchmark results in one output (one run a file)")    \
	X(TS_EBENCHFAIL, "the benchmark says its run failed (not a measurement)")    \
	X(TS_EOUTLINK, "an output file is a symbolic link (not followed)")           \
	X(TS_ESUMMARY, "malformed tickscope summary")                                \
	X(TS_ESUMMARYCUT, "tickscope summary cut short (no end line)")               \
	X(TS_ESTDOUT, "stdout is closed (>&-): send it to a file or /dev/null")      \
	X(TS_EOUTINPUT, "an output file is this command's input (not replaced)")     \
	X(TS_ETWINSUBSET, "a tracepoint recorded twice, the analysed attr a subset") \
	X(TS_ERESULT, "not a benchmark result (a plain decimal >= 0)")               \
	X(TS_ERESULTUNIT, "not a result unit (us_per_round_trip or bogo_ops_*)")     \
	X(TS_ERESULTDIFF, "not the result the benchmark's output gives")             \
	X(TS_EOUTOTHER, "an output's name is another table or file (not replaced)")  \
	X(TS_EOUTKIND, "an output's name is a folder, FIFO, socket or device")

enum ts_error {
	TS_EBASE = 4096, /* above every errno value */
#define TS_ENUM_ENTRY(name, text) name,
	TS_ERRORS(TS_ENUM_ENTRY)
#undef TS_ENUM_ENTRY
		TS_EMAX
};

/**
 * ts_strerror() - describe an error code
 * @err: a negative TS_E* or -errno value (the sign is ignored)
 *
 * Return: a static string; never NULL.
 */
const char *ts_strerror(int err);

#endif
