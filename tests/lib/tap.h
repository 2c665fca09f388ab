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

static int tap_n, tap_failed;

static inline int tap_ok(int cond, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static inline int tap_ok(int cond, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", cond ? "" : "not ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!cond) {
		tap_failed++;
		printf("#   failed at %s:%d\n", file, line);
	}
	fflush(stdout);
	return cond;
}

#define ok(cond, ...) tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
#define is_int(got, want, name)                                                               \
	do {                                                                                   \
		long long g_ = (long long)(got), w_ = (long long)(want);                       \
		if (!ok(g_ == w_, "%s", name))                                                 \
			printf("#   got %lld, want %lld\n", g_, w_);                               \
	} while (0)
#define diag(...) (printf("# " __VA_ARGS__), printf("\n"))

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
