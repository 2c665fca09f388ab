// SPDX-License-Identifier: GPL-2.0-only
/*
 * The CLI's event source: reader + decoder + thread names + kallsyms. Tracepoint samples become
 * typed events; COMM and LOST records become side-band events. The worker thread that decodes
 * them in ts_source_run() and for the plugin is worker.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "source_priv.h"
#include "tickscope/analysis.h"
#include "tickscope/error.h"
#include "tickscope/report.h"

int ts_source_fail(struct ts_source *s, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->err, sizeof(s->err), fmt, ap);
	va_end(ap);
	return code;
}

int ts_running_build_id(char *hex, size_t len)
{
	unsigned char buf[4096];
	size_t pos = 0;
	ssize_t n;
	int fd;

	fd = open("/sys/kernel/notes", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n < 0)
		return -EIO;
	/* ELF notes: namesz, descsz, type, then name and desc, each padded to 4 */
	while (pos + 12 <= (size_t)n) {
		uint32_t namesz, descsz, type, i;

		memcpy(&namesz, buf + pos, 4);
		memcpy(&descsz, buf + pos + 4, 4);
		memcpy(&type, buf + pos + 8, 4);
		pos += 12;
		if (pos + ((namesz + 3) & ~3u) + ((descsz + 3) & ~3u) > (size_t)n)
			break;
		if (type == 3 && namesz == 4 && !memcmp(buf + pos, "GNU", 4) && descsz * 2 < len) {
			for (i = 0; i < descsz; i++)
				sprintf(hex + 2 * i, "%02x", buf[pos + 4 + i]);
			return 0;
		}
		pos += ((namesz + 3) & ~3u) + ((descsz + 3) & ~3u);
	}
	return -ENOENT;
}

/* A kallsyms file into @kp, through @cache when not NULL; @err gets what went wrong. */
int ts_source_load_ksyms(struct ts_ksyms **kp, const char *path, const char *cache, char *err,
			 size_t len)
{
	int line = 0, ret = ts_ksyms_load_cached(kp, path, cache, &line);

	/* a path longer than the message is cut */
	if (ret == -TS_EKALLSYMS)
		snprintf(err, len, "%.300s: line %d: not a kallsyms line", path, line);
	else if (ret)
		snprintf(err, len, "%.300s: %s", path, ts_strerror(ret));
	return ret;
}

/*
 * perf's build-id cache copy of a kernel's kallsyms, which perf record saves:
 * $PERF_BUILDID_DIR (or ~/.debug)/[kernel.kallsyms]/<build id>/kallsyms.
 */
static int buildid_cache_kallsyms(const char *build_id, char *path, size_t len)
{
	const char *dir = getenv("PERF_BUILDID_DIR"), *home = getenv("HOME");
	int n;

	if (!build_id[0])
		return -ENOENT;
	if (dir && dir[0])
		n = snprintf(path, len, "%s/[kernel.kallsyms]/%s/kallsyms", dir, build_id);
	else if (home && home[0])
		n = snprintf(path, len, "%s/.debug/[kernel.kallsyms]/%s/kallsyms", home, build_id);
	else
		return -ENOENT;
	if (n < 0 || (size_t)n >= len || access(path, R_OK))
		return -ENOENT;
	return 0;
}

/*
 * The printer's symbols, through the same table as the reports': loaded, moved to the recording
 * boot's kernel address as perf does (KASLR), handed to the decoder. Called once the kernel's
 * map is known.
 */
/* Once per source: does the kallsyms fit the recording (arch, kernel map)? */
static void check_ksyms(struct ts_source *s, const struct ts_ksyms *k, const char *path)
{
	const struct ts_file_info *info = ts_reader_info(s->reader);
	char why[300];

	if (s->ksyms_checked || !k)
		return;
	s->ksyms_checked = 1;
	if (ts_ksyms_check(k, info->arch, info->kernel_ref, info->kernel_ref_addr, why,
			   sizeof(why)))
		snprintf(s->kwarn, sizeof(s->kwarn), "%.80s: %s", path, why);
}

