// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the commands share: error messages (to a worker's own stream when it has one), the
 * input's warnings, option and operand checks, event names, times, and the charts' summary.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "cli.h"
#include "common/cache.h"
#include "common/io.h"
#include "tickscope/analysis.h"
#include "tickscope/chart.h"
#include "tickscope/compare_report.h"
#include "tickscope/decode.h"
#include "tickscope/ksyms.h"
#include "tickscope/reader.h"
#include "tickscope/report.h"
#include "tickscope/sha256.h"
#include "tickscope/source.h"

/* A worker's own stream for its messages, printed in input order once it is done. */
static __thread FILE *err_stream;

FILE *cli_err(void)
{
	return err_stream ? err_stream : stderr;
}

void cli_set_err(FILE *f)
{
	err_stream = f;
}

/*
 * One line, whatever the names in it hold: a newline or another control character of a file
 * name ("run\n1") is written as \n or \xHH, so that the message stays the one line it is.
 */
int cli_error(const char *fmt, ...)
{
	FILE *f = cli_err();
	char *msg = NULL;
	va_list ap;
	int n;

	fputs("tickscope: ", f);
	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	for (const char *c = n >= 0 ? msg : "out of memory"; *c; c++)
		if (*c == '\n')
			fputs("\\n", f);
		else if (((unsigned char)*c < 0x20 && *c != '\t') || *c == 0x7f)
			fprintf(f, "\\x%02x", (unsigned char)*c);
		else
			fputc(*c, f);
	if (n >= 0)
		free(msg);
	fputc('\n', f);
	return 1;
}

/* Samples of attrs the source does not decode (not tracepoints, or without raw data). */
static void undecoded(struct ts_source *src)
{
	const struct ts_reader *r = ts_source_reader(src);
	char buf[64];
	int k, nr;
	const struct ts_attr *a = ts_reader_attrs(r, &nr);

	for (k = 0; k < nr; k++) {
		char why[320];
		const char *w = ts_source_attr_left_out(src, &a[k], why, sizeof(why));

		if (w)
			fprintf(stderr, "tickscope: warning: %s: attr %d (%s) %s\n",
				ts_source_name(src), k,
				cli_event_name(r, ts_source_decoder(src), k, buf, sizeof(buf)), w);
		if (!a[k].nr_samples || ts_source_attr_decoded(&a[k]))
			continue;
		fprintf(stderr,
			"tickscope: warning: %s: %llu samples of attr %d (%s, type %u) not decoded: "
			"%s\n",
			ts_source_name(src), (unsigned long long)a[k].nr_samples, k,
			cli_event_name(r, ts_source_decoder(src), k, buf, sizeof(buf)), a[k].type,
			a[k].type == 2 /* PERF_TYPE_TRACEPOINT */ ?
				"recorded without their raw data" :
				"not a tracepoint");
	}
}

int cli_finish(struct ts_source *src, struct ts_analysis *a)
{
	if (src)
		ts_analysis_set_per_task(a, ts_reader_info(ts_source_reader(src))->per_task);
	return ts_analysis_finish(a);
}

void cli_warn_filters(FILE *out, const char *name, struct ts_source *src)
{
	const char *why = ts_source_filters_unknown(src);

	if (why)
		fprintf(out, "tickscope: warning: %s: %s\n", name, why);
}

void cli_warnings(struct ts_source *src)
{
	const struct ts_file_info *i;
	int k;

	if (!src || !ts_source_reader(src))
		return;
	if (ts_source_kallsyms_warning(src))
		fprintf(stderr, "tickscope: warning: %s\n", ts_source_kallsyms_warning(src));
	undecoded(src);
	cli_warn_filters(stderr, ts_source_name(src), src);
	i = ts_reader_info(ts_source_reader(src));
	for (k = 0; k < i->nr_warnings && k < TS_READER_MAX_WARNINGS; k++)
		fprintf(stderr, "tickscope: warning: %s\n", i->warnings[k]);
	if (i->nr_warnings > TS_READER_MAX_WARNINGS)
		fprintf(stderr, "tickscope: warning: %d more warnings about the input\n",
			i->nr_warnings - TS_READER_MAX_WARNINGS);
}

