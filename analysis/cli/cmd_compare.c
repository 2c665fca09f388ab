// SPDX-License-Identifier: GPL-2.0-only
/*
 * tickscope compare: N runs of each kernel variant, the benchmark's change with honest
 * statistics, and an explanation of it from the traces (text, --json or --tsv DIR).
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "common/map.h"
#include "compare_charts.h"
#include "jobs.h"
#include "compare_load.h"
#include "tickscope/compare_report.h"
#include "common/io.h"
#include "tickscope/error.h"
#include "tickscope/reader.h"
#include "tickscope/version.h"

#define MAX_BENCH 1024

static const char compare_help[] =
	"usage: tickscope compare [options] A B [C...]\n"
	"       tickscope compare [options] A/run-1 A/run-2 ... -- B/run-1 B/run-2 ...\n"
	"       tickscope compare [options] --bench OUT a1.data a2.data -- --bench OUT b1.data ...\n\n"
	"Compares kernel variants, each against the first (the baseline). A variant is a folder\n"
	"that `make record` wrote (run-N/ folders with perf.data[.xz], kallsyms[.xz], meta.txt,\n"
	"workload.out or stress-ng.yaml), or, between `--` separators, a list of run folders or\n"
	"perf.data files. Runs are the unit: per variant N, median, mean, sd and CV; the change\n"
	"is signed so that + is better, with its 95% CI and the Mann-Whitney U test's p-value.\n"
	"Trace metrics are compared too, with a multiple-comparison correction, and the\n"
	"benchmark's change is explained (docs/compare.md).\n\n"
	"  --json             one JSON document on stdout (docs/compare-json.md)\n"
	"  --tsv DIR          TSV tables into DIR (docs/compare-tsv.md)\n"
	"  --plots DIR        the charts (gnuplot PNG and SVG) with their data and commands into\n"
	"                     DIR (plots/README.md); each run's chart data is cached too\n"
	"  --html FILE        one self-contained HTML report: tables, explanation, charts,\n"
	"                     recording conditions and confounders; FILE must be new, empty\n"
	"                     or such a page (<!DOCTYPE html>): no other file is replaced\n"
	"  --comm NAME        the benchmark's tasks are NAME and NAME-* (default: from meta.txt's\n"
	"                     workload_cmd; stress-ng-<stressor> for stress-ng)\n"
	"  --bench FILE       the benchmark output of the next perf.data file given\n"
	"  --kallsyms FILE[,FILE...]\n"
	"                     the kernel symbols (a /proc/kallsyms copy, or .xz) that name the\n"
	"                     functions in the traces, as perf's --kallsyms: one file for every\n"
	"                     variant, or one per variant in order. It replaces a run folder's\n"
	"                     own kallsyms[.xz]; perf.data files given alone have none, and\n"
	"                     their timer and work functions are otherwise raw addresses\n"
	"  --names A,B,...    variant names (default: the folders' names)\n"
	"  --no-cache         recompute every run's summary (else cached in the user's cache)\n"
	"  --no-trace         compare the benchmark outputs only\n"
	"  --adjust METHOD    bh (Benjamini-Hochberg, default), holm or none\n"
	"  --welch            also Welch's t-test for the benchmark's result\n"
	"  --cv-max PCT       a variant is noisy above this coefficient of variation (10)\n"
	"  --allow-mismatch   compare runs whose meta.txt says the recorded kernel does not match\n"
	"                     their variant (variant_check=mismatch), or that ran another\n"
	"                     workload than the baseline's first run; refused otherwise\n"
	"  --all              every metric in the table, not only the significant ones\n"
	"  --top N            ranked changes shown per variant (10)\n"
	"  --metric-names     the metrics' raw names (docs/metrics.md) in the text, beside or\n"
	"                     instead of their words; the JSON and TSV always have them\n"
	"  --jobs N           runs loaded in parallel (default: $TS_JOBS, else one per online\n"
	"                     core); the output is the same for any N (--plots and --html\n"
	"                     load one at a time)\n"
	"  -h, --help         this text\n";

struct compare_args {
	struct load_opts lo;
	struct ts_cmp_opts co;
	struct ts_compare_report_opts ro;
	int json;
	const char *tsv;
	const char *plots, *html; /* --plots DIR, --html FILE */
	struct cmp_charts *cc; /* with either */
	char *names;
	const char *ksyms; /* --kallsyms, as given */
	const char *bench[MAX_BENCH];
	int nr_bench;
	int jobs; /* --jobs; 0: one per core */
};

