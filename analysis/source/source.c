// SPDX-License-Identifier: GPL-2.0-only
/*
 * The CLI's event source: reader + decoder + thread names + kallsyms. Tracepoint samples become
 * typed events; COMM and LOST records become side-band events. The worker thread that decodes
 * them in ts_source_run() and for the plugin is worker.c; the decoding itself is
 * source_decode.c, the kallsyms source_ksyms.c, both below this file and the worker.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "source_priv.h"
#include "tickscope/analysis.h"
#include "tickscope/compare.h"
#include "tickscope/error.h"
#include "tickscope/report.h"

int ts_source_spare_cpu(const char *env, const char *loadavg, int ncpu)
{
	unsigned long running;

	if (env && (!strcmp(env, "0") || !strcmp(env, "1") || !strcmp(env, "spare")))
		return env[0] != '0';
	/* "0.52 0.58 0.59 2/211 4012": the fourth field's first number */
	if (!loadavg || sscanf(loadavg, "%*s %*s %*s %lu/", &running) != 1)
		return 1;
	return ncpu > 0 && running < (unsigned long)ncpu;
}

int ts_source_scan_thread(const char *env)
{
	return !(env && !strcmp(env, "0"));
}

int ts_source_decode_worker(const char *env)
{
	return env && !strcmp(env, "1");
}

/*
 * ts_source_spare_cpu() of this process, now; @taken: the caller's own threads have the CPUs
 * (compare's workers, one a core), so that none is to spare whatever the load: TS_THREADS alone
 * may still ask for the threads
 */
static int spare_cpu(int taken)
{
	char buf[128] = "";
	cpu_set_t set;
	ssize_t n = -1;
	int fd, ncpu;

	if (taken)
		return ts_source_spare_cpu(getenv("TS_THREADS"), "0 0 0 0/0 0\n", 0);
	fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
	}
	if (n > 0)
		buf[n] = 0;
	ncpu = sched_getaffinity(0, sizeof(set), &set) ? 0 : CPU_COUNT(&set);
	return ts_source_spare_cpu(getenv("TS_THREADS"), n > 0 ? buf : NULL, ncpu);
}

int ts_source_open(struct ts_source **sp, const struct ts_source_opts *opts)
{
	struct ts_source *s;
	const void *td;
	size_t td_len;
	char err[300];
	int ret, spare = spare_cpu(opts->cpus_taken), scan;

	*sp = s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->opts = *opts;
	/* the scanner and the kallsyms thread when a CPU is to spare; the decode worker if asked */
	s->opts.threaded = opts->threaded && ts_source_decode_worker(getenv("TS_THREADS"));
	s->spare_ok = opts->threaded && spare;
	/* report's scanner whatever the load: it costs little CPU (ts_source_scan_thread()) */
	scan = spare || (opts->scan_thread && !opts->cpus_taken &&
			 ts_source_scan_thread(getenv("TS_THREADS")));
	ts_comms_init(&s->comms);
	ret = ts_reader_open(&s->reader, opts->input,
			     &(struct ts_reader_opts){ .unordered = opts->unordered,
						       .strict = opts->strict,
						       .threaded = scan,
						       .read_runs = 1,
						       .sha256 = opts->sha256,
						       .keep_arena = opts->keep_arena });
	/* the scan begins while the decoder and kallsyms load (docs/scale.md, rep22) */
	if (!ret)
		ret = ts_reader_start(s->reader);
	if (ret)
		return ts_source_fail(s, ret, "%s",
				      s->reader ? ts_reader_error(s->reader) : ts_strerror(ret));
	td = ts_reader_tracing_data(s->reader, &td_len);
	if (td_len) {
		ret = ts_decoder_new_cached(&s->dec, td, td_len, opts->formats_cache, err,
					    sizeof(err));
		if (!ret && opts->own_printer)
			ret = ts_decoder_new_like(&s->pdec, s->dec, td, td_len, err, sizeof(err));
		if (ret)
			return ts_source_fail(s, ret, "%s: %s", ts_source_name(s), err);
	} else if (opts->need_decoder) {
		if (ts_reader_cut_error(s->reader, "before its tracing data", s->err,
					sizeof(s->err)))
			return -TS_ENOTRACEDATA;
		return ts_source_fail(
			s, -TS_ENOTRACEDATA, "%s: offset %#llx: %s%s", ts_source_name(s),
			(unsigned long long)ts_reader_offset(s->reader),
			ts_strerror(-TS_ENOTRACEDATA),
			ts_reader_info(s->reader)->kind == TS_INPUT_PIPE ?
				": the stream has no HEADER_TRACING_DATA before its first event" :
				": the header's feature bits list no tracing data");
	}
	return ts_source_load_kallsyms(s);
}

