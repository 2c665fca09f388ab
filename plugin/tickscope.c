// SPDX-License-Identifier: GPL-2.0-only
/*
 * tickscope.so: a perf script --dlfilter that feeds perf's samples into tickscope's models and
 * prints the same report as `tickscope report` from stop(). The tracepoint formats come from
 * the input file itself, which the dlfilter API does not name: see find_input().
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <math.h>
#include <perf/perf_dlfilter.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tickscope/analysis.h"
#include "tickscope/compare.h"
#include "tickscope/compare_report.h"
#include "tickscope/cpath.h"
#include "tickscope/error.h"
#include "tickscope/ksyms.h"
#include "tickscope/report.h"
#include "tickscope/sched.h"
#include "tickscope/source.h"
#include "tickscope/version.h"

#include "perf_cmdline.h"

/* perf fills this in before start(): the one global a dlfilter must have. */
struct perf_dlfilter_fns perf_dlfilter_fns;

enum out_fmt { OUT_TEXT, OUT_JSON };

#define SEEN_SLOTS 256 /* a power of two */
#define SEEN_MAX (SEEN_SLOTS / 2) /* attrs kept; one past them is looked up on each sample */
#define IDS_SLOTS 4096 /* a power of two */
#define IDS_MAX (IDS_SLOTS / 2) /* sample ids kept; one past them takes the attrs' way */

struct plugin {
	struct ts_source *src;
	struct ts_analysis *an;
	enum out_fmt fmt;
	unsigned int top;
	char input[4096];
	char *kallsyms;
	char ksyms_cache[4096]; /* the folder of parsed tables, as the CLI's */
	char formats_cache[4096]; /* the folder of probe markers, as the CLI's */
	uint64_t nr_samples, nr_other;
	int failed; /* the worker stopped on an error */
	struct perf_cmdline perf; /* perf's own options: the input, the filters */
	uint64_t other_threads; /* --pid: samples of a selected process's other threads */
	int32_t first_other;
	char *summary, *comm; /* summary=FILE for tickscope compare, and its comm= */
	double ops; /* ops=N: the benchmark's operations */
	struct ts_cpath *path; /* the benchmark's tasks' time line, with comm= */
	/*
	 * perf's attrs seen, and whether their samples are left out (attr_left_out()): a hash
	 * of their addresses, looked up for every sample, at most half full (SEEN_MAX)
	 */
	struct seen_attr {
		const struct perf_event_attr *attr;
		int left_out;
	} seen[SEEN_SLOTS];
	int nr_seen;
	/*
	 * What a sample's id said the first time: its attr's tracepoint and verdict, so that
	 * later samples of that id need no call to perf for their attr (0: an empty slot; the
	 * kernel numbers events from 1, and perf gives 0 when the file records no ids)
	 */
	struct seen_id {
		uint64_t id;
		int32_t config;
		int32_t verdict;
	} ids[IDS_SLOTS];
	int nr_ids;
	/* samples left out, for stop()'s warnings */
	uint64_t nr_member, nr_repeat, nr_subsampled, nr_filtered;
	int twins_differ; /* a repeated tracepoint's later attr has other hits (--filter on it) */
};

/*
 * What start() returns for a command-line mistake: perf script exits with start()'s value
 * (an errno of -22 became exit status 234), and tickscope's mistakes exit 2.
 */
#define USAGE_EXIT 2

static const char plugin_help[] =
	"tickscope.so: tickscope's analyses inside perf script.\n"
	"  perf script -i FILE --dlfilter PATH/tickscope.so [--dlarg ARG]...\n"
	"PATH is where the plugin is (make install puts it in PREFIX/lib/tickscope/, the\n"
	"build in build/): perf needs a path, a bare name is looked up in the current folder.\n"
	"ARG is one of:\n"
	"  text            print the text report (the default)\n"
	"  json            print the JSON report (same schema as `tickscope report --json`)\n"
	"  kallsyms=FILE   symbols of the recording kernel (default: perf's build-id cache\n"
	"                  copy, else the running kernel's when the build id matches it)\n"
	"  input=FILE      the perf.data file, when perf's own -i cannot be found or is a pipe\n"
	"  top=N           rows of ranked tables\n"
	"  summary=FILE    also write the run's summary for tickscope compare (docs/compare.md)\n"
	"  comm=NAME       with summary: the benchmark's tasks are NAME and NAME-*\n"
	"  ops=N           with summary: the benchmark's operations in the trace\n"
	"  help            this text\n";

