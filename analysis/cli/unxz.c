// SPDX-License-Identifier: GPL-2.0-only
/*
 * .xz inputs unpacked with liblzma in this process: a child `xz -dc` per run was about half of
 * a cold compare's CPU time (issue 33). Errors are said in xz(1)'s words, which users know.
 */
#include <errno.h>
#include <fcntl.h>
#include <lzma.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/io.h"
#include "unxz.h"

#define BUF (64 * 1024)

/* xz(1)'s message for a liblzma result */
static const char *lzma_why(lzma_ret r)
{
	switch (r) {
	case LZMA_MEM_ERROR:
		return strerror(ENOMEM);
	case LZMA_FORMAT_ERROR:
		return "File format not recognized";
	case LZMA_OPTIONS_ERROR:
		return "Unsupported options";
	case LZMA_DATA_ERROR:
		return "Compressed data is corrupt";
	case LZMA_BUF_ERROR:
		return "Unexpected end of input";
	case LZMA_UNSUPPORTED_CHECK:
		return "Unsupported type of integrity check";
	default:
		return "Internal error (bug)";
	}
}

/*
 * The next piece of @in into @s, through @ibuf; at its end, *@act becomes LZMA_FINISH. The
 * @first must start with xz's magic. 0, or the error (an errno, or -1) with @why said.
 */
static int refill(int in, lzma_stream *s, uint8_t *ibuf, int first, lzma_action *act, char *why,
		  size_t n)
{
	static const uint8_t magic[6] = { 0xfd, '7', 'z', 'X', 'Z', 0 };
	ssize_t got;
	int err;

	do
		got = read(in, ibuf, BUF);
	while (got < 0 && errno == EINTR);
	if (got < 0) {
		err = errno;
		snprintf(why, n, "xz: %s", strerror(err));
		return err;
	}
	/* xz(1) judges the format by the magic alone: "junk" is not "cut short" */
	if (first && (got < (ssize_t)sizeof(magic) || memcmp(ibuf, magic, sizeof(magic)))) {
		snprintf(why, n, "xz: %s", lzma_why(LZMA_FORMAT_ERROR));
		return -1;
	}
	s->next_in = ibuf;
	s->avail_in = (size_t)got;
	if (!got)
		*act = LZMA_FINISH;
	return 0;
}

/*
 * Stream @in into @out, every concatenated stream as xz does. Return: 0, a positive errno
 * (reading or writing, @why set) or -1 with @why set to liblzma's reason.
 */
static int unpack(int in, int out, uint8_t *ibuf, uint8_t *obuf, char *why, size_t n)
{
	lzma_stream s = LZMA_STREAM_INIT;
	lzma_action act = LZMA_RUN;
	lzma_ret r;
	int err = 0, first = 1;

	r = lzma_stream_decoder(&s, UINT64_MAX, LZMA_CONCATENATED);
	if (r != LZMA_OK) {
		snprintf(why, n, "xz: %s", lzma_why(r));
		return -1;
	}
	s.next_out = obuf;
	s.avail_out = BUF;
	for (;;) {
		if (!s.avail_in && act == LZMA_RUN) {
			err = refill(in, &s, ibuf, first, &act, why, n);
			if (err)
				break;
			first = 0;
		}
		r = lzma_code(&s, act);
		if (!s.avail_out || r == LZMA_STREAM_END) {
			err = -ts_write_full(out, obuf, BUF - s.avail_out);
			if (err) {
				snprintf(why, n, "cannot write a temporary file: %s",
					 strerror(err));
				break;
			}
			s.next_out = obuf;
			s.avail_out = BUF;
		}
		if (r == LZMA_STREAM_END)
			break;
		if (r != LZMA_OK) {
			snprintf(why, n, "xz: %s", lzma_why(r));
			err = -1;
			break;
		}
	}
	lzma_end(&s);
	return err;
}

char *cli_unxz(const char *xz, char *why, size_t n)
{
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	uint8_t *ibuf = malloc(BUF), *obuf = malloc(BUF);
	char *path = NULL;
	int in = -1, out = -1, err;

	snprintf(why, n, "%s", strerror(ENOMEM));
	if (!ibuf || !obuf || asprintf(&path, "%s/tickscope-cmp-XXXXXX", tmp) < 0) {
		path = NULL;
		goto out_free;
	}
	in = open(xz, O_RDONLY | O_CLOEXEC);
	if (in < 0) {
		snprintf(why, n, "xz: %s", strerror(errno));
		goto out_path;
	}
	out = mkostemp(path, O_CLOEXEC);
	if (out < 0) {
		snprintf(why, n, "cannot create a temporary file in %s: %s", tmp, strerror(errno));
		goto out_path;
	}
	err = unpack(in, out, ibuf, obuf, why, n);
	if (close(out) && !err) {
		err = errno;
		snprintf(why, n, "%s: %s", path, strerror(err));
	}
	if (!err)
		goto out_free;
	unlink(path);
out_path:
	free(path);
	path = NULL;
out_free:
	if (in >= 0)
		close(in);
	free(ibuf);
	free(obuf);
	return path;
}