/*
 * A tracepoint sampled 1 hit in N (perf record -c N --no-period, N > 1): the analyses need
 * every hit (a switch-in without its switch-out), so its samples are left out and it is not
 * recorded. With PERF_SAMPLE_PERIOD (perf's default) the kernel samples every hit of a
 * tracepoint whatever N (perf_swevent_event()), each sample's period 1. Not at a frequency
 * (perf record -F N): the kernel then moves N to hold the rate, and each sample stands for
 * its period's hits (a run of ping-pong at -F 100: 348 samples for 25,854 switches).
 */
static int subsampled(const struct ts_attr *a)
{
	return a->type == PERF_TYPE_TRACEPOINT &&
	       ((a->hits >> 63) || (a->hits > 1 && !(a->sample_type & PERF_SAMPLE_PERIOD)));
}

int ts_source_attr_decoded(const struct ts_attr *a)
{
	return a->type == PERF_TYPE_TRACEPOINT && (a->sample_type & PERF_SAMPLE_RAW);
}

const char *ts_source_filters_unknown(struct ts_source *s)
{
	const struct ts_attr *a;
	int nr, i;

	if (!s || !s->reader || ts_reader_info(s->reader)->args || s->opts.every_attr)
		return NULL;
	a = ts_reader_attrs(s->reader, &nr);
	for (i = 0; i < nr; i++)
		if (a[i].nr_samples && ts_source_attr_decoded(&a[i]))
			return TS_NO_CMDLINE_WHY;
	return NULL;
}

const char *ts_source_attr_left_out(const struct ts_source *s, const struct ts_attr *a, char *buf,
				    size_t len)
{
	if (a->type != PERF_TYPE_TRACEPOINT)
		return NULL;
	if (a->not_sampled && !a->nr_samples) {
		snprintf(buf, len,
			 "is not sampled, only counted in its group leader's samples (leader "
			 "sampling, {...}:S): its hits are not events (perf script prints each "
			 "count with the leader's payload); it is taken as not recorded");
		return buf;
	}
	if (subsampled(a) && (a->hits >> 63) && !s->opts.every_attr) {
		unsigned long long hz = a->hits & ~(1ULL << 63);

		snprintf(buf, len,
			 "is sampled at %llu Hz (perf record -F %llu): 1 hit in N, N moved to hold "
			 "the rate; the analyses need every hit, so its %llu samples are left out "
			 "and it is taken as not recorded (record it with -c 1, or without -F)",
			 hz, hz, (unsigned long long)a->nr_samples);
		return buf;
	}
	if (subsampled(a) && !s->opts.every_attr) {
		snprintf(buf, len,
			 "is sampled 1 hit in %llu (perf record -c %llu --no-period): the analyses "
			 "need every hit, so its %llu samples are left out and it is taken as not "
			 "recorded (record it with -c 1, or without --no-period)",
			 (unsigned long long)a->hits, (unsigned long long)a->hits,
			 (unsigned long long)a->nr_samples);
		return buf;
	}
	if (a->exclude_kernel && !a->nr_samples) {
		snprintf(buf, len,
			 "was recorded with exclude_kernel (the :u modifier) and has no samples: a "
			 "kernel tracepoint fires in the kernel, which it excludes, so it never "
			 "fires; it is taken as not recorded");
		return buf;
	}
	if (a->same_as && a->nr_samples && !s->opts.every_attr) {
		int nr;
		const struct ts_attr *twin = ts_reader_attrs(s->reader, &nr) + (a->same_as - 1);

		/* a --filter on one of them is in no record: the counts say it */
		if (twin->nr_samples + twin->nr_lost_samples != a->nr_samples + a->nr_lost_samples)
			snprintf(buf, len,
				 "repeats attr %d's tracepoint, not its hits (%llu samples to its "
				 "%llu: a --filter, or lost events?): only attr %d's are analysed",
				 a->same_as - 1, (unsigned long long)a->nr_samples,
				 (unsigned long long)twin->nr_samples, a->same_as - 1);
		else
			snprintf(buf, len,
				 "records the same tracepoint as attr %d: its %llu samples are the "
				 "same hits again (the analyses count each hit once)",
				 a->same_as - 1, (unsigned long long)a->nr_samples);
		return buf;
	}
	if (ts_source_attr_filtered(s, a) && !s->opts.every_attr) {
		snprintf(buf, len,
			 "was recorded through a filter (perf record --filter or --exclude-perf "
			 "after its -e): the kernel wrote only the hits that pass, and the "
			 "analyses need every hit, so its %llu samples are left out and it is "
			 "taken as not recorded (record it without a filter)",
			 (unsigned long long)a->nr_samples);
		return buf;
	}
	return NULL;
}

