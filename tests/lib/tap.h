/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A tiny TAP producer for C unit tests (run by prove). ok() records one test point; a test
 * binary ends with `return tap_done();`, which prints the plan and exits non-zero on failure.
 */
#ifndef TS_TAP_H
#define TS_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int tap_n, tap_failed, tap_last_failed;

/*
 * A failure is also told on stderr, which prove shows without -v: the test's number and
 * name, where it is, the condition as written and (is_int, and diag() after it) what came.
 */
static inline int tap_ok(int cond, const char *file, int line, const char *expr, const char *fmt,
			 ...) __attribute__((format(printf, 5, 6)));

static inline int tap_ok(int cond, const char *file, int line, const char *expr, const char *fmt,
			 ...)
{
	va_list ap;

	printf("%sok %d - ", cond ? "" : "not ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	tap_last_failed = !cond;
	if (!cond) {
		tap_failed++;
		fprintf(stderr, "#   failed test %d - ", tap_n);
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
		fprintf(stderr, "\n#   at %s:%d: ok(%s)\n", file, line, expr);
	}
	return cond;
}

/* A diagnostic line: on stderr right after a failed ok(), which it then explains. */
static inline void tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static inline void tap_diag(const char *fmt, ...)
{
	FILE *f = tap_last_failed ? stderr : stdout;
	va_list ap;

	fprintf(f, "# ");
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fprintf(f, "\n");
	fflush(f);
}

#define ok(cond, ...) tap_ok(!!(cond), __FILE__, __LINE__, #cond, __VA_ARGS__)
#define is_int(got, want, name)                                                               \
	do {                                                                                   \
		long long g_ = (long long)(got), w_ = (long long)(want);                       \
		if (!ok(g_ == w_, "%s", name))                                                 \
			tap_diag("  got %lld (%s), want %lld (%s)", g_, #got, w_, #want);      \
	} while (0)
#define diag(...) tap_diag(__VA_ARGS__)

static inline void tap_skip_all(const char *why)
{
	printf("1..0 # SKIP %s\n", why);
}

/*
 * A temporary file holding @text, for what reads a path (unlink() it when done). The path is
 * the same buffer at every call: one file at a time.
 */
static inline char *tap_tmp_file(const char *text)
{
	static char path[64];
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "/tmp/ts-test-XXXXXX");
	fd = mkstemp(path);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	return path;
}

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