/* Load @path's symbols into @d; @err gets what went wrong. */
static int print_kallsyms(struct ts_source *s, struct ts_decoder *d, const char *path, char *err,
			  size_t len)
{
	const struct ts_file_info *info = ts_reader_info(s->reader);
	struct ts_ksyms *k;
	int64_t shift;
	int ret;

	ret = ts_source_load_ksyms(&k, path, s->opts.ksyms_cache, err, len);
	if (ret)
		return ret;
	check_ksyms(s, k, path);
	if (info->kernel_ref[0])
		ts_ksyms_relocate(k, info->kernel_ref, info->kernel_ref_addr, &shift);
	ret = ts_decoder_take_ksyms(d, k);
	if (ret)
		snprintf(err, len, "%.300s: %s", path, ts_strerror(ret));
	return ret;
}

/* The loading thread: the own printer's symbols, while the input is read. */
static void *printer_kallsyms_main(void *arg)
{
	struct ts_source *s = arg;

	s->pk_ret = print_kallsyms(s, s->pdec, "/proc/kallsyms", s->perr, sizeof(s->perr));
	return NULL;
}

/* Wait for the loading thread, once (the printing thread, or later the source's own). */
static int join_printer_kallsyms(struct ts_source *s)
{
	if (s->pk_state == 1) {
		pthread_join(s->pk_thread, NULL);
		s->pk_state = 2;
	}
	return s->pk_ret;
}

/* The printing thread's first %ps: the symbols, waited for or loaded there and then. */
static int deferred_kallsyms(void *ctx, struct ts_decoder *d)
{
	struct ts_source *s = ctx;
	int ret;

	if (s->pk_state)
		ret = join_printer_kallsyms(s);
	else
		ret = print_kallsyms(s, d, "/proc/kallsyms", s->perr, sizeof(s->perr));
	s->perr_said = ret != 0; /* the printer stops on it: its message is the one to print */
	return ret;
}

/*
 * An own printer takes the running kernel's symbols only if the trace has an event that
 * may print a function (most have none): /proc/kallsyms costs 30-40 ms of kernel time to
 * make and megabytes to keep. A thread of its own loads them while the input is read, and
 * the printer waits for it at its first %ps. A file the user named is read now, so that its
 * errors come first.
 */
static int set_print_kallsyms(struct ts_source *s)
{
	const char *path = s->print_path;

	s->print_path = NULL;
	if (s->pdec && s->kfrom == TS_KALLSYMS_RUNNING) {
		if (!ts_decoder_may_print_syms(s->pdec))
			return 0;
		ts_decoder_defer_ksyms(s->pdec, deferred_kallsyms, s);
		if (!pthread_create(&s->pk_thread, NULL, printer_kallsyms_main, s))
			s->pk_state = 1;
		return 0;
	}
	return print_kallsyms(s, s->pdec ? s->pdec : s->dec, path, s->err, sizeof(s->err));
}

/*
 * perf's rule: --kallsyms if given, else the running kernel's only when the build ids match.
 * The reports' table takes perf's build-id cache copy first when there is one: the same
 * kernel's symbols, 5 MB of text to read instead of 36 ms of /proc/kallsyms formatting.
 * Either may come from another boot: ts_source_report_opts() moves the table as perf would
 * (KASLR), and the printer is moved here. A threaded source loads the table on a thread of
 * its own while the input is read.
 */
