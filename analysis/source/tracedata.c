// SPDX-License-Identifier: GPL-2.0-only
/*
 * The perf tracing data section (versions 0.5 and 0.6): split it into header_page, the ftrace
 * and event formats, kallsyms, printk formats and saved cmdlines, and hand each but the last to
 * libtraceevent.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <traceevent/event-parse.h>

#include "tickscope/error.h"
#include "tickscope/sha256.h"
#include "tracedata.h"

struct cur {
	const unsigned char *base, *p, *end;
	char *err;
	size_t errlen;
};

static int __attribute__((format(printf, 2, 3))) bad(struct cur *c, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!c->err)
		return -TS_ETRACEDATA;
	n = snprintf(c->err, c->errlen, "tracing data offset %#zx: ", (size_t)(c->p - c->base));
	if (n < 0 || (size_t)n >= c->errlen)
		return -TS_ETRACEDATA;
	va_start(ap, fmt);
	vsnprintf(c->err + n, c->errlen - n, fmt, ap);
	va_end(ap);
	return -TS_ETRACEDATA;
}

static int get_str(struct cur *c, const char **s, const char *what)
{
	const unsigned char *nul = memchr(c->p, 0, c->end - c->p);

	*s = "";
	if (!nul)
		return bad(c, "%s: no terminating NUL before the end of the section", what);
	*s = (const char *)c->p;
	c->p = nul + 1;
	return 0;
}

static int get_num(struct cur *c, int bytes, uint64_t *v, const char *what)
{
	uint32_t v32;

	*v = 0;
	if (c->end - c->p < bytes)
		return bad(c, "%s: the section ends %zu bytes into its %d-byte size", what,
			   (size_t)(c->end - c->p), bytes);
	if (bytes == 4) {
		memcpy(&v32, c->p, 4);
		*v = v32;
	} else {
		memcpy(v, c->p, 8);
	}
	c->p += bytes;
	return 0;
}

/* A u32/u64 size followed by that many bytes of text. */
static int get_blob(struct cur *c, int size_bytes, const unsigned char **blob, uint64_t *len,
		    const char *what)
{
	int ret = get_num(c, size_bytes, len, what);

	if (ret)
		return ret;
	if ((uint64_t)(c->end - c->p) < *len) {
		c->p -= size_bytes;
		return bad(c, "%s: its size says %llu bytes, but %zu are left in the section", what,
			   (unsigned long long)*len, (size_t)(c->end - c->p - size_bytes));
	}
	*blob = c->p;
	c->p += *len;
	return 0;
}

/* libtraceevent wants NUL-terminated text for kallsyms and printk formats. */
static int parse_blob(struct tep_handle *tep, const unsigned char *blob, uint64_t len,
		      int (*fn)(struct tep_handle *, const char *))
{
	char *s;
	int ret;

	if (!len)
		return 0;
	s = malloc(len + 1);
	if (!s)
		return -ENOMEM;
	memcpy(s, blob, len);
	s[len] = 0;
	ret = fn(tep, s);
	free(s);
	return ret;
}

/*
 * libtraceevent's printk parser reads past the end of a line without ": ", so every line must
 * look like perf writes it, `0xffffffff81e2c0d8 : "Start context switch"`, before it goes in.
 */
static int check_printk(struct cur *c, const unsigned char *blob, uint64_t len)
{
	const unsigned char *p = blob, *end = blob + len;

	while (p < end) {
		const unsigned char *nl = memchr(p, '\n', end - p), *e = nl ? nl : end;
		const unsigned char *colon = memchr(p, ':', e - p);

		if (e > p && (p[0] != '0' || !colon || e - colon < 4 || colon[1] != ' ' ||
			      colon[2] != '"' || e[-1] != '"' || memchr(p, 0, e - p))) {
			c->p = p;
			return bad(c, "malformed printk format line");
		}
		p = e + 1;
	}
	return 0;
}

/*
 * The saved cmdlines (pid and name of the tasks the kernel remembered) are never asked of
 * libtraceevent: thread names come from the COMM records, and nothing tickscope prints through
 * libtraceevent names a task by its pid. A kernel of 2024 or later keeps thousands of them
 * (6,552 here: a page's worth), and tep_parse_saved_cmdlines() scans each line with sscanf()
 * and copies it twice, in the probe child and again in the parent: 3-4 ms of CPU, 40% of a
 * report of 8,500 samples (issue 33). So they are only checked, and refused where
 * libtraceevent would refuse them: the text ends at its first NUL, lines are split at '\n'
 * (empty ones skipped), and each must be what sscanf("%d %m[^\n]") reads whole: blanks, a
 * sign, decimal digits within a long, blanks, at least one character more
 * (tests/unit/cmdlines.c holds this against libtraceevent itself).
 * Return: 0, or the offset in @blob of the first line refused, plus 1.
 */