/* What the samples of attr @a become (SRC_ROUTE_*), noted at its first; Return: it, or -ENOMEM. */
static int __attribute__((noinline)) route_of(struct ts_source *s, const struct ts_attr *a)
{
	unsigned int idx = (unsigned int)a->index;
	int route = SRC_ROUTE_RAW;

	if (idx >= s->nr_routes) {
		unsigned int nr = idx + 8;
		uint8_t *v = realloc(s->routes, nr);

		if (!v)
			return -ENOMEM;
		memset(v + s->nr_routes, SRC_ROUTE_UNSET, nr - s->nr_routes);
		s->routes = v;
		s->nr_routes = nr;
	}
	if (!s->opts.every_attr && ts_source_find_filters(s))
		return -ENOMEM;
	/* ts_source_attr_decoded(), and cli_warnings() counts those that were not */
	if (a->type != PERF_TYPE_TRACEPOINT || !(a->sample_type & PERF_SAMPLE_RAW) || !s->dec)
		route = SRC_ROUTE_DROP;
	else if ((a->same_as || subsampled(a) || ts_source_attr_filtered(s, a)) &&
		 !s->opts.every_attr) /* attr_left_out() */
		route = SRC_ROUTE_DROP;
	if (route == SRC_ROUTE_RAW && ts_source_keeps_stack(s->kinds, a->config))
		route = SRC_ROUTE_IPS;
	s->routes[idx] = (uint8_t)route;
	return route;
}

/*
 * TS_SRC_WORKER's hand-off, kept out of on_sample(): inlined there, the ring's push made
 * on_sample() save six registers for every sample, which the default (TS_SRC_INLINE, one
 * thread) then paid before its tail call to the decoding (16 instructions a sample).
 */
static int __attribute__((noinline))
push_sample(struct ts_source *s, const struct ts_sample *smp, int route)
{
	uint64_t nr_ips = 0;

	if (route == SRC_ROUTE_IPS)
		nr_ips = smp->nr_ips < MAX_IPS ? smp->nr_ips : MAX_IPS;
	return ts_source_push_sample(s, smp, nr_ips, ts_reader_last_offset(s->reader));
}

static int on_sample(void *ctx, const struct ts_sample *smp)
{
	struct ts_source *s = ctx;
	unsigned int idx = (unsigned int)smp->attr->index;
	int route = idx < s->nr_routes ? s->routes[idx] : SRC_ROUTE_UNSET;

	if (__builtin_expect(route == SRC_ROUTE_UNSET, 0)) {
		route = route_of(s, smp->attr);
		if (route < 0)
			return route;
	}
	if (route == SRC_ROUTE_DROP)
		return 0;
	if (s->mode == TS_SRC_INLINE)
		return ts_source_inline_sample(s, smp);
	return push_sample(s, smp, route);
}

static int on_comm(void *ctx, uint32_t pid, uint32_t tid, const char *comm, uint64_t time, int exec)
{
	struct ts_source *s = ctx;
	struct ts_event ev = { .time = time, .pid = tid, .cpu = -1, .kind = TS_EV_COMM };
	int ret;

	ret = ts_comms_set(&s->comms, tid, comm);
	if (ret)
		return ret;
	snprintf(ev.comm.comm, sizeof(ev.comm.comm), "%s", comm);
	ev.comm.tid = tid;
	ev.comm.exec = exec;
	ev.comm.kthread = ts_comms_kthread(&s->comms, tid);
	return ts_source_feed_event(s, &ev);
}