const char *filter_description(const char **long_description)
{
	if (long_description)
		*long_description = plugin_help;
	return "tickscope: sched/idle/timer/workqueue/rcu/shrinker analyses, report at the end";
}

/* Copy a string, cut to fit. */
static void set_str(char *out, size_t len, const char *s)
{
	size_t n = strnlen(s, len - 1);

	memcpy(out, s, n);
	out[n] = 0;
}

/* Is @path a perf.data file (either mode) that we can read again from the start? */
static int is_perf_file(const char *path)
{
	char magic[8];
	struct stat st;
	int fd, ok;

	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ok = read(fd, magic, 8) == 8 && !memcmp(magic, "PERFILE2", 8);
	close(fd);
	return ok;
}

/* Any open fd of ours that is a perf.data file: perf keeps its input open. */
static int input_from_fds(char *out, size_t len)
{
	struct dirent *de;
	char path[300], target[4096];
	DIR *d = opendir("/proc/self/fd");
	int ret = -ENOENT;

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		ssize_t n;

		snprintf(path, sizeof(path), "/proc/self/fd/%s", de->d_name);
		n = readlink(path, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = 0;
		if (target[0] == '/' && is_perf_file(target)) {
			set_str(out, len, target);
			ret = 0;
			break;
		}
	}
	closedir(d);
	return ret;
}

static int find_input(struct plugin *p)
{
	struct stat st;

	if (p->input[0])
		return is_perf_file(p->input) ? 0 : -ENOENT;
	set_str(p->input, sizeof(p->input), p->perf.input);
	if (!p->input[0])
		snprintf(p->input, sizeof(p->input), "%s",
			 !fstat(0, &st) && S_ISFIFO(st.st_mode) ? "-" : "perf.data");
	if (strcmp(p->input, "-") && is_perf_file(p->input))
		return 0;
	if (strcmp(p->input, "-") && !input_from_fds(p->input, sizeof(p->input)))
		return 0;
	return -ENOENT;
}

/* @s a whole number from 1 to INT_MAX, nothing after it, into *@v; Return: 0, or -1. */
static int whole_above_0(const char *s, unsigned int *v)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(s, &end, 10);
	if (end == s || *end || errno || n < 1 || n > INT_MAX || !isdigit((unsigned char)*s))
		return -1;
	*v = (unsigned int)n;
	return 0;
}

static int parse_args(struct plugin *p, void *ctx)
{
	char **argv;
	int argc = 0, i;

	argv = perf_dlfilter_fns.args ? perf_dlfilter_fns.args(ctx, &argc) : NULL;
	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "json")) {
			p->fmt = OUT_JSON;
		} else if (!strcmp(a, "text")) {
			p->fmt = OUT_TEXT;
		} else if (!strncmp(a, "kallsyms=", 9)) {
			free(p->kallsyms);
			p->kallsyms = strdup(a + 9);
			if (!p->kallsyms)
				return -ENOMEM;
		} else if (!strncmp(a, "input=", 6)) {
			set_str(p->input, sizeof(p->input), a + 6);
		} else if (!strncmp(a, "top=", 4)) {
			if (whole_above_0(a + 4, &p->top)) {
				fprintf(stderr,
					"tickscope.so: --dlarg '%s': top= takes a whole number "
					"above 0\n",
					a);
				return USAGE_EXIT;
			}
		} else if (!strncmp(a, "summary=", 8) || !strncmp(a, "comm=", 5)) {
			char **dst = a[0] == 's' ? &p->summary : &p->comm;

			free(*dst);
			*dst = strdup(strchr(a, '=') + 1);
			if (!*dst)
				return -ENOMEM;
		} else if (!strncmp(a, "ops=", 4)) {
			char *end;

			p->ops = strtod(a + 4, &end);
			if (end == a + 4 || *end || !isfinite(p->ops) || !(p->ops > 0)) {
				fprintf(stderr,
					"tickscope.so: --dlarg '%s': ops= takes a number of "
					"operations above 0\n",
					a);
				return USAGE_EXIT;
			}
		} else if (!strcmp(a, "help")) {
			fputs(plugin_help, stderr);
			return USAGE_EXIT;
		} else {
			fprintf(stderr, "tickscope.so: unknown --dlarg '%s'\n%s", a, plugin_help);
			return USAGE_EXIT;
		}
	}
	return 0;
}