int cli_bad_option(const char *cmd, int c, char **argv)
{
	const char *arg = argv[optind - 1];

	if (c == ':')
		cli_error("%s: option '%s' needs a value (tickscope %s --help)", cmd, arg, cmd);
	else if (optopt && !(arg[0] == '-' && arg[1] == '-'))
		cli_error("%s: unknown option '-%c' (tickscope %s --help lists them)", cmd, optopt,
			  cmd);
	else
		cli_error("%s: unknown option '%s' (tickscope %s --help lists them)", cmd, arg,
			  cmd);
	return 2;
}

int cli_check_operands(const char *cmd, const char *opt_i, int argc, char **argv, int optind_)
{
	if (opt_i && optind_ < argc)
		return cli_error("%s: one input file: -i %s and '%s' were both given", cmd, opt_i,
				 argv[optind_]) +
		       1;
	if (optind_ + 1 < argc)
		return cli_error("%s: one input file expected, got %d ('%s', '%s'%s)", cmd,
				 argc - optind_, argv[optind_], argv[optind_ + 1],
				 argc - optind_ > 2 ? ", ..." : "") +
		       1;
	return 0;
}

const char *cli_input(const char *opt_i, int argc, char **argv, int optind_)
{
	if (opt_i)
		return opt_i;
	if (optind_ < argc)
		return argv[optind_];
	return "perf.data";
}

const char *cli_event_name(const struct ts_reader *r, struct ts_decoder *d, int idx, char *buf,
			   size_t len)
{
	const struct ts_attr *a;
	const char *n;
	int nr;

	a = &ts_reader_attrs(r, &nr)[idx];
	if (a->name[0])
		return a->name;
	if (a->type == 2 && d && (n = ts_decoder_event_name(d, (int)a->config)))
		return n;
	snprintf(buf, len, "type%u:%#llx", a->type, (unsigned long long)a->config);
	return buf;
}

void cli_print_time(FILE *f, uint64_t ns)
{
	fprintf(f, "%llu.%09llu", (unsigned long long)(ns / 1000000000ULL),
		(unsigned long long)(ns % 1000000000ULL));
}

int cli_stdout_closed(void)
{
	int fl = fcntl(STDOUT_FILENO, F_GETFL);

	/* ts_stdio_guard()'s stand-in for a closed stdout is the one read-only stdout */
	return fl < 0 || (fl & O_ACCMODE) == O_RDONLY;
}

void cli_plot_summary(FILE *f, const struct ts_charts *cs)
{
	size_t i, drawn = 0;

	if (f == stdout && cli_stdout_closed()) /* the charts are the product, not this note */
		return;
	for (i = 0; i < cs->nr; i++)
		drawn += !cs->c[i].missing[0];
	fprintf(f, "tickscope: %zu chart%s (PNG and SVG) in %s/; redraw them with %s/plots.sh\n",
		drawn, drawn == 1 ? "" : "s", cs->dir, cs->dir);
	for (i = 0; i < cs->nr; i++)
		if (cs->c[i].missing[0])
			fprintf(f, "  not drawn: %s: %s\n", cs->c[i].name, cs->c[i].missing);
}

static char ksyms_buf[4096], formats_buf[4096];
static const char *ksyms_dir, *formats_dir;
static pthread_once_t cache_dirs_once = PTHREAD_ONCE_INIT;

static void find_cache_dirs(void)
{
	ksyms_dir = ts_ksyms_cache_dir(ksyms_buf, sizeof(ksyms_buf));
	formats_dir = ts_decoder_cache_dir(formats_buf, sizeof(formats_buf));
}

/* Found once: compare's workers ask at the same time. */
const char *cli_ksyms_cache(void)
{
	pthread_once(&cache_dirs_once, find_cache_dirs);
	return ksyms_dir;
}