static int on_fork(void *ctx, uint32_t pid, uint32_t ppid, uint32_t tid, uint32_t ptid,
		   uint64_t time)
{
	struct ts_source *s = ctx;
	struct ts_event ev = { .time = time, .pid = (int32_t)ptid, .cpu = -1, .kind = TS_EV_FORK };
	int ret = ts_comms_fork(&s->comms, pid, ppid, tid, ptid);

	if (ret)
		return ret;
	ev.fork.parent = (int32_t)ptid;
	ev.fork.child = (int32_t)tid;
	return ts_source_feed_event(s, &ev);
}

static int on_lost(void *ctx, uint32_t cpu, uint64_t id, uint64_t lost, uint64_t time, int samples)
{
	struct ts_source *s = ctx;
	struct ts_event ev = { .time = time, .cpu = cpu, .kind = TS_EV_LOST };

	ev.lost.lost = lost;
	ev.lost.id = id;
	ev.lost.samples = !!samples;
	return ts_source_feed_event(s, &ev);
}

/*
 * -e X --filter F -e X: the same tracepoint twice, the first filtered. Only the first attr is
 * analysed (a repeat's samples are left out, attr_left_out()), so the figures would be those of
 * the filter's subset, with nothing in them saying so: refused. A filter on the later attr
 * (-e X -e X --filter F) leaves the analysed one every hit: only said (attr_left_out()).
 */
static int twin_subset(struct ts_source *s, const struct ts_reader *counted)
{
	int i, nr;
	const struct ts_attr *a = ts_reader_attrs(counted, &nr);

	/* info (no decoder needed) counts samples, whatever they are, as perf report --stats */
	for (i = 0; i < nr && s->opts.need_decoder && !s->opts.every_attr; i++) {
		const struct ts_attr *t = a[i].same_as ? &a[a[i].same_as - 1] : NULL;

		if (!t ||
		    a[i].nr_samples + a[i].nr_lost_samples <= t->nr_samples + t->nr_lost_samples)
			continue;
		return ts_source_fail(
			s, -TS_ETWINSUBSET,
			"%s: attr %d (%s) has %llu samples and attr %d, the same tracepoint, %llu (a "
			"--filter on attr %d, or lost events?): the analyses take attr %d's, which "
			"would count a subset of the hits; record the tracepoint once",
			ts_source_name(s), a[i].same_as - 1,
			ts_decoder_event_name(s->dec, (int)t->config) ?: "?",
			(unsigned long long)t->nr_samples, i, (unsigned long long)a[i].nr_samples,
			a[i].same_as - 1, a[i].same_as - 1);
	}
	return 0;
}

/* Has an attr that repeats an earlier one's tracepoint other hits than it (by the counts)? */
static int twins_differ(const struct ts_reader *counted)
{
	int i, nr;
	const struct ts_attr *a = ts_reader_attrs(counted, &nr);

	for (i = 0; i < nr; i++) {
		const struct ts_attr *t = a[i].same_as ? &a[a[i].same_as - 1] : NULL;

		if (t &&
		    a[i].nr_samples + a[i].nr_lost_samples != t->nr_samples + t->nr_lost_samples)
			return 1;
	}
	return 0;
}

int ts_source_check_twins(struct ts_source *s, int *differ)
{
	static const struct ts_reader_ops count_only; /* the reader counts each attr's samples */
	struct ts_reader *r = NULL;
	int i, nr, ret;
	const struct ts_attr *a = ts_reader_attrs(s->reader, &nr);

	*differ = 0;
	for (i = 0; i < nr && !a[i].same_as; i++)
		;
	/* a pipe cannot be read again: the plugin reads its formats from input=FILE instead */
	if (i == nr || !s->opts.need_decoder || s->opts.every_attr || !strcmp(s->opts.input, "-"))
		return 0;
	ret = ts_reader_open(&r, s->opts.input, NULL);
	ret = ret ?: ts_reader_run(r, &count_only, NULL);
	if (ret)
		ts_source_fail(s, ret, "%s", r ? ts_reader_error(r) : ts_strerror(ret));
	else
		ret = twin_subset(s, r);
	if (!ret)
		*differ = twins_differ(r);
	ts_reader_close(r);
	return ret;
}