/* The options whose value is checked (a number, a method); as option(). */
static int value_option(struct compare_args *a, int c)
{
	char *end;

	switch (c) {
	case 'a':
		if (!strcmp(optarg, "bh"))
			a->co.adjust = TS_ADJ_BH;
		else if (!strcmp(optarg, "holm"))
			a->co.adjust = TS_ADJ_HOLM;
		else if (!strcmp(optarg, "none"))
			a->co.adjust = TS_ADJ_NONE;
		else
			return cli_error("--adjust: expected bh, holm or none, got '%s'", optarg) +
			       1;
		return 0;
	case 'v':
		a->co.cv_max = strtod(optarg, &end) / 100;
		/* written so that nan and inf fail too: nan marked no variant noisy */
		return *end || end == optarg || !(a->co.cv_max > 0 && a->co.cv_max < 1e6) ?
			       cli_error("--cv-max: bad '%s'", optarg) + 1 :
			       0;
	case 'J': {
		long n = strtol(optarg, &end, 10);

		/* a long, not an int: 4294967297 must not wrap to 1 */
		a->jobs = n >= 1 && n <= INT_MAX ? (int)n : 0;
		return *end || end == optarg || !a->jobs ?
			       cli_error("--jobs: bad number '%s'", optarg) + 1 :
			       0;
	}
	case 'o':
		a->ro.top = cli_count(optarg);
		return !a->ro.top ? cli_error("--top: bad number '%s'", optarg) + 1 : 0;
	default:
		fputs(compare_help, stderr);
		return 2;
	}
}

/* One option @c of compare's; Return: 0 go on, -1 done (--help), else the exit code. */
static int option(struct compare_args *a, int c)
{
	switch (c) {
	case 'j':
		a->json = 1;
		return 0;
	case 'T':
		a->tsv = optarg;
		return 0;
	case 'P':
		a->plots = optarg;
		return 0;
	case 'H':
		a->html = optarg;
		return 0;
	case 'C':
		a->lo.comm = optarg;
		return cli_comm(optarg);
	case 'b':
		return 0; /* taken in order with the inputs (collect_inputs) */
	case 'K':
		a->ksyms = optarg;
		return 0;
	case 'N':
		a->names = optarg;
		return 0;
	case 'n':
		a->lo.no_cache = 1;
		return 0;
	case 't':
		a->lo.no_trace = 1;
		return 0;
	case 'w':
		a->co.welch = 1;
		return 0;
	case 'A':
		a->ro.all = 1;
		return 0;
	case 'M':
		a->lo.allow_mismatch = 1;
		return 0;
	case 'm':
		a->ro.metric_names = 1;
		return 0;
	case 'h':
		fputs(compare_help, stdout);
		return -1;
	default:
		return value_option(a, c);
	}
}

static const struct option longopts[] = {
	{ "json", no_argument, NULL, 'j' },
	{ "tsv", required_argument, NULL, 'T' },
	{ "comm", required_argument, NULL, 'C' },
	{ "bench", required_argument, NULL, 'b' },
	{ "kallsyms", required_argument, NULL, 'K' },
	{ "names", required_argument, NULL, 'N' },
	{ "no-cache", no_argument, NULL, 'n' },
	{ "no-trace", no_argument, NULL, 't' },
	{ "adjust", required_argument, NULL, 'a' },
	{ "welch", no_argument, NULL, 'w' },
	{ "cv-max", required_argument, NULL, 'v' },
	{ "allow-mismatch", no_argument, NULL, 'M' },
	{ "all", no_argument, NULL, 'A' },
	{ "top", required_argument, NULL, 'o' },
	{ "metric-names", no_argument, NULL, 'm' },
	{ "jobs", required_argument, NULL, 'J' },
	{ "plots", required_argument, NULL, 'P' },
	{ "html", required_argument, NULL, 'H' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 },
};

