// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf.data headers: the file header, the attrs section with its ids, the feature sections
 * (file mode: each parsed by perf_feat.c, as their pipe-mode twins are), and the reader's
 * open/close and accessors. What the stages share (messages, ids, attrs) is perf_attr.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/io.h"
#include "reader_priv.h"

/* Read exactly @size bytes at @off, naming the offset on a short read. */
static int pread_all(struct ts_reader *r, void *buf, size_t size, uint64_t off, const char *what)
{
	size_t done = 0;

	while (done < size) {
		ssize_t n = pread(r->fd, (char *)buf + done, size - done, off + done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return ts_reader_fail(r, off + done, -errno, "reading %s: %s", what,
					      strerror(errno));
		if (n == 0)
			return ts_reader_fail(r, off + done, -TS_ETRUNC,
					      "%s ends early (%zu of %zu bytes)", what, done, size);
		done += n;
	}
	return 0;
}

static int read_attrs(struct ts_reader *r)
{
	const struct ts_file_header *h = &r->hdr;
	uint64_t nr, i, esz = h->attr_size;
	unsigned char *buf = NULL;
	uint64_t *ids = NULL;
	int ret;

	if (esz < PERF_ATTR_SIZE_VER0 + 16 || esz > 4096 || h->attrs.size % esz)
		return ts_reader_fail(r, 16, -TS_ECORRUPT, "bad attr size %llu (section %llu)",
				      (unsigned long long)esz, (unsigned long long)h->attrs.size);
	nr = h->attrs.size / esz;
	buf = malloc(esz);
	if (!buf)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		uint64_t off = h->attrs.offset + i * esz;
		struct ts_file_section ids_sec;

		ret = pread_all(r, buf, esz, off, "event attr");
		if (ret)
			goto out_free;
		memcpy(&ids_sec, buf + esz - 16, 16);
		if (ids_sec.size % 8 || ids_sec.size > (1u << 24)) {
			ret = ts_reader_fail(r, off + esz - 16, -TS_ECORRUPT,
					     "bad id section size %llu",
					     (unsigned long long)ids_sec.size);
			goto out_free;
		}
		free(ids);
		ids = malloc(ids_sec.size + 8);
		if (!ids) {
			ret = -ENOMEM;
			goto out_free;
		}
		ret = pread_all(r, ids, ids_sec.size, ids_sec.offset, "attr ids");
		if (ret)
			goto out_free;
		ret = ts_reader_add_attr(r, buf, esz - 16, ids, ids_sec.size / 8, off);
		if (ret)
			goto out_free;
	}
	ret = ts_reader_finish_attrs(r, h->attrs.offset);
out_free:
	free(ids);
	free(buf);
	return ret;
}

/*
 * The feature table holds one entry per feature bit, in bit order (perf leaves a zero entry
 * after them for a feature it reserved and could not write). A bit set or cleared by damage
 * shifts every later entry onto another feature, so sections were parsed as what they are
 * not: warnings, then an error, or wrong figures. The whole table is checked before any
 * section is read: an entry pointing into the file header, the data or the table itself, or
 * one more entry where the sections should start, is one error naming the table.
 */
static int check_feature_table(struct ts_reader *r, const struct ts_file_section *sec, int n,
			       uint64_t start)
{
	const struct ts_file_header *h = &r->hdr;
	uint64_t end = start + 16 * (uint64_t)n, first = UINT64_MAX, o, e, at;
	struct ts_file_section next;
	int feat, i = 0, ret;

	for (feat = 0; feat < TS_FEAT_MAX; feat++) {
		if (!(h->features[feat / 64] & (1ULL << (feat % 64))))
			continue;
		at = start + 16 * (uint64_t)i;
		o = sec[i].offset;
		e = o + sec[i++].size;
		if (e - o > (1ULL << 30))
			return ts_reader_fail(r, at, -TS_ECORRUPT, "feature %d claims %llu bytes",
					      feat, (unsigned long long)(e - o));
		if (o > r->file_size || e - o > r->file_size - o)
			return ts_reader_fail(
				r, at, -TS_ETRUNC,
				"feature %d section (%llu bytes at %#llx) is past the "
				"end of the file (%llu bytes)",
				feat, (unsigned long long)(e - o), (unsigned long long)o,
				(unsigned long long)r->file_size);
		if (o < h->size || (o < end && e > start) ||
		    (o < h->data.offset + h->data.size && e > h->data.offset))
			return ts_reader_fail(
				r, at, -TS_ECORRUPT,
				"feature table entry %d of %d (feature %d) points at "
				"%#llx, inside the header, the data or the table: the "
				"header's feature bits (offset 72) do not match the table",
				i, n, feat, (unsigned long long)o);
		if (o >= end && o < first)
			first = o;
	}
	if (!n || end + 16 > first || end + 16 > r->file_size)
		return 0;
	ret = pread_all(r, &next, sizeof(next), end, "feature index");
	if (ret || next.offset < h->size || next.offset > r->file_size ||
	    next.size > r->file_size - next.offset)
		return ret; /* perf's zero entry, or no entry at all */
	return ts_reader_fail(r, end, -TS_ECORRUPT,
			      "the feature table holds an entry past the %d its bits count (a "
			      "section at %#llx): the header's feature bits (offset 72) do not "
			      "match the table",
			      n, (unsigned long long)next.offset);
}