int ts_source_run(struct ts_source *s, ts_source_fn fn, void *ctx)
{
	static const struct ts_reader_ops ops = {
		.sample = on_sample,
		.comm = on_comm,
		.fork = on_fork,
		.lost = on_lost,
	};
	int ret, wret, worker = s->opts.threaded && s->dec;

	s->err[0] = 0;
	ret = ts_source_start(s, worker ? TS_SRC_WORKER : TS_SRC_INLINE, 0, fn, ctx);
	if (ret)
		return ret;
	worker = s->mode == TS_SRC_WORKER;
	if (s->nr_routes) /* worked out again: they depend on the mode's kinds */
		memset(s->routes, SRC_ROUTE_UNSET, s->nr_routes);
	ret = ts_reader_run(s->reader, &ops, s);
	/* the worker's error comes first: it is at an earlier record than the reader */
	wret = ts_source_worker_finish(s);
	if (wret)
		return wret;
	if (worker && ret == -ECANCELED) /* cannot happen: the worker stopped with no error */
		return ts_source_fail(s, -EIO, "the worker thread stopped");
	if (ret && !s->err[0]) {
		ts_source_fail(s, ret, "%s", ts_reader_error(s->reader));
	} else if (ret) {
		/* a decode error: the reader knows the record's offset, we know what failed */
		char what[sizeof(s->err)];

		memcpy(what, s->err, sizeof(what));
		ts_source_fail(s, ret, "%s: offset %#llx: %s", ts_source_name(s),
			       (unsigned long long)ts_reader_last_offset(s->reader), what);
	}
	if (!ret && !s->opts.every_attr && ts_source_find_filters(s)) /* attrs with no sample */
		ret = ts_source_fail(s, -ENOMEM, "%s", strerror(ENOMEM));
	return ret ?: twin_subset(s, s->reader);
}

void ts_source_close(struct ts_source *s)
{
	if (!s)
		return;
	ts_source_stop(s);
	ts_source_join_printer(s);
	free(s->kinds);
	free(s->routes);
	free(s->filtered);
	ts_reader_close(s->reader);
	ts_decoder_free(s->dec);
	ts_decoder_free(s->pdec);
	ts_ksyms_free(s->ksyms);
	ts_comms_release(&s->comms);
	free(s);
}

const char *ts_source_error(const struct ts_source *s)
{
	return s->err[0] ? s->err : "no error";
}

const char *ts_source_name(const struct ts_source *s)
{
	return ts_src_name(s);
}

struct ts_reader *ts_source_reader(struct ts_source *s)
{
	return s->reader;
}

struct ts_decoder *ts_source_decoder(struct ts_source *s)
{
	return s->dec;
}

struct ts_decoder *ts_source_printer(struct ts_source *s)
{
	return s->pdec ? s->pdec : s->dec;
}

const char *ts_source_printer_error(const struct ts_source *s)
{
	return s->perr_said && s->perr[0] ? s->perr : NULL;
}

const struct ts_ksyms *ts_source_ksyms(const struct ts_source *s)
{
	return s->ksyms;
}

enum ts_kallsyms_from ts_source_kallsyms_from(const struct ts_source *s)
{
	return s->kfrom;
}

/*
 * The name of attr @i when it is a tracepoint that was sampled, else NULL: not when it is a
 * member of a leader-sampled group, or excludes the kernel (:u) and has no samples (a kernel
 * tracepoint then never fires: its events are not recorded, not none).
 */
static const char *attr_tracepoint(struct ts_source *s, const struct ts_attr *attr, char *buf,
				   size_t len)
{
	const char *name = attr->name;

	if (attr->type != PERF_TYPE_TRACEPOINT ||
	    ((attr->not_sampled || attr->exclude_kernel) && !attr->nr_samples) ||
	    ((subsampled(attr) || ts_source_attr_filtered(s, attr)) && !s->opts.every_attr))
		return NULL;
	if (!name[0] && s->dec)
		name = ts_decoder_event_name(s->dec, (int)attr->config);
	if (!name || !name[0]) {
		snprintf(buf, len, "tracepoint:%llu", (unsigned long long)attr->config);
		name = buf;
	}
	return name;
}

void ts_source_note_recorded(struct ts_source *s, struct ts_analysis *a)
{
	const struct ts_attr *attrs;
	char buf[64];
	int nr, i;

	attrs = ts_reader_attrs(s->reader, &nr);
	ts_source_find_filters(s); /* without memory for it, route_of() fails the run */
	for (i = 0; i < nr; i++) {
		const char *name = attr_tracepoint(s, &attrs[i], buf, sizeof(buf));

		if (name)
			ts_analysis_note_recorded(a, name);
	}
}

