// SPDX-License-Identifier: GPL-2.0-only
/*
 * The source's kallsyms: which file (perf's rule: --kallsyms, else the running kernel's when
 * the build ids match, perf's build-id cache first for the reports' table), loading it, and
 * the printer's symbols, loaded on a thread of their own while the input is read.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/io.h"
#include "source_priv.h"
#include "tickscope/error.h"

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
	/* a compressed copy (the bundled kallsyms are .xz) fails on line 1: say what it is */
	const char *packed = ret == -TS_EKALLSYMS && line == 1 ? ts_packed_hint_file(path) : NULL;

	/*
	 * every address 0 (kptr_restrict): each would be named wrongly, and the tick told from the
	 * other hrtimers by a wrong name. A file's is refused; the running kernel's, read without
	 * the right to see addresses, keeps its warning (ts_ksyms_check()).
	 */
	if (!ret && ts_ksyms_all_zero(*kp) && strcmp(path, "/proc/kallsyms")) {
		ts_ksyms_free(*kp);
		*kp = NULL;
		snprintf(err, len, "%.300s: " TS_KSYMS_ALL_ZERO_WHY, path);
		return -TS_EKALLSYMS;
	}
	/* a path longer than the message is cut */
	if (ret == -TS_EKALLSYMS && !line)
		snprintf(err, len, "%.300s: no symbol in it (an empty kallsyms?)", path);
	else if (packed)
		snprintf(err, len, "%.300s: line 1: not a kallsyms line: %s", path, packed);
	else if (ret == -TS_EKALLSYMS)
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
void ts_source_check_ksyms(struct ts_source *s, const struct ts_ksyms *k, const char *path)
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
	ts_source_check_ksyms(s, k, path);
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
int ts_source_join_printer(struct ts_source *s)
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
		ret = ts_source_join_printer(s);
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
int ts_source_set_print_kallsyms(struct ts_source *s)
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
 * Whether the running kernel hides its addresses from this process (kptr_restrict, a user
 * without CAP_SYSLOG): /proc/kallsyms then reads 0 for every symbol, decided once per open
 * for every line alike. The first text symbol tells, text is never at 0 (per-CPU symbols
 * before it may be); reading stops there, on the first line when they show.
 */
static int running_ksyms_hidden(void)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	unsigned long long addr;
	char *line = NULL, type;
	size_t cap = 0;
	int hidden = 0;

	while (f && getline(&line, &cap, f) > 0)
		if (sscanf(line, "%llx %c", &addr, &type) == 2 && (type == 't' || type == 'T')) {
			hidden = !addr;
			break;
		}
	free(line);
	if (f)
		fclose(f);
	return hidden;
}

/*
 * perf's rule: --kallsyms if given, else the running kernel's only when the build ids match.
 * The reports' table takes perf's build-id cache copy first when there is one: the same
 * kernel's symbols, 5 MB of text to read instead of 36 ms of /proc/kallsyms formatting.
 * Either may come from another boot: ts_source_report_opts() moves the table as perf would
 * (KASLR), and the printer is moved here. A threaded source loads the table on a thread of
 * its own while the input is read.
 */
int ts_source_load_kallsyms(struct ts_source *s)
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
		/* each function would get a wrong name, the tick another's: left as addresses */
		if (path && running_ksyms_hidden()) {
			snprintf(s->kwarn, sizeof(s->kwarn),
				 "/proc/kallsyms: " TS_KSYMS_ALL_ZERO_WHY
				 ": not used, functions left as addresses");
			path = NULL;
			s->kfrom = TS_KALLSYMS_NONE;
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
	if ((s->opts.symbols & TS_SYMS_TABLE) && s->spare_ok && s->dec) {
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
			return ts_source_set_print_kallsyms(s);
	}
	return 0;
}