struct group {
	struct run_in *in;
	int nr;
};

struct inputs {
	struct group g[TS_CMP_MAX_VAR + 1];
	int nr_groups; /* with --: groups; without: one group of variant folders */
	int dashes;
};

static int add_input(struct inputs *in, const char *path, const char **bench)
{
	struct group *g = &in->g[in->nr_groups];
	struct run_in *n = realloc(g->in, (g->nr + 1) * sizeof(*n));

	if (!n)
		return cli_error("out of memory");
	g->in = n;
	g->in[g->nr++] = (struct run_in){ path, *bench, NULL };
	*bench = NULL;
	return 0;
}

/* One option at argv[*i] ("--name", "--name=value", "-h"); Return: 0, or the exit code. */
static int one_option(struct compare_args *a, int argc, char **argv, int *i, const char **bench)
{
	const char *arg = argv[*i] + (argv[*i][1] == '-' ? 2 : 1), *eq = strchr(arg, '=');
	size_t n = eq ? (size_t)(eq - arg) : strlen(arg);

	if (!strcmp(argv[*i], "-h"))
		return option(a, 'h');
	for (const struct option *o = longopts; o->name; o++) {
		if (strlen(o->name) != n || strncmp(o->name, arg, n))
			continue;
		optarg = NULL;
		if (o->has_arg == required_argument) {
			if (!eq && *i + 1 >= argc) {
				cli_error("compare: option '--%s' needs a value "
					  "(tickscope compare --help)",
					  o->name);
				return 2;
			}
			optarg = eq ? (char *)eq + 1 : argv[++*i];
		} else if (eq) {
			return cli_error("--%s takes no value", o->name) + 1;
		}
		if (o->val == 'b')
			*bench = optarg;
		return option(a, o->val);
	}
	cli_error("compare: unknown option '%s' (tickscope compare --help lists them)", argv[*i]);
	return 2;
}

static int collect_inputs(struct compare_args *a, int argc, char **argv, struct inputs *in)
{
	const char *bench = NULL;
	int ret;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			if (!in->g[in->nr_groups].nr)
				return cli_error("compare: '--' with no run before it: '--' goes "
						 "between two variants' runs (A/run-1 A/run-2 -- "
						 "B/run-1 B/run-2)") +
				       1;
			if (in->nr_groups == TS_CMP_MAX_VAR - 1)
				return cli_error("at most %d variants", TS_CMP_MAX_VAR) + 1;
			in->nr_groups++;
			in->dashes = 1;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			ret = one_option(a, argc, argv, &i, &bench);
			if (ret)
				return ret;
		} else if (add_input(in, argv[i], &bench)) {
			return 1;
		}
	}
	if (bench)
		return cli_error("--bench %s: no perf.data file follows it", bench) + 1;
	if (in->dashes && !in->g[in->nr_groups].nr)
		return cli_error("compare: '--' with no run after it: '--' goes between two "
				 "variants' runs (A/run-1 A/run-2 -- B/run-1 B/run-2)") +
		       1;
	in->nr_groups++;
	return 0;
}

/*
 * One copy of each metric name, unit and reason for all runs (the loaders' threads share it):
 * thousands of runs carry the same few hundred names.
 */
struct names {
	pthread_mutex_t lock;
	struct ts_strix ix;
	char **s;
	size_t nr, cap;
};

static const char *name_at(const void *ctx, size_t i)
{
	return ((char *const *)ctx)[i];
}

static const char *intern(void *ctx, const char *s)
{
	struct names *n = ctx;
	const char *out = NULL;
	long i;

	pthread_mutex_lock(&n->lock);
	i = ts_strix_find(&n->ix, s, name_at, n->s);
	if (i >= 0) {
		out = n->s[i];
	} else {
		size_t cap = n->nr < n->cap ? n->cap : n->cap ? 2 * n->cap : 1024;
		char **g = cap == n->cap ? n->s : realloc(n->s, cap * sizeof(*g));
		char *c = g ? strdup(s) : NULL;

		if (g) {
			n->s = g;
			n->cap = cap;
		}
		if (c && !ts_strix_add(&n->ix, c, n->nr, name_at, n->s)) {
			n->s[n->nr++] = c;
			out = c;
		} else {
			free(c);
		}
	}
	pthread_mutex_unlock(&n->lock);
	return out;
}