static int read_features(struct ts_reader *r)
{
	const struct ts_file_header *h = &r->hdr;
	uint64_t start = h->data.offset + h->data.size;
	struct ts_file_section sec[TS_FEAT_MAX];
	unsigned char *buf = NULL;
	int feat, n = 0, i = 0, ret;

	for (feat = 0; feat < TS_FEAT_MAX; feat++)
		n += !!(h->features[feat / 64] & (1ULL << (feat % 64)));
	ret = n ? pread_all(r, sec, sizeof(sec[0]) * n, start, "feature index") : 0;
	ret = ret ?: check_feature_table(r, sec, n, start);
	for (feat = 0; feat < TS_FEAT_MAX && !ret; feat++) {
		const struct ts_file_section *s = &sec[i];

		if (!(h->features[feat / 64] & (1ULL << (feat % 64))))
			continue;
		if (feat == TS_FEAT_TRACING_DATA && !s->size) {
			ret = ts_reader_fail(r, start + 16 * (uint64_t)i, -TS_ETRACEDATA,
					     "the tracing data section is empty");
			break;
		}
		i++;
		if (feat != TS_FEAT_TRACING_DATA && feat > TS_FEAT_EVENT_DESC)
			continue;
		if (feat == TS_FEAT_TRACING_DATA)
			r->tdata_off = s->offset;
		free(buf);
		buf = malloc(s->size + 1);
		if (!buf) {
			ret = -ENOMEM;
			break;
		}
		ret = pread_all(r, buf, s->size, s->offset, "feature section");
		if (!ret)
			ret = ts_reader_feature(r, feat, buf, s->size, s->offset);
	}
	free(buf);
	return ret;
}

/*
 * perf writes its kernel map and ID_INDEX among the first records, before any sample: look
 * for them before the run, so that a caller that reads only the headers (the plugin) has them.
 * The first TS_WINDOW bytes, into a window of the reader's arena (not a fresh buffer's page
 * faults), which the runs use again.
 */
static void find_kernel_map(struct ts_reader *r)
{
	uint64_t len = r->hdr.data.size < TS_WINDOW ? r->hdr.data.size : TS_WINDOW, pos = 0;
	unsigned char *buf = ts_window_get(&r->chunks);
	uint16_t size;

	if (!buf)
		return;
	if (pread_all(r, buf, len, r->hdr.data.offset, "data")) {
		r->m.err[0] = 0; /* the run will name any real problem where it meets it */
		ts_window_put(&r->chunks, buf);
		return;
	}
	while (pos + 8 <= len) {
		uint32_t type = ts_get_u32(buf + pos);

		memcpy(&size, buf + pos + 6, 2);
		if (size < 8 || pos + size > len || type == PERF_RECORD_SAMPLE)
			break;
		ts_kernel_map(buf + pos, size, r->m.info.kernel_ref, &r->m.info.kernel_ref_addr);
		if (type == TS_REC_ID_INDEX && ts_id_index_tasks(buf + pos, size))
			r->m.info.per_task = 1;
		pos += size;
	}
	ts_window_put(&r->chunks, buf);
}

