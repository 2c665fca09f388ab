/* SPDX-License-Identifier: GPL-2.0-only */
/* File I/O the layers share: whole buffers written, folders made with their parents. */
#ifndef TICKSCOPE_IO_H
#define TICKSCOPE_IO_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/*
 * ts_stdio_guard() - put /dev/null in place of a closed stdin, stdout or stderr (`>&-`), so
 * that no file opened later takes its number: an output file on fd 1 got the text printed on
 * stdout. The stand-in of stdout is read-only: printing still fails, with EBADF, which
 * ts_stream_err() and ts_write_full() turn into -TS_ESTDOUT. Return: a bit per fd that was
 * closed, or -EBADF when one could not be replaced.
 */
int ts_stdio_guard(void);

/*
 * ts_write_full() - write all @len bytes of @p to @fd. Return: 0, or -errno (-EIO for 0;
 * -TS_ESTDOUT for a closed stdout).
 */
int ts_write_full(int fd, const void *p, size_t len);

/* ts_mkdir_p() - make @dir and its missing parents with @mode. Return: 0 or -errno. */
int ts_mkdir_p(const char *dir, unsigned int mode);

/*
 * ts_stream_err() - the error of the stream @f written through stdio: 0 when ferror() is
 * clear, else the failed write's -errno when errno still holds a write error (-ENOSPC on a
 * full disk, which "Input/output error" hid; -TS_ESTDOUT for a closed stdout), else -EIO.
 * Call it right after the last write:
 * stdio keeps no error code of its own.
 */
int ts_stream_err(FILE *f);

/*
 * The files no output may replace: a command's inputs, found in its output folder under an
 * output's name (report -i d/events.tsv --tsv d). main fills it (ts_out_keep_add()) before any
 * thread, then hands it, read-only, to whatever writes the outputs.
 */
#define TS_OUT_KEEP_MAX 16 /* plot's 8 files side by side, its input and --kallsyms */
struct ts_out_keep {
	int nr;
	struct {
		dev_t dev;
		ino_t ino;
	} f[TS_OUT_KEEP_MAX];
};

/*
 * ts_out_keep_add() - have ts_fopen_w() with @k refuse to replace the file at @path (followed,
 * if a link). Paths that are not regular files (or not there) are ignored.
 * Return: 0, or -E2BIG when @k holds TS_OUT_KEEP_MAX files already.
 */
int ts_out_keep_add(struct ts_out_keep *k, const char *path);

/* ts_out_kept() - 1 if @path (not followed) is a file @k (which may be NULL) keeps, else 0. */
int ts_out_kept(const struct ts_out_keep *k, const char *path);

/*
 * ts_fopen_w() - create or truncate @path for writing, as fopen(path, "w") but never through
 * a symbolic link: a link in an output folder (out/events.tsv -> ~/notes) had tickscope write
 * outside the folder the user named; and never over a file @k keeps (@k may be NULL).
 * Return: the stream, or NULL with *@err -errno (-TS_EOUTLINK for a link, -TS_EOUTINPUT for a
 * kept file, which is left as it was).
 */
FILE *ts_fopen_w(const char *path, const struct ts_out_keep *k, int *err);

/*
 * ts_out_check() - whether an output may be written at @path, asked for every output before
 * the first is written (a refusal halfway left the outputs written before it): nothing there,
 * or a regular file that is not a link, not one @k keeps (@k may be NULL) and, with @head, is
 * empty or starts with @head (the same table of an earlier run).
 * Return: 0, -TS_EOUTLINK, -TS_EOUTINPUT, -TS_EOUTKIND (a folder, a FIFO, ...), -TS_EOUTOTHER
 * (@head given: another file), or a negative errno.
 */
int ts_out_check(const char *path, const struct ts_out_keep *k, const char *head);

/*
 * ts_fopen_table() - ts_out_check(), then ts_fopen_w(), then the header row @head (with its '\n') written; but a
 * regular file already at @path, not empty, whose first line is not @head is left as it was:
 * a table of the user's under a table's name (--tsv ~/notes, its events.tsv) was replaced.
 * A table of ours, whose header is the same, is replaced as before.
 * Return: the stream, or NULL with *@err as ts_out_check()'s or ts_fopen_w()'s.
 */
FILE *ts_fopen_table(const char *path, const struct ts_out_keep *k, const char *head, int *err);

/* ts_fclose_err() - ts_stream_err(), then fclose() @f. Return: 0 or a negative errno. */
int ts_fclose_err(FILE *f);

/*
 * ts_packed_hint() - when the first @n bytes @p of a file are the magic of a compressed file
 * (xz, gzip, zstd, bzip2: the bundled recordings are .xz), the words that say so and how to
 * unpack it, "an xz file: unpack it first (xz -dk)"; else NULL.
 */
const char *ts_packed_hint(const void *p, size_t n);

/* ts_packed_hint_file() - ts_packed_hint() of the first bytes of the file @path, or NULL. */
const char *ts_packed_hint_file(const char *path);

#endif
