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
 * Stream @in into @out, every concatenated stream as xz does. Return: 0, a positive errno
 * (reading or writing, @why set) or -1 with @why set to liblzma's reason.
 */
static int unpack(int in, int out, uint8_t *ibuf, uint8_t *obuf, char *why, size_t n)
{
	static const uint8_t magic[6] = { 0xfd, '7', 'z', 'X', 'Z', 0 };
	lzma_stream s = LZMA_STREAM_INIT;
	lzma_action act = LZMA_RUN;
	lzma_ret r;
	ssize_t got;
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
			got = read(in, ibuf, BUF);
			if (got < 0 && errno == EINTR)
				continue;
			if (got < 0) {
				err = errno;
				snprintf(why, n, "xz: %s", strerror(err));
				break;
			}
			/* xz(1) judges the format by the magic alone: "junk" is not "cut short" */
			if (first &&
			    (got < (ssize_t)sizeof(magic) || memcmp(ibuf, magic, sizeof(magic)))) {
				snprintf(why, n, "xz: %s", lzma_why(LZMA_FORMAT_ERROR));
				err = -1;
				break;
			}
			first = 0;
			s.next_in = ibuf;
			s.avail_in = (size_t)got;
			if (!got)
				act = LZMA_FINISH;
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