static int load_kallsyms(struct ts_source *s)
{
	const struct ts_file_info *info = ts_reader_info(s->reader);
	const char *path = s->opts.kallsyms, *table = NULL;
	char running[64] = "";
	int ret;

	if (!s->opts.symbols)
		return 0;
	if (!path) {
		if (info->kernel_build_id[0] && !ts_running_build_id(running, sizeof(running)) &&
		    !strcmp(running, info->kernel_build_id)) {
			path = "/proc/kallsyms";
			s->kfrom = TS_KALLSYMS_RUNNING;
		}
		if ((s->opts.symbols & TS_SYMS_TABLE) &&
		    !buildid_cache_kallsyms(info->kernel_build_id, s->cache_path,
					    sizeof(s->cache_path))) {
			table = s->cache_path;
			s->kfrom = TS_KALLSYMS_CACHE;
		}
		if (!path && !table)
			return 0;
	} else {
		s->kfrom = TS_KALLSYMS_FILE;
	}
	if (!table)
		table = path;
	s->table_path = table;
	if ((s->opts.symbols & TS_SYMS_TABLE) && s->opts.threaded && s->dec) {
		s->ksyms_path = table;
	} else if (s->opts.symbols & TS_SYMS_TABLE) {
		ret = ts_source_load_ksyms(&s->ksyms, table, s->opts.ksyms_cache, s->err,
					   sizeof(s->err));
		if (ret)
			return ret;
	}
	/*
	 * perf script installs its function resolver before it reads a pipe's tracing data, so
	 * in pipe mode it prints raw addresses whatever --kallsyms says; dump does the same.
	 * Reports still symbolize through s->ksyms.
	 */
	if ((s->opts.symbols & TS_SYMS_PRINT) && path && s->dec && info->kind != TS_INPUT_PIPE) {
		s->print_path = path;
		/* no kernel map in the data's first 256 KiB: wait, it comes before the samples */
		if (info->kernel_ref[0])
			return set_print_kallsyms(s);
	}
	return 0;
}

int ts_source_open(struct ts_source **sp, const struct ts_source_opts *opts)
{
	struct ts_source *s;
	const void *td;
	size_t td_len;
	char err[300];
	int ret;

	*sp = s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->opts = *opts;
	ts_comms_init(&s->comms);
	ret = ts_reader_open(&s->reader, opts->input,
			     &(struct ts_reader_opts){ .unordered = opts->unordered,
						       .strict = opts->strict,
						       .threaded = 1 });
	if (ret)
		return ts_source_fail(s, ret, "%s",
				      s->reader ? ts_reader_error(s->reader) : ts_strerror(ret));
	td = ts_reader_tracing_data(s->reader, &td_len);
	if (td_len) {
		ret = ts_decoder_new(&s->dec, td, td_len, err, sizeof(err));
		if (!ret && opts->own_printer)
			ret = ts_decoder_new_like(&s->pdec, s->dec, td, td_len, err, sizeof(err));
		if (ret)
			return ts_source_fail(s, ret, "%s: %s", opts->input, err);
	} else if (opts->need_decoder) {
		return ts_source_fail(
			s, -TS_ENOTRACEDATA, "%s: offset %#llx: %s%s", opts->input,
			(unsigned long long)ts_reader_offset(s->reader),
			ts_strerror(-TS_ENOTRACEDATA),
			ts_reader_info(s->reader)->kind == TS_INPUT_PIPE ?
				": the stream has no HEADER_TRACING_DATA before its first event" :
				": the header's feature bits list no tracing data");
	}
	return load_kallsyms(s);
}

/*
 * The kernel part of a raw callchain: the entries after PERF_CONTEXT_KERNEL up to the next
 * context marker. It is used in place when aligned (it always is in practice), else copied.
 */
static const uint64_t *kernel_ips(struct ts_source *s, const uint64_t *ips, uint64_t nr_ips,
				  uint32_t *nr)
{
	uint64_t i, start = 0, end, ip;

	memcpy(&ip, &ips[0], 8);
	if (ip == (uint64_t)PERF_CONTEXT_KERNEL)
		start = 1;
	else if (ip >= (uint64_t)PERF_CONTEXT_MAX)
		start = nr_ips; /* user-only chain */
	for (end = start; end < nr_ips; end++) {
		memcpy(&ip, &ips[end], 8);
		if (ip >= (uint64_t)PERF_CONTEXT_MAX)
			break;
	}
	*nr = end - start;
	if (!((uintptr_t)ips & 7))
		return ips + start;
	if (*nr > MAX_IPS)
		*nr = MAX_IPS;
	for (i = 0; i < *nr; i++)
		memcpy(&s->ips[i], &ips[start + i], 8);
	return s->ips;
}

