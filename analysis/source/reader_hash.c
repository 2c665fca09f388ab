// SPDX-License-Identifier: GPL-2.0-only
/*
 * A regular file hashed as the run reads it (ts_reader_opts.sha256): compare checks each
 * trace's sha256 against its meta.txt, and a second read of the whole file for that cost a
 * third of a cold compare's CPU and ran before the reader started (docs/scale.md). The data
 * section goes into the hash as the scanner read()s it (perf_stream.c's fill()), on the
 * scanner's thread; the header before it and the feature sections after it, a few KiB, by
 * pread() here, before the scanner starts and after it is joined. Anything else (a pipe, a
 * -z file whose mapping is walked, a read out of order, a run stopped by an error) leaves the
 * hash incomplete, which ts_reader_hashed() says: the caller then hashes the file itself.
 */
#include <errno.h>
#include <unistd.h>

#include "reader_priv.h"
#include "tickscope/sha256.h"

#define NOT_HASHED UINT64_MAX

/* Hash [@from, @to) of the file by pread(). Return: 0, or -1 if it could not be read whole. */
static int hash_range(struct ts_reader *r, uint64_t from, uint64_t to)
{
	unsigned char buf[64 * 1024];

	while (from < to) {
		size_t want = to - from < sizeof(buf) ? (size_t)(to - from) : sizeof(buf);
		ssize_t n = pread(r->fd, buf, want, (off_t)from);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		ts_sha256_update(r->opts.sha256, buf, (size_t)n);
		from += (uint64_t)n;
	}
	return 0;
}

void ts_hash_begin(struct ts_reader *r)
{
	r->hashed = 0;
	r->s.sha_next = NOT_HASHED;
	/* the scanner read()s the data section in order unless it walks the mapping */
	if (!r->opts.sha256 || r->m.info.kind != TS_INPUT_FILE || !r->use_runs ||
	    (r->map_input && !r->scan_read) || r->s.in.end)
		return;
	if (!hash_range(r, 0, r->hdr.data.offset))
		r->s.sha_next = r->hdr.data.offset;
}

void ts_hash_read(struct ts_scanner *sc, uint64_t at, const void *p, size_t n)
{
	if (sc->sha_next != at) { /* not the next bytes of the file: the hash is not whole */
		sc->sha_next = NOT_HASHED;
		return;
	}
	ts_sha256_update(sc->r->opts.sha256, p, n);
	sc->sha_next += n;
}

void ts_hash_end(struct ts_reader *r, int ret)
{
	unsigned char c;

	if (ret || r->s.sha_next != r->s.data_end || hash_range(r, r->s.data_end, r->file_size))
		return;
	/* the file as it was opened, and no longer since: else it is hashed again by the caller */
	r->hashed = pread(r->fd, &c, 1, (off_t)r->file_size) == 0;
}

int ts_reader_hashed(const struct ts_reader *r, long long *size)
{
	*size = (long long)r->file_size;
	return r->hashed;
}