/* Found once, with the kallsyms folder */
const char *cli_formats_cache(void)
{
	pthread_once(&cache_dirs_once, find_cache_dirs);
	return formats_dir;
}

/* The folder of compare's summaries in @buf (a local one: the runs load on several threads) */
static const char *summary_cache(char *buf, size_t len)
{
	return ts_cache_dir("TS_SUMMARY_CACHE", "summaries", buf, len);
}

char *cli_cache_file(const char *data, const char *suffix)
{
	char buf[4096], hex[TS_SHA256_HEX], *real, *p;
	const char *dir = summary_cache(buf, sizeof(buf));
	struct ts_sha256 s;

	real = dir ? realpath(data, NULL) : NULL;
	if (!real)
		return NULL;
	ts_sha256_init(&s);
	ts_sha256_update(&s, real, strlen(real));
	ts_sha256_final(&s, hex);
	free(real);
	return asprintf(&p, "%s/%s%s", dir, hex, suffix) < 0 ? NULL : p;
}

int cli_cache_mkdir(int *lock)
{
	char buf[4096];
	const char *dir = summary_cache(buf, sizeof(buf));

	*lock = -1;
	if (!dir || ts_mkdir_p(dir, 0700))
		return -1;
	*lock = ts_cache_lock(dir);
	return 0;
}

void cli_cache_used(const char *path)
{
	static const char *const suffixes[] = { ".tsum", ".tplot", NULL };
	const char *slash = strrchr(path, '/');
	char *dir = slash ? strndup(path, (size_t)(slash - path)) : NULL;

	if (!dir)
		return;
	ts_cache_prune(dir, suffixes, ts_cache_cap("TS_SUMMARY_CACHE_MB", CLI_SUMMARY_CACHE_MB),
		       slash + 1);
	free(dir);
}

char *cli_join(const char *dir, const char *name)
{
	char *p;

	return asprintf(&p, "%s/%s", dir, name) < 0 ? NULL : p;
}

int cli_ends_with(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);

	return n >= m && !strcmp(s + n - m, suf);
}

const char *cli_file_kind(mode_t m)
{
	return S_ISDIR(m)  ? "a directory" :
	       S_ISCHR(m)  ? "a character device" :
	       S_ISBLK(m)  ? "a block device" :
	       S_ISFIFO(m) ? "a FIFO" :
	       S_ISSOCK(m) ? "a socket" :
			     "not a regular file";
}

/*
 * Whether the folder @dir takes a new file, asked before any work and without creating one:
 * access() passes for root on /proc and /sys, where a new file is refused only once it is
 * opened, so an unnamed O_TMPFILE inode (gone at close, never in the folder) is tried; a
 * file system without O_TMPFILE (NFS, vfat) is refused only when it is one of the kernel's
 * pseudo file systems. Return: 0, or an errno with *@why naming such a file system.
 */
static int dir_takes_files(const char *dir, const char **why)
{
	/* proc, sysfs, debugfs, tracefs, cgroup, cgroup2, securityfs, configfs, bpf, pstore */
	static const long pseudo[] = { 0x9fa0,	   0x62656572, 0x64626720, 0x74726163, 0x27e0eb,
				       0x63677270, 0x73636673, 0x62656570, 0xcafe4a11, 0x6165676c };
	struct statfs sf;
	size_t i;
	int fd;

	*why = NULL;
	if (access(dir, W_OK | X_OK))
		return errno;
	fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	if (errno != EOPNOTSUPP && errno != EISDIR) /* EISDIR: kernels before O_TMPFILE */
		return errno;
	if (statfs(dir, &sf))
		return 0;
	for (i = 0; i < sizeof(pseudo) / sizeof(pseudo[0]); i++)
		if ((long)sf.f_type == pseudo[i]) {
			*why = "a kernel pseudo file system, where files are the kernel's";
			return EPERM;
		}
	return 0;
}

int cli_file_starts(const char *path, off_t size, const char *magic)
{
	size_t len = strlen(magic);
	char buf[64];
	int fd, ok;

	if (!size)
		return 1;
	if (len > sizeof(buf))
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return 0;
	ok = read(fd, buf, len) == (ssize_t)len && !memcmp(buf, magic, len);
	close(fd);
	return ok;
}