static int open_file_mode(struct ts_reader *r)
{
	struct ts_file_header *h = &r->hdr;
	struct stat st;
	int ret;

	ret = pread_all(r, h, sizeof(*h), 0, "file header");
	if (ret)
		return ret;
	if (fstat(r->fd, &st))
		return ts_reader_fail(r, 0, -errno, "fstat: %s", strerror(errno));
	r->file_size = st.st_size;
	if (!h->data.size && h->data.offset < r->file_size) {
		/*
		 * perf record writes the sizes when it ends: a killed one leaves 0 here and no
		 * feature sections. perf warns and reads to the end of the file; so do we.
		 */
		ts_reader_warn(r, 48,
			       "the header's data size is 0 (was perf record killed?): reading "
			       "records to the end of the file, without feature sections");
		h->data.size = r->file_size - h->data.offset;
		memset(h->features, 0, sizeof(h->features));
	}
	if (h->data.offset > r->file_size || h->data.size > r->file_size - h->data.offset)
		return ts_reader_fail(r, 40, -TS_ETRUNC,
				      "data section (%llu bytes at %#llx) is past the end of the "
				      "file (%llu bytes)",
				      (unsigned long long)h->data.size,
				      (unsigned long long)h->data.offset,
				      (unsigned long long)r->file_size);
	if (h->size < sizeof(*h))
		return ts_reader_fail(r, 8, -TS_ECORRUPT, "file header size %llu is too small",
				      (unsigned long long)h->size);
	if (h->data.offset < h->size || h->data.offset + h->data.size < h->data.offset)
		return ts_reader_fail(r, 40, -TS_ECORRUPT, "bad data section (offset %#llx)",
				      (unsigned long long)h->data.offset);
	ret = read_attrs(r);
	if (!ret)
		ret = read_features(r);
	if (ret)
		return ret;
	r->s.in.base = h->data.offset;
	r->s.data_end = h->data.offset + h->data.size;
	/* zstd data cannot be re-read in place: those files are ordered in memory */
	r->use_runs = !r->opts.unordered &&
		      !(h->features[TS_FEAT_COMPRESSED / 64] & (1ULL << (TS_FEAT_COMPRESSED % 64)));
	r->page = (size_t)sysconf(_SC_PAGESIZE);
	if (S_ISREG(st.st_mode) && r->page && !(r->page & (r->page - 1)))
		ts_input_map(r);
	/* runs read again from the file, not mapped: the smaller default (TS_ROUND_BUDGET_FILE) */
	if (r->use_runs && !r->map_input && !r->budget_given) {
		r->budget = TS_ROUND_BUDGET_FILE;
		r->soft = r->budget / 4;
		r->chunks.keep = r->budget;
	}
	if (lseek(r->fd, h->data.offset, SEEK_SET) < 0)
		return ts_reader_fail(r, h->data.offset, -errno, "seek: %s", strerror(errno));
	find_kernel_map(r);
	return 0;
}