static void plugin_free(struct plugin *p)
{
	ts_source_close(p->src); /* joins the worker, if it still runs */
	ts_analysis_free(p->an);
	ts_cpath_free(p->path);
	free(p->kallsyms);
	free(p->summary);
	free(p->comm);
	free(p);
}

static int feed(void *ctx, const struct ts_event *ev, const struct ts_sample *s)
{
	struct plugin *p = ctx;

	return ts_analysis_feed(p->an, ev) ?: (p->path ? ts_cpath_feed(p->path, ev) : 0);
}

/* The models, with perf's sample filters as the equivalent tickscope report filters. */
static int new_analysis(struct plugin *p)
{
	/* perf hands a dlfilter no LOST records: lost events are not measured here */
	struct ts_analysis_opts ao = { .lost_unmeasured = 1 };
	int ret = perf_cmdline_filters(&p->perf, &ao);

	if (ret) {
		fprintf(stderr, "tickscope.so: %s\n", p->perf.error);
		return USAGE_EXIT; /* a perf option the report cannot honour */
	}
	ret = ts_analysis_new(&p->an, &ao);
	if (ret == -TS_EUSAGE) {
		fprintf(stderr, "tickscope.so: perf's -C/--cpu '%s': not a CPU list\n",
			p->perf.cpus);
		return USAGE_EXIT;
	}
	/* summary= with comm=: the benchmark's tasks' time line too (tickscope compare) */
	if (!ret && p->summary && p->comm)
		ret = ts_cpath_new(&p->path, p->comm, ts_sched_wltree(ts_analysis_sched(p->an)));
	return ret;
}

int start(void **data, void *ctx)
{
	/*
	 * decoding and the models run on perf's thread as each sample comes, or on a worker
	 * thread beside it with TS_THREADS=1 (ts_source_start())
	 */
	struct ts_source_opts o = {
		.need_decoder = 1,
		.symbols = TS_SYMS_TABLE,
		.threaded = 1,
		.keep_going = 1,
	};
	struct plugin *p = calloc(1, sizeof(*p));
	int ret;

	*data = NULL;
	if (!p)
		return -ENOMEM;
	ret = parse_args(p, ctx);
	if (ret)
		goto out_free;
	ret = perf_cmdline_read(&p->perf);
	if (ret) {
		fprintf(stderr, "tickscope.so: %s\n",
			p->perf.error[0] ? p->perf.error : "cannot read perf's command line");
		if (p->perf.error[0]) /* an option of perf's the report cannot honour */
			ret = USAGE_EXIT;
		goto out_free;
	}
	if (find_input(p)) {
		fprintf(stderr,
			"tickscope.so: cannot find the input perf.data to read the "
			"tracepoint formats from%s%s; pass --dlarg input=FILE\n",
			p->input[0] ? " (perf reads " : "",
			p->input[0] ? (!strcmp(p->input, "-") ? "a pipe)" : "a non-file)") : "");
		ret = -ENOENT;
		goto out_free;
	}
	o.input = p->input;
	o.kallsyms = p->kallsyms;
	o.ksyms_cache = ts_ksyms_cache_dir(p->ksyms_cache, sizeof(p->ksyms_cache));
	o.formats_cache = ts_decoder_cache_dir(p->formats_cache, sizeof(p->formats_cache));
	ret = ts_source_open(&p->src, &o);
	if (ret) {
		fprintf(stderr, "tickscope.so: %s\n",
			p->src ? ts_source_error(p->src) : ts_strerror(ret));
		goto out_free;
	}
	/* -e X --filter F -e X: refused before perf delivers a sample, as the CLI refuses it */
	ret = ts_source_check_twins(p->src, &p->twins_differ);
	if (ret) {
		fprintf(stderr, "tickscope.so: %s\n", ts_source_error(p->src));
		goto out_free;
	}
	/* -e X --filter F: from the file's saved command line, before the recorded list is noted */
	ret = ts_source_check_filters(p->src);
	if (ret) {
		fprintf(stderr, "tickscope.so: %s\n", ts_strerror(ret));
		goto out_free;
	}
	ret = new_analysis(p);
	if (ret)
		goto out_free;
	ts_source_note_recorded(p->src, p->an);
	ret = ts_source_worker_start(p->src, feed, p);
	if (ret == -EAGAIN) /* no thread to be had: the samples are fed inline */
		ret = 0;
	if (ret) {
		fprintf(stderr, "tickscope.so: %s\n", ts_source_error(p->src));
		goto out_free;
	}
	*data = p;
	return 0;
out_free:
	plugin_free(p);
	return ret == USAGE_EXIT || ret < 0 ? ret : -EINVAL;
}