int cli_check_page(const char *opt, const char *path)
{
	struct stat st;
	const char *slash, *why;
	char *dir;
	int err;

	if (!*path)
		return cli_error("%s: an empty file name", opt);
	if (!stat(path, &st)) {
		if (!S_ISREG(st.st_mode))
			return cli_error("%s: %s, not a regular file: %s names the HTML page to "
					 "write",
					 path, cli_file_kind(st.st_mode), opt);
		if (!cli_file_starts(path, st.st_size, "<!DOCTYPE html>"))
			return cli_error("%s: not an HTML page (it does not start with "
					 "<!DOCTYPE html>): %s replaces only a page it wrote, not "
					 "this file",
					 path, opt);
		if (access(path, W_OK))
			return cli_error("%s: not writable: %s", path, strerror(errno));
		return 0;
	}
	if (errno != ENOENT)
		return cli_error("%s: %s", path, strerror(errno));
	/* nothing there yet: its folder must take a new file ("/x.html" is in "/") */
	slash = strrchr(path, '/');
	dir = !slash ? strdup(".") : strndup(path, slash == path ? 1 : (size_t)(slash - path));
	if (!dir)
		return cli_error("%s: %s", path, strerror(ENOMEM));
	err = dir_takes_files(dir, &why);
	if (err)
		cli_error("%s: cannot create a file in %s: %s", path, dir, why ?: strerror(err));
	free(dir);
	return err ? 1 : 0;
}

FILE *cli_page_open(const char *path, struct cli_page *pg)
{
	struct stat st;
	mode_t mode;
	FILE *f;
	int fd;

	pg->tmp = NULL;
	pg->target = realpath(path, NULL); /* through a link: the link stays */
	if (!pg->target && errno == ENOENT)
		pg->target = strdup(path);
	if (!pg->target || asprintf(&pg->tmp, "%s.XXXXXX", pg->target) < 0) {
		cli_error("cannot write %s: %s", path, strerror(errno));
		free(pg->target);
		return NULL;
	}
	fd = mkostemp(pg->tmp, O_CLOEXEC);
	if (fd < 0) {
		/* a folder that takes no new file, its page writable: written in place */
		free(pg->tmp);
		pg->tmp = NULL;
		f = fopen(pg->target, "w");
		if (!f) {
			cli_error("cannot write %s: %s", path, strerror(errno));
			free(pg->target);
		}
		return f;
	}
	cli_cleanup_file(pg->tmp);
	if (!stat(pg->target, &st)) {
		mode = st.st_mode & 07777;
	} else {
		mode = umask(0);
		umask(mode);
		mode = 0666 & ~mode;
	}
	fchmod(fd, mode);
	f = fdopen(fd, "w");
	if (!f) {
		cli_error("cannot write %s: %s", path, strerror(errno));
		close(fd);
		cli_page_close(NULL, pg, -ENOMEM);
	}
	return f;
}

int cli_page_close(FILE *f, struct cli_page *pg, int err)
{
	if (f && !err)
		err = ts_fclose_err(f);
	else if (f)
		fclose(f);
	if (!err && pg->tmp && rename(pg->tmp, pg->target))
		err = -errno;
	if (pg->tmp) {
		if (err)
			unlink(pg->tmp);
		cli_cleanup_file(NULL);
	}
	free(pg->tmp);
	free(pg->target);
	pg->tmp = pg->target = NULL;
	return err;
}