/* The magic (16 bytes) decides the mode; a pipe cannot be re-read, so keep what was read. */
static int read_magic(struct ts_reader *r, uint64_t magic[2])
{
	size_t got = 0;
	ssize_t n;

	while (got < 16) {
		n = read(r->fd, (char *)magic + got, 16 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return ts_reader_fail(r, got, -errno, "%s", strerror(errno));
		if (n == 0)
			return ts_reader_fail(r, got, -TS_ETRUNC,
					      "file is too short for a perf.data header");
		got += n;
	}
	if (magic[0] == TS_PERF_MAGIC_SWAPPED)
		return ts_reader_fail(r, 0, -TS_EBIGENDIAN, "%s", ts_strerror(-TS_EBIGENDIAN));
	if (magic[0] == TS_PERF_MAGIC_V1)
		return ts_reader_fail(
			r, 0, -TS_EMAGIC,
			"a perf.data of the first format (magic PERFFILE, perf before "
			"Linux 2.6.37): not supported");
	if (magic[0] != TS_PERF_MAGIC) {
		const char *packed = ts_packed_hint(magic, 16);

		return ts_reader_fail(r, 0, -TS_EMAGIC, "%s%s%s", ts_strerror(-TS_EMAGIC),
				      packed ? ": " : "", packed ? packed : "");
	}
	return 0;
}

/*
 * The round budget: the option, else TS_ROUND_BUDGET (bytes, or with a k, m or g suffix: the
 * tests' switch for the spill and re-read paths), else the default. 0 for a value that is not
 * a size, which the caller reports.
 */
static size_t round_budget(size_t opt)
{
	const char *env = getenv("TS_ROUND_BUDGET");
	unsigned long long v;
	int shift = 0;
	char *end;

	if (opt)
		return opt;
	if (!env || !*env)
		return TS_ROUND_BUDGET_DEFAULT;
	errno = 0;
	v = strtoull(env, &end, 10);
	if (*end == 'k' || *end == 'K')
		shift = 10;
	else if (*end == 'm' || *end == 'M')
		shift = 20;
	else if (*end == 'g' || *end == 'G')
		shift = 30;
	end += !!shift;
	if (errno || *end || end == env || *env == '-' || v > (SIZE_MAX >> 1 >> shift))
		return 0;
	return v << shift;
}

int ts_reader_open(struct ts_reader **rp, const char *path, const struct ts_reader_opts *opts)
{
	struct ts_reader *r;
	const char *env;
	uint64_t magic[2];
	struct stat st;
	int ret;

	/* 64-aligned: the threads' hot fields keep to their own cache lines */
	*rp = r = aligned_alloc(64, (sizeof(*r) + 63) & ~(size_t)63);
	if (r)
		memset(r, 0, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->path = strcmp(path, "-") ? path : "<stdin>";
	r->s.r = r;
	r->s.deliver = r; /* until a scanning thread starts: ts_reader_run() */
	pthread_mutex_init(&r->chunks.lock, NULL);
	r->s.chunks = &r->chunks;
	r->s.spill_fd = -1;
	if (opts)
		r->opts = *opts;
	r->budget = round_budget(r->opts.round_budget);
	env = getenv("TS_ROUND_BUDGET");
	r->budget_given = r->opts.round_budget || (env && *env);
	if (!r->budget) {
		snprintf(r->m.err, TS_ERR_LEN,
			 "TS_ROUND_BUDGET=%s: not a size (bytes, or with a k, m or g suffix)",
			 getenv("TS_ROUND_BUDGET"));
		return -EINVAL;
	}
	r->soft = r->budget / 4;
	r->chunks.keep = r->budget;
	r->chunks.keep_arena = r->opts.keep_arena;
	if (!strcmp(path, "-")) {
		r->fd = 0;
	} else {
		r->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (r->fd < 0) { /* not a damaged file: no offset to name */
			ret = -errno;
			snprintf(r->m.err, TS_ERR_LEN, "%s: %s", path, strerror(errno));
			return ret;
		}
		r->own_fd = 1;
		if (!fstat(r->fd, &st) && S_ISDIR(st.st_mode)) {
			/* perf's directory format: a header file and one data file per thread */
			snprintf(r->m.err, TS_ERR_LEN,
				 "%s: a folder (perf record --threads or --kcore writes its "
				 "samples into data and data.N files in it): tickscope reads one "
				 "perf.data file; record without --threads and --kcore",
				 path);
			return -EISDIR;
		}
	}
	ret = read_magic(r, magic);
	if (ret)
		return ret;
	r->s.data_end = UINT64_MAX;
	if (magic[1] == 16) {
		r->m.info.kind = TS_INPUT_PIPE;
		r->hdr.size = 16;
		r->s.in.base = 16;
	} else {
		r->m.info.kind = TS_INPUT_FILE;
		ret = open_file_mode(r);
		if (ret == -ESPIPE)
			return ts_reader_fail(r, 0, ret,
					      "file-mode perf.data needs seekable input");
		if (ret)
			return ret;
	}
	return ts_stream_headers(r);
}

void ts_reader_close(struct ts_reader *r)
{
	if (!r)
		return;
	ts_stream_free(r);
	if (r->own_fd)
		close(r->fd);
	free(r->attrs);
	free(r->layout);
	free(r->ids.keys);
	free(r->ids.vals);
	free(r->id_cpu.keys);
	free(r->id_dense);
	free(r->id_cpu.vals);
	free(r->tdata);
	free(r->m.info.cmdline);
	free(r->m.info.args);
	free(r->m.info.lost_per_cpu);
	free(r->m.info.lost_samples_per_cpu);
	pthread_mutex_destroy(&r->chunks.lock);
	free(r);
}

const struct ts_attr *ts_reader_attrs(const struct ts_reader *r, int *nr)
{
	*nr = r->nr_attrs;
	return r->attrs;
}

const void *ts_reader_tracing_data(const struct ts_reader *r, size_t *len)
{
	*len = r->tdata_len;
	return r->tdata;
}

const struct ts_file_info *ts_reader_info(const struct ts_reader *r)
{
	return &r->m.info;
}

const char *ts_reader_error(const struct ts_reader *r)
{
	return r->m.err[0] ? r->m.err : "no error";
}