static int listed(const struct perf_cmdline *c, int32_t id)
{
	int i;

	for (i = 0; i < c->nr_tids; i++)
		if (c->tids[i] == id)
			return 1;
	return 0;
}

/* perf's --pid names processes, tickscope's tasks: count what the report leaves out. */
static void note_other_thread(struct plugin *p, int32_t pid, int32_t tid)
{
	if (!listed(&p->perf, pid) || listed(&p->perf, tid))
		return;
	if (!p->other_threads++)
		p->first_other = tid;
}

enum { KEEP, MEMBER, REPEAT, SUBSAMPLED, FILTERED, NOT_TRACEPOINT, NO_ATTR };

/* @attr's slot in p->seen: its own, or the empty one where it would go */
static inline struct seen_attr *seen_slot(struct plugin *p, const struct perf_event_attr *attr)
{
	/* the address's bits above malloc's alignment, spread over the slots */
	size_t i = (size_t)(((uintptr_t)attr >> 4) * 0x9e3779b97f4a7c15ull >> 32);

	for (;; i++) {
		struct seen_attr *e = &p->seen[i & (SEEN_SLOTS - 1)];

		if (e->attr == attr || !e->attr)
			return e;
	}
}

/*
 * What the CLI's source leaves out (ts_source_attr_left_out()), for perf's @attr: MEMBER, an
 * attr without a sample period (a member of a leader-sampled group, {a,b}:S, whose samples
 * perf makes from the leader's counts, with the leader's payload), or REPEAT, a second attr of
 * a tracepoint (-e X -e X: the same hits again), or SUBSAMPLED, a tracepoint sampled 1 hit in N
 * (perf record -c N --no-period, or -F N), or FILTERED, a tracepoint recorded through a
 * filter (perf record -e X --filter F or --exclude-perf: the hits that pass, not every hit,
 * said only in the file's saved command line); else KEEP.
 */
static int attr_left_out(struct plugin *p, const struct perf_event_attr *attr, uint64_t id)
{
	struct seen_attr *e = seen_slot(p, attr);
	const struct ts_attr *a;
	int i, v = KEEP;

	if (e->attr)
		return e->left_out;
	/* an attr not seen before (once each, but for attrs past SEEN_MAX) */
	a = ts_reader_attr_of_id(ts_source_reader(p->src), id);
	if (!attr->freq && !attr->sample_period)
		v = MEMBER;
	else if (attr->freq ||
		 (attr->sample_period > 1 && !(attr->sample_type & PERF_SAMPLE_PERIOD)))
		v = SUBSAMPLED; /* -F N, or -c N --no-period: 1 hit in N, not every hit (source.c) */
	else if (a) /* the file's attr: the repeat is the later one in the file, as the CLI has it */
		v = a->same_as ? REPEAT : ts_source_attr_filtered(p->src, a) ? FILTERED : KEEP;
	for (i = 0; !a && v == KEEP && i < SEEN_SLOTS; i++)
		if (p->seen[i].attr && p->seen[i].left_out == KEEP &&
		    p->seen[i].attr->config == attr->config)
			v = REPEAT;
	if (p->nr_seen < SEEN_MAX) {
		p->nr_seen++;
		*e = (struct seen_attr){ attr, v };
	}
	return v;
}

