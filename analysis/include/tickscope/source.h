/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The CLI's source: a perf.data reader plus the decoder, kallsyms chosen as perf chooses them,
 * and thread names; it turns every record into struct ts_event for the models.
 */
#ifndef TICKSCOPE_SOURCE_H
#define TICKSCOPE_SOURCE_H

#include <stddef.h>

#include "tickscope/decode.h"
#include "tickscope/event.h"
#include "tickscope/ksyms.h"
#include "tickscope/reader.h"

struct ts_source;

struct ts_source_opts {
	const char *input; /* path or "-" */
	const char *kallsyms; /* NULL: the running kernel's, if the build ids match */
	const char *ksyms_cache; /* folder of parsed kallsyms (ts_ksyms_load_cached()), or NULL */
	const char *formats_cache; /* folder of probe markers (ts_decoder_new_cached()), or NULL */
	int unordered; /* file order instead of time order */
	int strict; /* a pipe-mode stream cut inside a record is an error, not a warning */
	int need_decoder; /* fail without tracing data (every command but info) */
	unsigned int symbols; /* TS_SYMS_*: what kallsyms is loaded for */
	/*
	 * The reader scans on a thread of its own and kallsyms loads on another when a CPU is
	 * to spare (ts_source_spare_cpu()); ts_source_run() decodes and calls back on a worker
	 * thread only when TS_THREADS=1 asks for it (ts_source_decode_worker()), and so does
	 * ts_source_worker_start() (the plugin)
	 */
	int threaded;
	/*
	 * The caller runs one thread of its own a core (compare's parallel workers): no CPU is
	 * to spare for the scanner and kallsyms threads, whatever the load (TS_THREADS=1 or
	 * spare still takes them)
	 */
	int cpus_taken;
	/*
	 * The reader scans on a thread of its own whatever the load (report's): that thread
	 * costs 2-12% more CPU, and it runs whenever the process gets a second share of the
	 * CPUs (ts_source_scan_thread(), docs/scale.md); cpus_taken still keeps it off
	 */
	int scan_thread;
	int keep_arena; /* the reader's memory is kept for the thread's next (ts_reader_opts) */
	int keep_going; /* the worker counts samples that do not decode (ts_source_nr_bad()) */
	/*
	 * The callback prints the raw payload (dump): events carry their name and kind, not
	 * their fields. A payload the fields would not fit is still decoded, for its error.
	 */
	int names_only;
	/*
	 * The payloads are printed on another thread (dump's): a second decoder of the same
	 * tracing data, ts_source_printer(), takes the printed trace's kallsyms and is left to
	 * that thread; the source's own decoder never prints.
	 */
	int own_printer;
	/*
	 * Deliver the samples of an attr that records the same tracepoint as an earlier one
	 * (ts_attr.same_as: `-e sched:sched_switch -e sched:sched_switch`), as perf script
	 * prints them (dump). Otherwise they are the same hits again and are left out, so that
	 * the models count each hit once; ts_source_attr_left_out() says so.
	 */
	int every_attr;
	/* The file's bytes as the reader reads them (ts_reader_opts.sha256), or NULL */
	struct ts_sha256 *sha256;
};

#define TS_SYMS_PRINT 1u /* function names in the printed trace (dump's text) */
#define TS_SYMS_TABLE 2u /* ts_source_ksyms(), for reports */

/* Where function names come from, for the report's metadata. */
enum ts_kallsyms_from {
	TS_KALLSYMS_NONE = 0, /* raw addresses */
	TS_KALLSYMS_FILE, /* --kallsyms */
	TS_KALLSYMS_RUNNING, /* /proc/kallsyms, build id matched */
	TS_KALLSYMS_CACHE, /* perf's build-id cache (~/.debug), for reports */
};

/**
 * ts_source_spare_cpu() - would a second thread find a CPU to run on?
 * @env: TS_THREADS from the environment, or NULL: "0" never, "1" and "spare" always, else as
 *	measured ("spare" takes the threads the default takes on a calm machine, for tests)
 * @loadavg: /proc/loadavg's text, whose fourth field counts the runnable tasks (this one
 *	among them) over the whole machine, or NULL when it cannot be read
 * @ncpu: the CPUs this process may run on
 *
 * On a machine whose CPUs all have work, threads that hand data to each other cost more CPU
 * (each message crosses caches) and wall time (each hand-off waits for a CPU) than they save:
 * a source then reads, merges and decodes on the caller's thread (docs/scale.md).
 * Return: 1 when fewer tasks are runnable than there are CPUs (or @loadavg is unknown), or
 * when @env says "1" or "spare"; else 0.
 */
int ts_source_spare_cpu(const char *env, const char *loadavg, int ncpu);