int ts_source_decode(struct ts_source *s, int tp_id, const void *raw, uint32_t raw_size,
		     const uint64_t *ips, uint64_t nr_ips, struct ts_event *ev, char *err,
		     size_t errlen)
{
	int ret;

	ev->nr_ips = 0;
	ev->ips = NULL;
	if (s->opts.names_only)
		ret = ts_decoder_name(s->dec, tp_id, raw, raw_size, ev);
	else
		ret = ts_decoder_decode(s->dec, tp_id, raw, raw_size, ev);
	if (ret) {
		snprintf(err, errlen, "%s", ts_decoder_error(s->dec));
		return ret;
	}
	/* only switch-out stacks are used (off-CPU time by stack): skip the scan elsewhere */
	if (nr_ips && ev->kind == TS_EV_SWITCH)
		ev->ips = kernel_ips(s, ips, nr_ips, &ev->nr_ips);
	return 0;
}

int ts_source_event(struct ts_source *s, int tp_id, const void *raw, uint32_t raw_size,
		    const uint64_t *ips, uint64_t nr_ips, struct ts_event *ev)
{
	return ts_source_decode(s, tp_id, raw, raw_size, ips, nr_ips, ev, s->err, sizeof(s->err));
}

/* TS_SRC_INLINE: decode here, and call back with the reader's sample. */
int ts_source_inline_sample(struct ts_source *s, const struct ts_sample *smp)
{
	struct ts_event ev;
	int ret;

	if (s->print_path) {
		ret = set_print_kallsyms(s);
		if (ret)
			return ret;
	}
	memset(&ev, 0, offsetof(struct ts_event, sw));
	ev.time = smp->time;
	ev.cpu = smp->cpu;
	ev.pid = smp->tid;
	ret = ts_source_decode(s, (int)smp->attr->config, smp->raw, smp->raw_size, smp->ips,
			       smp->nr_ips, &ev, s->err, sizeof(s->err));
	if (ret)
		return ret;
	return s->fn(s->ctx, &ev, smp);
}

static int on_sample(void *ctx, const struct ts_sample *smp)
{
	struct ts_source *s = ctx;

	if (smp->attr->type != PERF_TYPE_TRACEPOINT || !smp->raw || !s->dec)
		return 0;
	if (s->mode == TS_SRC_INLINE) /* the common case, without the worker's arguments */
		return ts_source_inline_sample(s, smp);
	return ts_source_feed(s, (int)smp->attr->config, smp->time, smp->cpu, smp->tid, smp->raw,
			      smp->raw_size, smp->ips, smp->nr_ips,
			      ts_reader_last_offset(s->reader), smp);
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
		ts_source_fail(s, ret, "%s: offset %#llx: %s", s->opts.input,
			       (unsigned long long)ts_reader_last_offset(s->reader), what);
	}
	return ret;
}

void ts_source_close(struct ts_source *s)
{
	if (!s)
		return;
	ts_source_stop(s);
	join_printer_kallsyms(s);
	free(s->kinds);
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

void ts_source_note_recorded(struct ts_source *s, struct ts_analysis *a)
{
	const struct ts_attr *attrs;
	char buf[64];
	int nr, i;

	attrs = ts_reader_attrs(s->reader, &nr);
	for (i = 0; i < nr; i++) {
		const char *name = attrs[i].name;

		if (attrs[i].type != PERF_TYPE_TRACEPOINT)
			continue;
		if (!name[0] && s->dec)
			name = ts_decoder_event_name(s->dec, (int)attrs[i].config);
		if (!name || !name[0]) {
			snprintf(buf, sizeof(buf), "tracepoint:%llu",
				 (unsigned long long)attrs[i].config);
			name = buf;
		}
		ts_analysis_note_recorded(a, name);
	}
}

static const char *lookup_sym(void *ctx, uint64_t addr, uint64_t *off)
{
	return ts_ksyms_lookup(ctx, addr, off);
}

/* Move the table to where the recording boot had the kernel (KASLR), once, as perf does. */
static void relocate_table(struct ts_source *s)
{
	const struct ts_file_info *info = ts_reader_info(s->reader);

	check_ksyms(s, s->ksyms, s->table_path);
	if (!s->ksyms || s->ksyms_moved || !info->kernel_ref[0])
		return;
	s->ksyms_moved = 1;
	ts_ksyms_relocate(s->ksyms, info->kernel_ref, info->kernel_ref_addr, &s->ksyms_shift);
}

const char *ts_source_kallsyms_warning(struct ts_source *s)
{
	join_printer_kallsyms(s);
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