size_t ts_cmdlines_check(const void *text, size_t len)
{
	const unsigned char *blob = text, *p = blob, *end, *nul = memchr(blob, 0, len);

	end = nul ? nul : blob + len;
	while (p < end) {
		const unsigned char *line = p, *nl = memchr(p, '\n', end - p), *e = nl ? nl : end;
		const unsigned char *q = line;
		unsigned long long v = 0, max = LONG_MAX, d;
		int digits = 0;

		p = e + 1;
		if (e == line)
			continue;
		while (q < e && isspace(*q))
			q++;
		if (q < e && (*q == '+' || *q == '-'))
			max += *q++ == '-';
		for (; q < e && isdigit(*q); q++, digits = 1) {
			d = *q - '0';
			/* once past max it stays there: strtol()'s ERANGE */
			v = v > (max - d) / 10 ? max + 1 : v * 10 + d;
		}
		while (q < e && isspace(*q))
			q++;
		if (!digits || v > max || q == e)
			return line - blob + 1;
	}
	return 0;
}

/* The event formats of the section, collected before any is handed to libtraceevent. */
struct fmt {
	const char *sys;
	const char *text;
	uint64_t len;
	int refused;
};

struct fmts {
	struct fmt *v;
	size_t nr, alloc;
};

/* The parts after the formats, parsed by libtraceevent too (text, NUL-terminated on copy). */
struct texts {
	const unsigned char *kallsyms, *printk, *cmdlines;
	uint64_t kallsyms_len, printk_len, cmdlines_len;
	const unsigned char *probed_end; /* the end of what a probe child parses: printk's */
};

/* "name: X" at @p (the start of a format), into @name; 0 if it is not there. */
static int format_name(const unsigned char *p, const unsigned char *end, char *name, size_t len)
{
	const unsigned char *nl;

	if (end - p < 7 || memcmp(p, "name: ", 6))
		return 0;
	nl = memchr(p + 6, '\n', end - p - 6 < 64 ? end - p - 6 : 64);
	if (!nl)
		return 0;
	snprintf(name, len, "%.*s", (int)(nl - p - 6), p + 6);
	return 1;
}

/* Which format: its index in the system, its name if it can be read, and the one before. */
static void format_what(char *what, size_t len, const char *sys, uint64_t i,
			const unsigned char *text, const unsigned char *end, const char *prev)
{
	char name[64];
	int n = snprintf(what, len, "event format %llu of system '%s'", (unsigned long long)i, sys);

	if (n < 0 || (size_t)n >= len)
		return;
	if (format_name(text, end, name, sizeof(name)))
		snprintf(what + n, len - n, " (%s:%s)", sys, name);
	else if (prev[0])
		snprintf(what + n, len - n, " (after %s:%s)", sys, prev);
}

static int collect_formats(struct cur *c, const char *sys, struct fmts *f)
{
	uint64_t nr, len, i;
	const unsigned char *blob;
	char what[160], prev[64] = "";
	int ret;

	snprintf(what, sizeof(what), "the event format count of system '%s'", sys);
	ret = get_num(c, 4, &nr, what);
	if (ret)
		return ret;
	if (nr > (uint64_t)(c->end - c->p) / 8) {
		c->p -= 4;
		return bad(c, "%s is %llu: more than the %zu bytes left in the section can hold",
			   what, (unsigned long long)nr, (size_t)(c->end - c->p - 4));
	}
	for (i = 0; i < nr; i++) {
		format_what(what, sizeof(what), sys, i, c->end - c->p > 8 ? c->p + 8 : c->end,
			    c->end, prev);
		ret = get_blob(c, 8, &blob, &len, what);
		if (ret)
			return ret;
		/* a wrong size earlier puts the next format's start inside other text */
		if (!format_name(blob, blob + len, prev, sizeof(prev))) {
			c->p = blob;
			return bad(c,
				   "%s of %llu bytes does not start with \"name: \" (is the size "
				   "of this or the format before it wrong?)",
				   what, (unsigned long long)len);
		}
		if (f->nr == f->alloc) {
			size_t a = f->alloc ? f->alloc * 2 : 256;
			void *v = realloc(f->v, a * sizeof(*f->v));

			if (!v)
				return -ENOMEM;
			f->v = v;
			f->alloc = a;
		}
		f->v[f->nr++] = (struct fmt){ sys, (const char *)blob, len, 0 };
	}
	return 0;
}