static void names_release(struct names *n)
{
	for (size_t i = 0; i < n->nr; i++)
		free(n->s[i]);
	free(n->s);
	ts_strix_release(&n->ix);
	pthread_mutex_destroy(&n->lock);
}

struct variants {
	struct ts_cmp_variant v[TS_CMP_MAX_VAR];
	char *name[TS_CMP_MAX_VAR];
	int nr;
	struct names names;
};

/* A variant's runs, resolved before any is loaded; @paths are the run-N folders found. */
struct resolved {
	struct run_in *in;
	int nr;
	char **paths;
};

static int resolve_list(const struct run_in *in, int nr, struct resolved *rs)
{
	rs->in = calloc(nr, sizeof(*rs->in));
	if (!rs->in)
		return cli_error("out of memory");
	memcpy(rs->in, in, nr * sizeof(*in));
	rs->nr = nr;
	return 0;
}

static int resolve_folder(const char *path, struct resolved *rs)
{
	int n = variant_runs(path, &rs->paths);

	if (n <= 0)
		return cli_error("%s: no run-N folders (a variant folder as `make record` writes "
				 "it, or runs separated by --)",
				 path);
	rs->in = calloc(n, sizeof(*rs->in));
	if (!rs->in) {
		for (int i = 0; i < n; i++)
			free(rs->paths[i]);
		return cli_error("out of memory");
	}
	for (int i = 0; i < n; i++)
		rs->in[i].path = rs->paths[i];
	rs->nr = n;
	return 0;
}

static void free_resolved(struct resolved *rs)
{
	for (int i = 0; rs->paths && i < rs->nr; i++)
		free(rs->paths[i]);
	free(rs->paths);
	free(rs->in);
}

/* The runs to load, in input order, and where each goes. */
struct load_jobs {
	const struct run_in **in;
	struct ts_run **r;
	const struct load_opts *lo;
	long long *size; /* each run's bytes: the workers take the largest first */
};

static int load_one(void *ctx, int i)
{
	struct load_jobs *j = ctx;

	return load_run(j->in[i], j->lo, j->r[i]);
}

/*
 * Every run of every variant, in input order; with the charts one at a time, variant by
 * variant (the charts fold each run into its variant as it comes).
 */
static int load_all(const struct compare_args *a, const struct resolved *rs, struct variants *vs)
{
	struct load_opts lo = a->lo;
	struct load_jobs j = { .lo = &lo };

	lo.intern = intern;
	lo.intern_ctx = &vs->names;
	int total = 0, k = 0, err = 0, workers;

	for (int i = 0; i < vs->nr; i++)
		total += rs[i].nr;
	j.in = calloc(total, sizeof(*j.in));
	j.r = calloc(total, sizeof(*j.r));
	j.size = calloc(total, sizeof(*j.size));
	err = j.in && j.r && j.size ? 0 : cli_error("out of memory");
	for (int i = 0; i < vs->nr && !err; i++) {
		vs->v[i].runs = calloc(rs[i].nr, sizeof(*vs->v[i].runs));
		vs->v[i].nr_runs = rs[i].nr; /* released either way: unloaded ones are zero */
		err = vs->v[i].runs ? 0 : cli_error("out of memory");
		for (int r = 0; !err && r < rs[i].nr; r++, k++) {
			j.in[k] = &rs[i].in[r];
			j.r[k] = &vs->v[i].runs[r];
		}
	}
	workers = a->cc ? 1 : cli_jobs_workers(a->jobs, total);
	if (workers < 0)
		err = 1;
	lo.one_thread = workers > 1; /* the cores are the workers' */
	for (int i = 0; !err && workers > 1 && i < total; i++)
		j.size[i] = run_size(j.in[i]);
	if (!err && !a->cc)
		err = cli_jobs_sized(total, workers, load_one, &j, j.size);
	for (int i = 0, off = 0; !err && a->cc && i < vs->nr; off += rs[i++].nr) {
		struct load_jobs one = { j.in + off, j.r + off, &lo, NULL };

		err = cmp_charts_variant(a->cc, i) ?: cli_jobs(rs[i].nr, 1, load_one, &one);
	}
	ts_reader_arena_release(); /* what one worker here kept from run to run (keep_arena) */
	free(j.in);
	free(j.r);
	free(j.size);
	return err;
}