char *ts_source_recorded(struct ts_source *s, char *buf, size_t len)
{
	const struct ts_attr *attrs;
	size_t at = 0;
	char one[64];
	int nr, i, j;

	attrs = ts_reader_attrs(s->reader, &nr);
	ts_source_find_filters(s);
	buf[0] = '\0';
	for (i = 0; i < nr; i++) {
		const char *name = attr_tracepoint(s, &attrs[i], one, sizeof(one));
		size_t n = name ? strlen(name) : 0;

		for (j = 0; n && j < i; j++) /* once: an attr per CPU or per task repeats it */
			if (attrs[j].type == PERF_TYPE_TRACEPOINT &&
			    attrs[j].config == attrs[i].config)
				n = 0;
		if (!n || at + n + 2 > len)
			continue;
		at += snprintf(buf + at, len - at, "%s%s", at ? "," : "", name);
	}
	return buf;
}

/*
 * The perf.data header's facts as perf report --header-only prints them (arch, nrcpus, cpudesc
 * with cpuid, os release), and the tracepoints the attrs recorded: what a summary carries for
 * compare, whether the CLI or the plugin wrote it.
 */
int ts_source_run_facts(struct ts_source *s, struct ts_run *r)
{
	const struct ts_file_info *i = ts_reader_info(s->reader);
	char cpus[48], cpu[400];
	char *list = malloc(8192);
	int err;

	if (!list)
		return -ENOMEM;
	snprintf(cpus, sizeof(cpus), "%u online of %u", i->nr_cpus_online, i->nr_cpus_avail);
	snprintf(cpu, sizeof(cpu), "%s%s%s%s", i->cpudesc, i->cpudesc[0] && i->cpuid[0] ? " (" : "",
		 i->cpuid, i->cpudesc[0] && i->cpuid[0] ? ")" : "");
	err = ts_run_set_fact(r, TS_FACT_ARCH, i->arch[0] ? i->arch : NULL);
	err = err ?: ts_run_set_fact(r, TS_FACT_NR_CPUS, i->nr_cpus_online ? cpus : NULL);
	err = err ?: ts_run_set_fact(r, TS_FACT_CPU, cpu[0] ? cpu : NULL);
	err = err ?: ts_run_set_fact(r, TS_FACT_RELEASE, i->osrelease[0] ? i->osrelease : NULL);
	err = err   ?:
		      ts_run_set_fact(r, TS_FACT_BUILD_ID,
				      i->kernel_build_id[0] ? i->kernel_build_id : NULL);
	ts_source_recorded(s, list, 8192);
	err = err ?: ts_run_set_fact(r, TS_FACT_TRACE_EVENTS, list[0] ? list : NULL);
	free(list);
	return err;
}

static const char *lookup_sym(void *ctx, uint64_t addr, uint64_t *off)
{
	return ts_ksyms_lookup(ctx, addr, off);
}

/* Move the table to where the recording boot had the kernel (KASLR), once, as perf does. */
static void relocate_table(struct ts_source *s)
{
	const struct ts_file_info *info = ts_reader_info(s->reader);

	ts_source_check_ksyms(s, s->ksyms, s->table_path);
	if (!s->ksyms || s->ksyms_moved || !info->kernel_ref[0])
		return;
	s->ksyms_moved = 1;
	ts_ksyms_relocate(s->ksyms, info->kernel_ref, info->kernel_ref_addr, &s->ksyms_shift);
}

const char *ts_source_kallsyms_warning(struct ts_source *s)
{
	ts_source_join_printer(s);
	relocate_table(s);
	return s->kwarn[0] ? s->kwarn : NULL;
}

void ts_source_report_opts(struct ts_source *s, struct ts_report_opts *o)
{
	relocate_table(s);
	o->input = s->opts.input;
	o->info = ts_reader_info(s->reader);
	o->sym = s->ksyms ? lookup_sym : NULL;
	o->sym_ctx = s->ksyms;
	o->kallsyms_shift = s->ksyms_shift;
	switch (s->kfrom) {
	case TS_KALLSYMS_FILE:
		o->kallsyms = s->opts.kallsyms;
		break;
	case TS_KALLSYMS_RUNNING:
		o->kallsyms = "/proc/kallsyms";
		break;
	case TS_KALLSYMS_CACHE:
		o->kallsyms = s->cache_path;
		break;
	default:
		o->kallsyms = NULL;
		break;
	}
}

const char *ts_source_comm(struct ts_source *s, uint32_t tid)
{
	return ts_comms_get(&s->comms, tid);
}