/**
 * ts_source_scan_thread() - does a source that asks for it (opts.scan_thread) scan on a thread?
 * @env: TS_THREADS from the environment, or NULL
 *
 * Whatever the load, unless @env is "0". Measured on the 7.9 M-sample bench trace
 * (docs/scale.md), the scanning thread takes 1.02-1.12 times the CPU of one thread: on a busy
 * machine it waits for its turn like any thread, and where the process can get a second share
 * of the CPUs (a core free for a moment, or other work of the same session, which shares its
 * scheduling group) it reads the file beside the merge.
 * Return: 1 or 0.
 */
int ts_source_scan_thread(const char *env);

/**
 * ts_source_decode_worker() - does ts_source_run() decode on a worker thread?
 * @env: TS_THREADS from the environment, or NULL
 *
 * Only when @env is "1". Measured on the bench trace (docs/scale.md), the worker fed through
 * the ring buys no wall time, on a calm machine or a busy one, and costs CPU: about 1.9 times
 * the CPU time on a calm machine, 1.2 to 1.6 times on a busy one, and 4 MB of ring.
 * Return: 1 or 0.
 */
int ts_source_decode_worker(const char *env);

/*
 * Called for every event in order. @s is the sample behind a tracepoint event, NULL for
 * side-band events (TS_EV_COMM, TS_EV_LOST). Return 0 to go on.
 */
typedef int (*ts_source_fn)(void *ctx, const struct ts_event *ev, const struct ts_sample *s);

/**
 * ts_source_open() - open the input, parse its headers and tracing data, load kallsyms
 * Return: 0 or a negative code, with ts_source_error() naming the file and offset or symbol.
 * *@sp is set even on failure so that the message can be read; close it either way.
 */
int ts_source_open(struct ts_source **sp, const struct ts_source_opts *opts);

/**
 * ts_source_run() - deliver every event to @fn
 *
 * With opts.threaded, the tracepoint samples are decoded and @fn is called on a worker thread,
 * in the same order, while this thread reads on; @fn then gets a NULL sample and must not use
 * the source but for the decoder it is given.
 * Return: 0 or the first error.
 */
int ts_source_run(struct ts_source *s, ts_source_fn fn, void *ctx);

/**
 * ts_source_check_twins() - for a front end that is handed the samples by another reader (the
 * plugin): refuse, as ts_source_run() does after its read, an input whose analysed attr of a
 * tracepoint recorded twice has fewer samples than the later one (-e X --filter F -e X: the
 * analyses would count the filter's subset, TS_ETWINSUBSET). Only an input with such a twin
 * (ts_attr.same_as) is read, by a reader of its own that counts each attr's samples.
 * @differ: set to 1 when such a later attr has other hits than the analysed one (fewer: a
 *	--filter on it), else 0
 * Return: 0, or a negative code with ts_source_error() saying why in one line.
 */
int ts_source_check_twins(struct ts_source *s, int *differ);

/**
 * ts_source_check_filters() - for a front end handed the samples by another reader (the
 * plugin): work out, from the command line perf saved in the file's header, which attrs were
 * recorded through a filter (perf record -e X --filter F, or --exclude-perf), as ts_source_run()
 * does; they are then left out of the recorded tracepoints (ts_source_note_recorded()).
 * Return: 0 or -ENOMEM.
 */
int ts_source_check_filters(struct ts_source *s);

/**
 * ts_source_filters_unknown() - why the filters of the recording cannot be known, or NULL
 *
 * Only perf record's command line (HEADER_CMDLINE) tells that the hits of a tracepoint are a
 * subset (--filter, --exclude-perf: ts_source_check_filters(); -p, -C: fewer tasks or CPUs).
 * perf record's files always carry it; one without it (another recorder's, a synthetic file,
 * a damaged section) is analysed as unfiltered. Return: a sentence for a warning about the
 * file when it lacks the line and has samples of tracepoints to analyse, else NULL (also with
 * opts.every_attr, which prints every attr as it is).
 */
const char *ts_source_filters_unknown(struct ts_source *s);

/* Was the file's attr @a recorded through a filter (ts_source_check_filters())? */
int ts_source_attr_filtered(const struct ts_source *s, const struct ts_attr *a);

/*
 * The worker, for sources other than ts_source_run() (the plugin): start it, hand it samples
 * and side-band events from one thread, and finish it to join it. A push fails with
 * -ECANCELED once the worker has stopped on an error, which finish returns and
 * ts_source_error() names (with the failing sample's @off). Without opts.threaded (no CPU to
 * spare), or when start fails with -EAGAIN (no thread to be had), the pushes decode and call
 * back inline instead, the same way.
 */
int ts_source_worker_start(struct ts_source *s, ts_source_fn fn, void *ctx);
int ts_source_worker_sample(struct ts_source *s, int tp_id, uint64_t time, int32_t cpu, int32_t tid,
			    const void *raw, uint32_t raw_size, const uint64_t *ips,
			    uint64_t nr_ips, uint64_t off);