int cli_check_dir(const char *opt, const char *dir)
{
	struct stat st;
	const char *slash, *why;
	char *parent;
	int err;

	if (!*dir)
		return cli_error("%s: an empty folder name", opt);
	if (!stat(dir, &st)) {
		if (!S_ISDIR(st.st_mode))
			return cli_error("%s: %s, not a folder: %s names the folder to write into",
					 dir,
					 S_ISREG(st.st_mode) ? "a file" : cli_file_kind(st.st_mode),
					 opt);
		/* one that takes no file was found only at the first table, the trace read */
		err = dir_takes_files(dir, &why);
		if (err)
			return cli_error("%s: cannot write into it: %s: %s names the folder to "
					 "write into",
					 dir, why ?: strerror(err), opt);
		return 0;
	}
	if (errno != ENOENT)
		return cli_error("%s: %s", dir, strerror(errno));
	/* mkdir() says EEXIST there, taken for the folder: "No such file" once the trace was read */
	if (!lstat(dir, &st) && S_ISLNK(st.st_mode))
		return cli_error(
			"%s: a symbolic link to nothing: %s names the folder to write into", dir,
			opt);
	/* made later with mkdir(), not mkdir -p: its parent must be there and take it */
	slash = strrchr(dir, '/');
	while (slash && slash > dir && slash[1] == '\0') /* "out/" names out */
		slash = memrchr(dir, '/', (size_t)(slash - dir));
	parent = !slash ? strdup(".") : strndup(dir, slash == dir ? 1 : (size_t)(slash - dir));
	if (!parent)
		return cli_error("%s: %s", dir, strerror(ENOMEM));
	err = dir_takes_files(parent, &why);
	if (err)
		cli_error("%s: cannot create it in %s: %s", dir, parent, why ?: strerror(err));
	free(parent);
	return err ? 1 : 0;
}

/* Whether @dir/@name is a regular file whose first line is @mark. */
static int marked(const char *dir, const char *name, const char *mark)
{
	char path[4096], line[256];
	size_t len = strlen(mark);
	ssize_t n = -1;
	int fd;

	if (len > sizeof(line) ||
	    snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
		return 0;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, line, len);
	close(fd);
	return n == (ssize_t)len && !memcmp(line, mark, len);
}

/*
 * Whether @dir is tickscope's: charts drawn there before (charts.tsv), or the tables of
 * report --tsv (sections.tsv) or compare --tsv (runs.tsv), none of whose names is a chart's.
 */
static int charts_index_ours(const char *dir)
{
	return marked(dir, "charts.tsv", CLI_CHARTS_HEADER) ||
	       marked(dir, "sections.tsv", TS_REPORT_TSV_MARK) ||
	       marked(dir, "runs.tsv", TS_COMPARE_TSV_MARK);
}

/* Whether a chart, its data, its script or plots.sh could be named @name. */
static int chart_like(const char *name)
{
	static const char *const ext[] = { ".png", ".svg", ".tsv", ".gp" };
	size_t len = strlen(name), e, l;

	if (!strcmp(name, "plots.sh"))
		return 1;
	for (e = 0; e < sizeof(ext) / sizeof(ext[0]); e++) {
		l = strlen(ext[e]);
		if (len > l && !strcmp(name + len - l, ext[e]))
			return 1;
	}
	return 0;
}

int cli_check_charts_dir(const char *opt, const char *dir, const struct ts_out_keep *keep)
{
	char path[4096];
	struct dirent *e;
	struct stat st;
	int ret = 0;
	DIR *d;

	if (cli_check_dir(opt, dir))
		return 1;
	d = opendir(dir);
	if (!d) /* not there yet: made empty later */
		return errno == ENOENT ? 0 : cli_error("%s: %s", dir, strerror(errno));
	if (charts_index_ours(dir))
		goto close;
	while (!ret && (e = readdir(d))) {
		if (!chart_like(e->d_name) ||
		    snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >= (int)sizeof(path))
			continue;
		/* links are never written through (ts_fopen_w()), inputs never replaced: said so */
		if (lstat(path, &st) || !S_ISREG(st.st_mode) || ts_out_kept(keep, path))
			continue;
		ret = cli_error(
			"%s: %s is there, and no charts.tsv of tickscope's: a folder of other "
			"files, which charts could replace or remove; give %s a new or empty "
			"folder",
			dir, e->d_name, opt);
	}
close:
	closedir(d);
	return ret;
}