/* What the probe child runs: steps 0..nr-1 are formats, then kallsyms and printk. */
static int probe_step(struct tep_handle *tep, const struct fmts *f, const struct texts *t,
		      size_t step)
{
	if (step < f->nr)
		return tep_parse_event(tep, f->v[step].text, f->v[step].len, f->v[step].sys);
	if (step == f->nr)
		return parse_blob(tep, t->kallsyms, t->kallsyms_len, tep_parse_kallsyms);
	return parse_blob(tep, t->printk, t->printk_len, tep_parse_printk_formats);
}

/* Is @m the format of event @name? */
static int format_is(const struct fmt *m, const char *name)
{
	const unsigned char *p = (const unsigned char *)m->text;
	char got[64];

	return format_name(p, p + m->len, got, sizeof(got)) && !strcmp(got, name);
}

/* What the probe child's shared word holds before its first step and after its last */
#define PROBE_NOTHING (UINT32_MAX - 1)
#define PROBE_DONE UINT32_MAX

/*
 * libtraceevent 1.7 crashes on some malformed formats (a truncated print fmt, say), and no
 * static check can know them all. So a child process parses everything first, writing which
 * step it starts before each one into a word shared with the parent; if it dies, the step it
 * was in is refused and a new child goes on after it. A clean file costs one fork, and the
 * parent sleeps in waitpid() until the child ends (through a pipe, it was woken at every
 * step: two context switches a format). Returns the step that crashed, SIZE_MAX when none
 * did, or SIZE_MAX - 1 when the child could not be had or told nothing (then everything is
 * parsed unguarded, as perf does).
 */