/* The sample's attr as perf gives it: its verdict, and in *@config its tracepoint. */
static int attr_verdict(struct plugin *p, const struct perf_dlfilter_sample *sample, void *ctx,
			int32_t *config)
{
	struct perf_event_attr *attr = perf_dlfilter_fns.attr(ctx);

	if (!attr)
		return NO_ATTR;
	if (attr->type != PERF_TYPE_TRACEPOINT)
		return NOT_TRACEPOINT;
	*config = (int32_t)attr->config;
	return attr_left_out(p, attr, sample->id);
}

/* The verdict on @sample's attr, by its id when it has one (see struct seen_id) */
static inline int verdict(struct plugin *p, const struct perf_dlfilter_sample *sample, void *ctx,
			  int32_t *config)
{
	size_t i = (size_t)(sample->id * 0x9e3779b97f4a7c15ull >> 32);
	struct seen_id *e;
	int v;

	if (!sample->id)
		return attr_verdict(p, sample, ctx, config);
	for (;; i++) {
		e = &p->ids[i & (IDS_SLOTS - 1)];
		if (e->id == sample->id) {
			*config = e->config;
			return e->verdict;
		}
		if (!e->id)
			break;
	}
	*config = 0;
	v = attr_verdict(p, sample, ctx, config);
	if (v != NO_ATTR && p->nr_ids < IDS_MAX) {
		p->nr_ids++;
		*e = (struct seen_id){ sample->id, *config, v };
	}
	return v;
}

/*
 * Every sample comes here before perf's own filtering (--time, -C, --pid, --tid, --comms) and
 * printing: the analysis applies those filters, read from perf's command line in start(). We
 * hand what we need to the worker and return 1 so that perf prints nothing per sample. A
 * sample that does not decode is counted by the worker, never fatal: the report at stop()
 * says how many.
 */
int filter_event_early(void *data, const struct perf_dlfilter_sample *sample, void *ctx)
{
	struct plugin *p = data;
	int32_t config;
	int v = verdict(p, sample, ctx, &config);

	if (v == NO_ATTR || v == NOT_TRACEPOINT || !sample->raw_data) {
		p->nr_other++;
		return 1;
	}
	switch (v) {
	case MEMBER: /* not a sample of the file: the CLI does not count it either */
		p->nr_member++;
		return 1;
	case REPEAT:
		p->nr_repeat++;
		p->nr_samples++;
		return 1;
	case SUBSAMPLED:
		p->nr_subsampled++;
		p->nr_samples++;
		return 1;
	case FILTERED:
		p->nr_filtered++;
		p->nr_samples++;
		return 1;
	}
	p->nr_samples++;
	if (p->perf.by_pid && sample->pid != sample->tid)
		note_other_thread(p, sample->pid, sample->tid);
	if (!p->failed && ts_source_worker_sample(p->src, config, sample->time, sample->cpu,
						  sample->tid, sample->raw_data, sample->raw_size,
						  (const uint64_t *)sample->raw_callchain,
						  sample->raw_callchain_nr, UINT64_MAX))
		p->failed = 1; /* the worker stopped: stop() reports why */
	return 1;
}

int filter_event(void *data, const struct perf_dlfilter_sample *sample, void *ctx)
{
	return 1; /* everything was taken in filter_event_early() */
}

/* summary=FILE: what `tickscope compare` caches for this perf.data, keyed the same way. */
static int write_summary(struct plugin *p, const struct ts_report_opts *o)
{
	double ops = p->ops > 0 ? p->ops : NAN;
	struct ts_run r = { .lost = NAN };
	char *key = ts_summary_key(p->input, p->kallsyms, p->comm, ops, TS_SUMMARY_VERSION);
	char sha[TS_SHA256_HEX];
	int ret = key ? 0 : -errno;
	long long size = 0;

	ts_analysis_set_symbols(p->an, o->sym, o->sym_ctx);
	ret = ret ?: ts_run_add_analysis(&r, p->an, p->path, p->comm, ops);
	/* the header's facts and the recorded tracepoints, as compare's own summary has them */
	ret = ret ?: ts_source_run_facts(p->src, &r);
	/* the trace it came from, so that the summary can travel without it */
	ret = ret ?: ts_summary_trace_id(p->input, sha, &size);
	ret = ret ?: ts_summary_write(p->summary, key, sha, size, &r, 0);
	if (ret)
		fprintf(stderr, "tickscope.so: summary=%s: %s\n", p->summary, ts_strerror(ret));
	ts_run_release(&r);
	free(key);
	return ret;
}