/* Folders of the same name (generic/stress-ramfs, rt/stress-ramfs) take their parent's too. */
static int unique_names(struct variants *vs, const struct inputs *in)
{
	int dup = 0;

	for (int i = 0; i < vs->nr; i++)
		for (int j = 0; j < i; j++)
			dup |= !strcmp(vs->name[i], vs->name[j]);
	for (int i = 0; dup && i < vs->nr; i++) {
		const char *path = in->dashes ? in->g[i].in[0].path : in->g[0].in[i].path;
		char *copy = strdup(path), *dir, *n;

		if (!copy)
			return cli_error("out of memory");
		dir = dirname(copy);
		if (asprintf(&n, "%s/%s", basename(dir), vs->name[i]) >= 0) {
			free(vs->name[i]);
			vs->name[i] = n;
			vs->v[i].name = n;
		}
		free(copy);
	}
	return 0;
}

/* --names, else the folder's name, else A, B, C... */
static int name_variants(struct variants *vs, const char *names, const struct inputs *in)
{
	char *list = names ? strdup(names) : NULL, *save = NULL, *tok;

	tok = list ? strtok_r(list, ",", &save) : NULL;
	for (int i = 0; i < vs->nr; i++, tok = tok ? strtok_r(NULL, ",", &save) : NULL) {
		const char *path = in->dashes ? in->g[i].in[0].path : in->g[0].in[i].path;
		int folder = in->dashes ? in->g[i].nr == 1 && is_variant_dir(path) : 1;
		char *copy = strdup(path);

		if (tok)
			vs->name[i] = strdup(tok);
		else if (folder && copy)
			vs->name[i] = strdup(basename(copy));
		else if (asprintf(&vs->name[i], "%c", 'A' + i) < 0)
			vs->name[i] = NULL;
		free(copy);
		if (!vs->name[i]) {
			free(list);
			return cli_error("out of memory");
		}
		vs->v[i].name = vs->name[i];
	}
	free(list);
	if (!names && unique_names(vs, in))
		return 1;
	/* one name, two variants: their rows, TSV lines and charts could not be told apart */
	for (int i = 0; i < vs->nr; i++)
		for (int j = 0; j < i; j++)
			if (!strcmp(vs->name[i], vs->name[j]))
				return cli_error(
					"compare: variants %d and %d are both named '%s'%s", j + 1,
					i + 1, vs->name[i],
					names ? ": --names must name each once" :
						": the same folder twice? (--names tells them apart)");
	return 0;
}

/*
 * --kallsyms: one file for every variant, or one per variant; each readable. Into @out[i],
 * pointing into @buf (a copy of the option's value). Return: 0, or 1 said.
 */
static int split_ksyms(const char *arg, int nr, char *buf, const char **out)
{
	char *save = NULL, *tok;
	int n = 0;

	strcpy(buf, arg);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		FILE *f = n < nr ? fopen(tok, "r") : NULL;

		if (n < nr && !f)
			return cli_error("--kallsyms %s: %s", tok, strerror(errno));
		if (f)
			fclose(f);
		if (n < nr)
			out[n] = tok;
		n++;
	}
	if (n != 1 && n != nr)
		return cli_error("--kallsyms: %d files for %d variants: give one for all, or one "
				 "per variant in order",
				 n, nr);
	for (int i = n; i < nr; i++)
		out[i] = out[0];
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Fewer than two variants. One folder that holds variants' folders (make experiment's
 * results/experiments/NAME, a fixture's A/B) is named with its variants and how to give them.
 */