static size_t probe(const struct fmts *f, const struct texts *t, size_t first)
{
	size_t steps = f->nr + 2, step;
	/* the tests' switch: the child dies in the format of this name, as libtraceevent may */
	const char *crash = getenv("TS_PROBE_CRASH");
	volatile uint32_t *at;
	int status, devnull;
	uint32_t last;
	pid_t pid;

	at = mmap(NULL, sizeof(*at), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (at == MAP_FAILED)
		return SIZE_MAX - 1;
	*at = PROBE_NOTHING;
	pid = fork();
	if (pid < 0) {
		munmap((void *)at, sizeof(*at));
		return SIZE_MAX - 1;
	}
	if (pid == 0) {
		struct tep_handle *tep = tep_alloc();

		/* a sanitizer or libtraceevent report here is not ours to print */
		devnull = open("/dev/null", O_WRONLY);
		if (devnull >= 0)
			dup2(devnull, 2);
		signal(SIGSEGV, SIG_DFL);
		signal(SIGBUS, SIG_DFL);
		signal(SIGFPE, SIG_DFL);
		signal(SIGILL, SIG_DFL);
		signal(SIGABRT, SIG_DFL);
		for (step = first; tep && step < steps; step++) {
			if (f->nr && step < f->nr && f->v[step].refused)
				continue;
			*at = step;
			if (crash && step < f->nr && format_is(&f->v[step], crash))
				raise(SIGSEGV);
			probe_step(tep, f, t, step);
		}
		*at = PROBE_DONE;
		_exit(0);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	last = *at;
	munmap((void *)at, sizeof(*at));
	if (last == PROBE_DONE && WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return SIZE_MAX; /* all clean */
	return last >= PROBE_NOTHING ? SIZE_MAX - 1 : last;
}

struct reject {
	ts_reject_fn fn;
	void *ctx;
};

static void refuse(struct fmt *m, const struct reject *rj, const char *why)
{
	char name[64];
	int id = ts_format_id(m->text, m->len, name, sizeof(name));

	m->refused = 1;
	if (rj->fn)
		rj->fn(rj->ctx, id, m->sys, name, why);
}

/*
 * The sections a probe child found clean in this process, by the sha256 of what it parsed
 * (all but the saved cmdlines): the same bytes parse the same way, so compare's runs of one
 * kernel and events fork one child, not one each (a fork and a child's parse cost about 5 ms
 * and 15% of a cold compare's CPU). Shared by every thread, as libtraceevent's plugin list is
 * (decode.c).
 */
#define NR_VETTED 16

/*
 * libtraceevent's format parser keeps its tokenizer in file-scope variables (the text being
 * parsed and the position in it), shared by every tep handle: two threads parsing formats or
 * a header page at once (compare's workers, each opening a run) would read each other's text.
 * Every call into that tokenizer takes this lock; the rest of a parse runs unlocked.
 */
static pthread_mutex_t tokenizer_lock = PTHREAD_MUTEX_INITIALIZER;

static struct {
	pthread_mutex_t lock;
	char sum[NR_VETTED][TS_SHA256_HEX];
	unsigned int nr; /* sections remembered; the oldest is replaced beyond NR_VETTED */
} vetted_sums = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* Was the section @sum found clean before? With @add, remember it is. */
static int vetted_before(const char *sum, int add)
{
	unsigned int i, n;
	int seen = 0;

	pthread_mutex_lock(&vetted_sums.lock);
	n = vetted_sums.nr < NR_VETTED ? vetted_sums.nr : NR_VETTED;
	for (i = 0; i < n && !seen; i++)
		seen = !strcmp(vetted_sums.sum[i], sum);
	if (add && !seen)
		memcpy(vetted_sums.sum[vetted_sums.nr++ % NR_VETTED], sum, TS_SHA256_HEX);
	pthread_mutex_unlock(&vetted_sums.lock);
	return seen;
}

/*
 * The key of @f's marker in the cache folder (tracedata_cache.c): the probed bytes' @sum and
 * the formats refused before the probe. Return: 0, or -1 when there is none to be had.
 */
static int marker_key(char *key, size_t len, const char *sum, const struct fmts *f)
{
	size_t i, nr = 0, *refused = NULL;
	int ret;

	for (i = 0; i < f->nr; i++)
		nr += f->v[i].refused;
	if (nr && !(refused = malloc(nr * sizeof(*refused))))
		return -1;
	for (i = 0, nr = 0; i < f->nr; i++)
		if (f->v[i].refused)
			refused[nr++] = i;
	ret = ts_vetted_key(key, len, sum, refused, nr);
	free(refused);
	return ret;
}

/*
 * Check every format, probe the rest in a child (unless *@clean says a probe of the same bytes
 * found nothing, or @cache holds a marker saying so for the @sum of the bytes), and parse what
 * survived. *@clean: whether the probe found nothing. The tests' crash switch (TS_PROBE_CRASH)
 * neither reads nor leaves a marker.
 */
static int parse_formats(struct tep_handle *tep, struct cur *c, struct fmts *f,
			 const struct texts *t, const struct reject *rj, int *clean,
			 const char *sum, const char *cache)
{
	char why[160], key[8192];
	size_t i, bad_step, from = 0;
	int keyed = 0;

	for (i = 0; i < f->nr; i++)
		if (ts_format_check(f->v[i].text, f->v[i].len, why, sizeof(why)))
			refuse(&f->v[i], rj, why);
	if (!*clean && cache && cache[0] && !getenv("TS_PROBE_CRASH")) {
		keyed = !marker_key(key, sizeof(key), sum, f);
		*clean = keyed && ts_vetted_cached(cache, key);
		keyed = keyed && !*clean;
	}
	for (; !*clean;) {
		bad_step = probe(f, t, from);
		*clean = bad_step == SIZE_MAX && !from;
		if (bad_step >= SIZE_MAX - 1)
			break;
		if (bad_step >= f->nr)
			return bad(c, bad_step == f->nr ?
					      "libtraceevent cannot parse the kallsyms" :
					      "libtraceevent cannot parse the printk formats");
		refuse(&f->v[bad_step], rj, "libtraceevent crashed parsing it");
		from = bad_step + 1;
	}
	if (keyed && *clean)
		ts_vetted_store(cache, key);
	pthread_mutex_lock(&tokenizer_lock);
	for (i = 0; i < f->nr; i++) {
		/* perf warns about a format that does not parse and goes on; so do we */
		if (!f->v[i].refused)
			tep_parse_event(tep, f->v[i].text, f->v[i].len, f->v[i].sys);
	}
	pthread_mutex_unlock(&tokenizer_lock);
	return 0;
}

/*
 * The fixed part before the formats: magic, version, endianness, long and page size, the
 * header_page and header_event blobs. Sets the handle's sizes; *@v06: version 0.6.
 */
static int parse_header(struct tep_handle *tep, struct cur *c, int *v06)
{
	const char *version, *name;
	const unsigned char *blob;
	uint64_t v, len;
	int ret, long_size;

	if (c->end - c->p < 10 || memcmp(c->p, "\027\010\104tracing", 10))
		return bad(c, "bad magic");
	c->p += 10;
	ret = get_str(c, &version, "version string");
	if (ret)
		return ret;
	if (strcmp(version, "0.5") && strcmp(version, "0.6"))
		return bad(c, "unsupported version (want 0.5 or 0.6)");
	*v06 = !strcmp(version, "0.6");
	if (c->end - c->p < 6)
		return bad(c, "cut short before the page size");
	if (c->p[0])
		return bad(c, "big-endian tracing data is not supported");
	if (c->p[1] != 4 && c->p[1] != 8)
		return bad(c, "long size is neither 4 nor 8");
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	long_size = c->p[1];
	tep_set_long_size(tep, long_size);
	c->p += 2;
	ret = get_num(c, 4, &v, "page size");
	if (ret)
		return ret;
	tep_set_page_size(tep, (int)v);

	ret = get_str(c, &name, "header_page name");
	if (!ret && strcmp(name, "header_page"))
		ret = bad(c, "expected header_page");
	if (!ret)
		ret = get_blob(c, 8, &blob, &len, "header_page");
	if (ret)
		return ret;
	pthread_mutex_lock(&tokenizer_lock);
	tep_parse_header_page(tep, (char *)blob, len, long_size);
	pthread_mutex_unlock(&tokenizer_lock);
	ret = get_str(c, &name, "header_event name");
	if (!ret && strcmp(name, "header_event"))
		ret = bad(c, "expected header_event");
	if (!ret)
		ret = get_blob(c, 8, &blob, &len, "header_event");
	return ret;
}

/*
 * The sections in the file's order: the header, the ftrace and the systems' event formats
 * (collected, parsed later), kallsyms, printk formats (checked) and saved cmdlines (checked).
 */
static int read_sections(struct tep_handle *tep, struct cur *c, struct fmts *f, struct texts *t)
{
	const char *sys;
	uint64_t nr = 0, i; /* nr: 0 for -Wmaybe-uninitialized, which LTO provokes */
	size_t line;
	int ret, v06 = 0;

	ret = parse_header(tep, c, &v06);
	if (ret)
		return ret;
	ret = collect_formats(c, "ftrace", f);
	if (!ret)
		ret = get_num(c, 4, &nr, "system count");
	for (i = 0; !ret && i < nr; i++) {
		ret = get_str(c, &sys, "system name");
		if (!ret)
			ret = collect_formats(c, sys, f);
	}
	if (!ret)
		ret = get_blob(c, 4, &t->kallsyms, &t->kallsyms_len, "kallsyms");
	if (!ret)
		ret = get_blob(c, 4, &t->printk, &t->printk_len, "printk formats");
	if (!ret)
		ret = check_printk(c, t->printk, t->printk_len);
	t->probed_end = c->p;
	if (!ret && v06 && c->p < c->end)
		ret = get_blob(c, 8, &t->cmdlines, &t->cmdlines_len, "saved cmdlines");
	if (!ret && t->cmdlines_len && (line = ts_cmdlines_check(t->cmdlines, t->cmdlines_len))) {
		c->p = t->cmdlines + line - 1;
		ret = bad(c, "saved cmdlines: a line that is not \"PID NAME\"");
	}
	return ret;
}

int ts_tracedata_parse(struct tep_handle *tep, const void *data, size_t size, char *err,
		       size_t errlen, ts_reject_fn reject, void *ctx, int *kallsyms, int *vetted,
		       const char *cache)
{
	const struct reject rj = { reject, ctx };
	struct cur c = { data, data, (const unsigned char *)data + size, err, errlen };
	struct fmts f = { 0 };
	struct texts t = { 0 };
	int ret, probed = 0;
	char sum[TS_SHA256_HEX] = "";

	*kallsyms = 0;
	ret = read_sections(tep, &c, &f, &t);
	if (!ret && !*vetted) {
		struct ts_sha256 h;

		/*
		 * What the probe parses, up to the printk formats: not the saved cmdlines, which
		 * it leaves alone, which differ from run to run of one kernel and events, and
		 * which were 2/3 of the section's bytes to hash on a trace of 10k samples.
		 */
		ts_sha256_init(&h);
		ts_sha256_update(&h, data, (size_t)(t.probed_end - c.base));
		ts_sha256_final(&h, sum);
		*vetted = vetted_before(sum, 0);
		probed = !*vetted;
	}
	if (!ret)
		ret = parse_formats(tep, &c, &f, &t, &rj, vetted, sum, cache);
	if (!ret && probed && *vetted)
		vetted_before(sum, 1);
	free(f.v);
	if (ret)
		return ret;
	*kallsyms = t.kallsyms_len > 0;
	ret = parse_blob(tep, t.kallsyms, t.kallsyms_len, tep_parse_kallsyms);
	if (!ret)
		ret = parse_blob(tep, t.printk, t.printk_len, tep_parse_printk_formats);
	if (ret)
		return ret == -ENOMEM ? ret : bad(&c, "kallsyms or printk text");
	return 0;
}