int ts_source_worker_event(struct ts_source *s, const struct ts_event *ev);
int ts_source_worker_finish(struct ts_source *s);

/**
 * ts_source_nr_bad() - with opts.keep_going, how many samples the worker could not decode
 * @first: set to the first one's message ("" when none)
 */
uint64_t ts_source_nr_bad(const struct ts_source *s, const char **first);

/** ts_source_close() - free everything (NULL is fine) */
void ts_source_close(struct ts_source *s);

const char *ts_source_error(const struct ts_source *s);
/*
 * Whether the samples of @a are decoded: tracepoints recorded with their raw payload. The
 * samples of any other attr are counted by the reader (ts_attr.nr_samples) and said to be
 * not decoded, never dropped silently.
 */
int ts_source_attr_decoded(const struct ts_attr *a);
/*
 * Why the events of a tracepoint attr are not in the source's events although the attr is in
 * the file (a sentence for a warning), or NULL: an attr that is never sampled (ts_attr's
 * not_sampled), or one whose samples repeat an earlier attr's (same_as, without every_attr).
 */
const char *ts_source_attr_left_out(const struct ts_source *s, const struct ts_attr *a, char *buf,
				    size_t len);
/* The input as messages name it: its path, or "<stdin>" for "-". */
const char *ts_source_name(const struct ts_source *s);
struct ts_reader *ts_source_reader(struct ts_source *s);

/**
 * ts_source_kallsyms_warning() - "FILE: why" when the kallsyms in use does not fit the
 * recording (another architecture's or kernel's, ts_ksyms_check()), else NULL. Call after
 * ts_source_run(); it also moves the reports' table to the recording boot.
 */
const char *ts_source_kallsyms_warning(struct ts_source *s);
struct ts_decoder *ts_source_decoder(struct ts_source *s);

/**
 * ts_source_printer() - the decoder that prints payloads: with opts.own_printer one of its
 * own, which the source touches only before the first sample's callback returns (it takes
 * the kallsyms there when the kernel's map comes late), else ts_source_decoder(). The
 * running kernel's kallsyms an own printer loads itself, in the thread that prints, on the
 * first payload that may name a function (ts_decoder_defer_ksyms()).
 */
struct ts_decoder *ts_source_printer(struct ts_source *s);

/**
 * ts_source_printer_error() - why the own printer's kallsyms could not be loaded, once
 * ts_decoder_print() failed with it; NULL when it did not fail there. Call after the
 * printing thread is joined.
 */
const char *ts_source_printer_error(const struct ts_source *s);
const struct ts_ksyms *ts_source_ksyms(const struct ts_source *s);
enum ts_kallsyms_from ts_source_kallsyms_from(const struct ts_source *s);

/** ts_source_comm() - the current name of @tid, as perf script shows it */
const char *ts_source_comm(struct ts_source *s, uint32_t tid);

struct ts_analysis;
struct ts_report_opts;

/**
 * ts_source_note_recorded() - tell @a which tracepoints the input recorded (its attrs), so
 * that sections tell "not recorded" from "recorded, none happened"
 */
void ts_source_note_recorded(struct ts_source *s, struct ts_analysis *a);

/**
 * ts_source_recorded() - the tracepoints the input recorded (its sampled attrs), comma-
 * separated in the attrs' order, each once, into @buf of @len bytes (those that do not fit
 * are left out). Return: @buf ("" for none).
 */
char *ts_source_recorded(struct ts_source *s, char *buf, size_t len);

struct ts_run;

/**
 * ts_source_run_facts() - set @r's facts of the input: the perf.data header's (arch, CPUs,
 * CPU, release, as perf report --header-only prints them) and the tracepoints it recorded
 * (ts_source_recorded()). Return: 0 or -ENOMEM
 */
int ts_source_run_facts(struct ts_source *s, struct ts_run *r);

/**
 * ts_source_report_opts() - fill the input's part of @o: path, file info, and symbolization
 * through the loaded kallsyms (raw addresses without one)
 */
void ts_source_report_opts(struct ts_source *s, struct ts_report_opts *o);

/**
 * ts_source_event() - decode one tracepoint sample into @ev, with the callchain's kernel part
 * @ev: in: time, cpu and pid set; out: the rest
 * Return: 0 or a negative code (ts_source_error() says which event and field).
 */
int ts_source_event(struct ts_source *s, int tp_id, const void *raw, uint32_t raw_size,
		    const uint64_t *ips, uint64_t nr_ips, struct ts_event *ev);

/**
 * ts_running_build_id() - the running kernel's build id in hex, from /sys/kernel/notes
 * Return: 0, or a negative code when it cannot be read.
 */
int ts_running_build_id(char *hex, size_t len);

#endif