static int one_variant(const struct inputs *in)
{
	const char *dir = in->g[0].nr == 1 && !in->g[0].in[0].bench ? in->g[0].in[0].path : NULL;
	char *names[TS_CMP_MAX_VAR];
	char list[1024] = "";
	struct dirent *e;
	int n = 0, ret, dl;
	DIR *d;

	if (in->dashes || !dir || is_variant_dir(dir) || !(d = opendir(dir)))
		return cli_error("give at least two variants (see --help)");
	while ((e = readdir(d)) && n < TS_CMP_MAX_VAR) {
		char path[PATH_MAX];

		if (e->d_name[0] != '.' &&
		    snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) < (int)sizeof(path) &&
		    is_variant_dir(path) && (names[n] = strdup(e->d_name)))
			n++;
	}
	closedir(d);
	if (n < 2) {
		while (n)
			free(names[--n]);
		return cli_error("give at least two variants (see --help)");
	}
	qsort(names, n, sizeof(names[0]), by_name);
	dl = (int)strlen(dir);
	for (int i = 0; i < n; i++) {
		size_t l = strlen(list);

		snprintf(list + l, sizeof(list) - l, "%s%s", i ? ", " : "", names[i]);
	}
	while (dl > 1 && dir[dl - 1] == '/')
		dl--;
	ret = cli_error("give at least two variants (see --help): %s holds the variants %s; give "
			"two or more of them, the baseline first: tickscope compare "
			"%.*s/<baseline> %.*s/<variant>...",
			dir, list, dl, dir, dl, dir);
	while (n)
		free(names[--n]);
	return ret;
}

static int load_variants(const struct compare_args *a, const struct inputs *in, struct variants *vs)
{
	const char *ksyms[TS_CMP_MAX_VAR] = { 0 };
	char *kbuf = NULL;
	struct resolved rs[TS_CMP_MAX_VAR] = { 0 };
	int err = 0;

	vs->nr = in->dashes ? in->nr_groups : in->g[0].nr;
	if (vs->nr < 2)
		return cli_error("give at least two variants (see --help)");
	if (vs->nr > TS_CMP_MAX_VAR)
		return cli_error("at most %d variants", TS_CMP_MAX_VAR);
	if (a->cc && vs->nr > TS_PLOT_MAX_VARIANTS)
		return cli_error("--plots and --html draw at most %d variants",
				 TS_PLOT_MAX_VARIANTS);
	for (int i = 0; i < vs->nr && !err; i++) {
		const struct group *g = &in->g[in->dashes ? i : 0];
		const char *p = !in->dashes ? g->in[i].path : g->nr ? g->in[0].path : NULL;

		if (in->dashes && !g->nr)
			err = cli_error("variant %d has no runs", i + 1);
		else if (!in->dashes || (g->nr == 1 && is_variant_dir(p) && !g->in[0].bench))
			err = resolve_folder(p, &rs[i]);
		else
			err = resolve_list(g->in, g->nr, &rs[i]);
	}
	if (!err && a->ksyms) {
		kbuf = strdup(a->ksyms);
		err = kbuf ? split_ksyms(a->ksyms, vs->nr, kbuf, ksyms) :
			     cli_error("out of memory");
	}
	for (int i = 0; i < vs->nr && !err; i++)
		for (int r = 0; r < rs[i].nr; r++)
			rs[i].in[r].ksyms = ksyms[i];
	err = err ?: load_all(a, rs, vs);
	free(kbuf);
	for (int i = 0; i < vs->nr; i++)
		free_resolved(&rs[i]);
	return err ?: name_variants(vs, a->names, in);
}

/*
 * What a run ran, as "PROGRAM (FIRST BENCHMARK METRIC)": meta.txt's workload command's program
 * and the benchmark output's first figure. @buf: "" when neither is known.
 */
static const char *workload_of(const struct ts_run *r, char *buf, size_t n)
{
	const char *w = r->fact[TS_FACT_WORKLOAD], *m = NULL;

	for (int i = 0; i < r->nr && !m; i++)
		if (!strncmp(r->m[i].name, "bench.", 6))
			m = r->m[i].name + 6;
	snprintf(buf, n, "%.*s%s%s%s", w ? (int)strcspn(w, " ") : 0, w ? w : "", w && m ? " (" : "",
		 m ? m : "", w && m ? ")" : "");
	return buf;
}

/*
 * Every run against the baseline's first: a benchmark compared with another one gives no
 * figure worth printing (ping-pong latencies against stress-ng's bogo-ops). Refused, naming
 * both, unless --allow-mismatch.
 */
