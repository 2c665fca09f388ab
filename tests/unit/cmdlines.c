// SPDX-License-Identifier: GPL-2.0-only
/*
 * ts_cmdlines_check(), which stands in for tep_parse_saved_cmdlines() (the tracing data's saved
 * cmdlines are checked, not parsed), held against libtraceevent itself: on hand-written lines
 * (blanks, signs, numbers at the edge of a long, NULs, empty lines) and on 20,000 texts of random
 * lines, it refuses exactly what libtraceevent refuses; and the line it names is the first one
 * refused: the text before it is taken, the text up to its end is not.
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "tap.h"
#include "source/tracedata.h"

/*
 * Under SANITIZE=1: libtraceevent 1.7.1's tep_parse_saved_cmdlines() leaks what sscanf()'s %m
 * allocated for a line it refuses (the oracle's leak, in this test only: tickscope no longer
 * calls it). The stack LeakSanitizer sees ends in libc, so it is named by sscanf's frame.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:__vfscanf_internal\n";
}

/* libtraceevent's answer on @len bytes of @text (which it reads up to a NUL): 0 takes it */
static int tep_refuses(const char *text, size_t len)
{
	struct tep_handle *tep = tep_alloc();
	char *s = malloc(len + 1);
	int ret;

	if (!tep || !s) {
		tep_free(tep);
		free(s);
		return -2;
	}
	memcpy(s, text, len);
	s[len] = 0;
	ret = tep_parse_saved_cmdlines(tep, s) != 0;
	free(s);
	tep_free(tep);
	return ret;
}

/* Do the two agree on @text, and is the line named the first refused? Diagnoses when not. */
static int agree(const char *text, size_t len)
{
	size_t at = ts_cmdlines_check(text, len), eol;
	int tep = tep_refuses(text, len);

	if (tep != !!at) {
		diag("libtraceevent %s, ts_cmdlines_check() %zu on %zu bytes: \"%.*s\"",
		     tep ? "refuses" : "takes", at, len, (int)len, text);
		return 0;
	}
	if (!at)
		return 1;
	at--;
	for (eol = at; eol < len && text[eol] && text[eol] != '\n'; eol++)
		;
	if (at > len || (at && text[at - 1] != '\n') || tep_refuses(text, at) ||
	    !tep_refuses(text, eol)) {
		diag("line named at %zu is not the first refused: \"%.*s\"", at, (int)len, text);
		return 0;
	}
	return 1;
}

static const char *const hand[] = {
	"",
	"\n",
	"\n\n\n",
	"1 systemd\n2 kthreadd\n3 pool_workqueue_\n",
	"0 <idle>\n",
	"7 kworker/0:1H\n46 kworker/0:1H",
	"12",
	"12\n",
	"12 ",
	"12 \t \n",
	"12x",
	"12 x",
	"12\tx y z",
	" 12 x",
	"\t\v\f\r12 x",
	"+12 x",
	"-12 x",
	"+ 12 x",
	"- x",
	"+",
	"x 12",
	" ",
	"   \n",
	"\r\n",
	"1 a\n\n\n2 b\n",
	"1 a\n2\n3 c\n",
	"1 a\n2 b",
	"2147483648 big",
	"-2147483649 big",
	"9223372036854775807 max",
	"9223372036854775808 past",
	"-9223372036854775808 min",
	"-9223372036854775809 past",
	"+9223372036854775807 max",
	"0000000000000000000000000009223372036854775807 zeros",
	"99999999999999999999999999999999 huge",
	"18446744073709551615 u64",
	"18446744073709551616 u64+1",
	"92233720368547758070 ten",
	"1 name with blanks and / : + - in it",
	"1 \x01\x7f\xff",
	"\xff 1",
};

/*
 * The words of the random texts, split at '|' ("||" is the empty word); the word after the last
 * is a NUL byte.
 */
static const char words[] = "0|7|12|+|-| |\t|\v|\r|x|ab|\n|\n|\n||\xe9|9223372036854775807|"
			    "9223372036854775808|-9223372036854775808|00000000000000000000001|"
			    "99999999999999999999";

/* 20,000 texts of 1-12 random words, numbers at a long's edge among them */
static void random_texts(void)
{
	const char *word[32], *p;
	size_t wlen[32], nr = 0;
	unsigned long long seed = 0x33u;
	char text[512];
	int n, bad = 0, refused = 0;

	for (p = words; nr < 32; p += wlen[nr++] + 1) {
		word[nr] = p;
		wlen[nr] = strcspn(p, "|");
		if (!p[wlen[nr]]) {
			nr++;
			break;
		}
	}
	for (n = 0; n < 20000; n++) {
		size_t len = 0, w;
		int parts = 1 + (int)((seed >> 33) % 12), i;

		for (i = 0; i < parts; i++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			w = (seed >> 33) % (nr + 1);
			if (w == nr) {
				text[len++] = 0;
				continue;
			}
			memcpy(text + len, word[w], wlen[w]);
			len += wlen[w];
		}
		refused += !!ts_cmdlines_check(text, len);
		if (!agree(text, len) && ++bad > 5)
			break;
	}
	ok(!bad, "20,000 random texts: ts_cmdlines_check() agrees with libtraceevent (%d refused)",
	   refused);
	ok(refused > 1000 && refused < 19000, "the random texts hold both kinds (%d refused)",
	   refused);
}

int main(void)
{
	size_t i;

	for (i = 0; i < sizeof(hand) / sizeof(hand[0]); i++)
		ok(agree(hand[i], strlen(hand[i])),
		   "hand-written text %zu agrees with libtraceevent", i);
	/* NULs inside: the lengths count past them */
	ok(agree("1 a\0garbage after the NUL", 26),
	   "a NUL ends the text, as libtraceevent reads it");
	ok(agree("\0", 1), "a lone NUL is an empty text");
	ok(agree("1\0 a", 4), "a NUL inside a line ends it");
	ok(agree("1 a\n\0 2", 7), "a NUL after a good line ends the text");
	ok(agree("1 a\n 2\n\0", 8), "a pid without a name before a NUL is refused");
	ok(ts_cmdlines_check("1 a\n 2\n\0", 8) == 5, "... and named at its line's offset");
	random_texts();
	return tap_done();
}