int stop(void *data, void *ctx)
{
	struct plugin *p = data;
	struct ts_report_opts o = { .top = 0 };
	struct ts_file_info info;
	int ret;

	const char *first_bad;
	uint64_t nr_bad;

	if (!p)
		return 0;
	ret = ts_source_worker_finish(p->src);
	if (ret) {
		fprintf(stderr, "tickscope.so: %s\n", ts_source_error(p->src));
		plugin_free(p);
		return ret;
	}
	nr_bad = ts_source_nr_bad(p->src, &first_bad);
	ts_source_report_opts(p->src, &o);
	ts_analysis_set_per_task(p->an, o.info->per_task);
	ts_analysis_finish(p->an);
	/* the reader only read the headers: the samples are the ones perf gave us */
	info = *o.info;
	info.nr_samples = p->nr_samples + p->nr_other;
	o.info = &info;
	o.top = p->top;
	o.kallsyms_how = "--dlarg kallsyms=FILE";
	if (p->fmt == OUT_JSON)
		ret = ts_report_json(stdout, p->an, &o);
	else
		ret = ts_report_text(stdout, p->an, &o);
	fflush(stdout);
	if (p->summary && !ret)
		ret = write_summary(p, &o);
	if (p->other_threads)
		fprintf(stderr,
			"tickscope.so: --pid is taken as thread ids, as tickscope report --pid takes "
			"them: %llu samples of other threads of those processes (the first: tid %d) "
			"are outside the per-task figures; name them with --tid\n",
			(unsigned long long)p->other_threads, p->first_other);
	if (p->nr_member)
		fprintf(stderr,
			"tickscope.so: %llu samples perf made of leader-sampled group members "
			"({...}:S: not sampled, only counted in their leader's samples) are left "
			"out; those events are taken as not recorded\n",
			(unsigned long long)p->nr_member);
	if (p->nr_repeat && !p->twins_differ)
		fprintf(stderr,
			"tickscope.so: %llu samples of a tracepoint recorded twice (the same hits "
			"again) are left out, so that each hit counts once\n",
			(unsigned long long)p->nr_repeat);
	else if (p->nr_repeat) /* the CLI's warning says the same of the attr (source.c) */
		fprintf(stderr,
			"tickscope.so: %llu samples of a tracepoint's second attr are left out: not "
			"the first attr's hits (fewer: a --filter on it, or lost events?), only the "
			"first's are analysed\n",
			(unsigned long long)p->nr_repeat);
	if (p->nr_subsampled)
		fprintf(stderr,
			"tickscope.so: %llu samples of tracepoints sampled 1 hit in N (perf record -c "
			"N --no-period, or -F N) are left out, as the CLI leaves them out: the analyses "
			"need every hit; "
			"those events are taken as not recorded\n",
			(unsigned long long)p->nr_subsampled);
	if (p->nr_filtered)
		fprintf(stderr,
			"tickscope.so: %llu samples of tracepoints recorded through a filter (perf "
			"record --filter or --exclude-perf after their -e, in the file's command line) "
			"are left out, as the CLI leaves them out: the kernel wrote only the hits that "
			"pass, and the analyses need every hit; those events are taken as not "
			"recorded\n",
			(unsigned long long)p->nr_filtered);
	if (!info.args && p->nr_samples) /* its reader read the headers, and counted nothing */
		fprintf(stderr, "tickscope.so: %s: %s\n", ts_source_name(p->src),
			TS_NO_CMDLINE_WHY);
	if (nr_bad)
		fprintf(stderr,
			"tickscope.so: %llu of %llu samples did not decode; the first: %s\n",
			(unsigned long long)nr_bad, (unsigned long long)p->nr_samples, first_bad);
	plugin_free(p);
	return ret;
}