static int same_workload(const struct variants *vs, int allow)
{
	const struct ts_run *ref = vs->v[0].nr_runs ? &vs->v[0].runs[0] : NULL;
	char a[160], b[160];

	if (!ref || !*workload_of(ref, a, sizeof(a)))
		return 0;
	for (int i = 0; i < vs->nr; i++)
		for (int k = 0; k < vs->v[i].nr_runs; k++) {
			const struct ts_run *r = &vs->v[i].runs[k];

			if (!*workload_of(r, b, sizeof(b)) || !strcmp(a, b))
				continue;
			if (allow) {
				fprintf(cli_err(),
					"tickscope: warning: %s ran %s, %s ran %s: compared anyway "
					"(--allow-mismatch)\n",
					ref->label, a, r->label, b);
				return 0;
			}
			return cli_error("%s ran %s, but %s ran %s: not the same workload; "
					 "--allow-mismatch compares them anyway",
					 ref->label, a, r->label, b);
		}
	return 0;
}

static void free_variants(struct variants *vs, struct inputs *in)
{
	for (int i = 0; i < TS_CMP_MAX_VAR; i++) {
		for (int r = 0; r < vs->v[i].nr_runs; r++)
			ts_run_release(&vs->v[i].runs[r]);
		free(vs->v[i].runs);
		free(vs->name[i]);
	}
	for (int i = 0; i <= TS_CMP_MAX_VAR; i++)
		free(in->g[i].in);
	names_release(&vs->names);
}

static int write_out(const struct compare_args *a, const struct ts_cmp *c)
{
	char bad[4096] = "";
	int err;

	if (a->json)
		err = ts_compare_json(stdout, c, &a->ro);
	else if (a->tsv)
		err = ts_compare_tsv(a->tsv, c, bad, sizeof(bad));
	else
		err = ts_compare_text(stdout, c, &a->ro);
	if (fflush(stdout) && !err)
		err = ts_stream_err(stdout);
	if (err)
		return cli_error("writing the comparison%s%s: %s", a->tsv ? " to " : "",
				 bad[0] ? bad : (a->tsv ?: ""), ts_strerror(err));
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	struct cmp_charts cc = { 0 };
	struct compare_args a = { .lo.version = TS_SUMMARY_VERSION,
				  .co = { .alpha = 0.05, .cv_max = 0.10, .adjust = TS_ADJ_BH } };
	struct inputs in = { 0 };
	struct variants vs = { .names.lock = PTHREAD_MUTEX_INITIALIZER };
	struct ts_cmp *c = NULL;
	int ret = collect_inputs(&a, argc, argv, &in);

	if (ret) {
		free_variants(&vs, &in);
		return ret < 0 ? 0 : ret;
	}
	if (a.json && a.tsv)
		ret = cli_error("--json and --tsv exclude each other") + 1;
	if (!ret && a.html && cli_check_page("--html", a.html))
		ret = 1;
	/* the folders too, before the runs are loaded: not after minutes of work */
	if (!ret && a.tsv && cli_check_dir("--tsv", a.tsv))
		ret = 1;
	if (!ret && a.plots && cli_check_charts_dir("--plots", a.plots, NULL))
		ret = 1;
	if (!ret && (a.plots || a.html)) {
		a.cc = &cc;
		cmp_charts_init(&cc, &a.lo);
	}
	if (!ret && (in.dashes ? in.nr_groups : in.g[0].nr) < 2)
		ret = one_variant(&in) + 1;
	ret = ret ?: load_variants(&a, &in, &vs);
	ret = ret ?: same_workload(&vs, a.lo.allow_mismatch);
	if (!ret) {
		ret = ts_cmp_build(vs.v, vs.nr, &a.co, &c);
		ret = ret ? cli_error("comparing: %s", ts_strerror(ret)) : write_out(&a, c);
		if (!ret && a.cc)
			ret = cmp_charts_write(&cc, c, &a.ro, a.plots, a.html);
	}
	ts_cmp_free(c);
	free_variants(&vs, &in);
	cmp_charts_release(&cc);
	return ret == 2 && !vs.nr ? 2 : ret ? 1 : 0;
}
