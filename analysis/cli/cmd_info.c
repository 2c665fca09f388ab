// SPDX-License-Identifier: GPL-2.0-only
/* tickscope info: what a perf.data file holds, and what it lost. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tickscope/error.h"
#include "tickscope/source.h"

static const char info_help[] =
	"usage: tickscope info [-i] FILE [--kallsyms FILE]\n\n"
	"Show the recording machine (arch, kernel release, CPUs, hostname, perf version),\n"
	"the input kind (file, pipe, compressed), the time span, each event with its sample\n"
	"count, and lost events per CPU. FILE '-' reads a pipe-mode stream from stdin.\n\n"
	"  -i, --input FILE    the perf.data file (default: perf.data)\n"
	"      --kallsyms FILE accepted for symmetry with dump/report (unused here)\n"
	"      --strict        a pipe-mode stream cut inside a record is an error (exit 1);\n"
	"                      by default the records before the cut are counted and a\n"
	"                      warning says where the input was cut\n"
	"  -h, --help          this text\n";

static int no_event(void *ctx, const struct ts_event *ev, const struct ts_sample *s)
{
	return 0;
}

static void print_header(const char *input, const struct ts_file_info *i)
{
	printf("file:          %s\n", input);
	printf("input:         %s%s\n", i->kind == TS_INPUT_PIPE ? "pipe" : "file",
	       i->compressed ? ", compressed (zstd)" : "");
	printf("arch:          %s\n", i->arch[0] ? i->arch : "(not recorded)");
	printf("kernel:        %s\n", i->osrelease[0] ? i->osrelease : "(not recorded)");
	printf("perf version:  %s\n", i->version[0] ? i->version : "(not recorded)");
	printf("hostname:      %s\n", i->hostname[0] ? i->hostname : "(not recorded)");
	if (i->nr_cpus_online)
		printf("cpus:          %u online, %u available\n", i->nr_cpus_online,
		       i->nr_cpus_avail);
	else
		printf("cpus:          (not recorded)\n");
	if (i->cpudesc[0])
		printf("cpu:           %s\n", i->cpudesc);
	if (i->cpuid[0])
		printf("cpuid:         %s\n", i->cpuid);
	if (i->kernel_build_id[0])
		printf("kernel build id: %s\n", i->kernel_build_id);
	if (i->cmdline)
		printf("cmdline:       %s\n", i->cmdline);
}

static void print_counts(struct ts_source *src)
{
	struct ts_reader *r = ts_source_reader(src);
	const struct ts_file_info *i = ts_reader_info(r);
	const struct ts_attr *attrs;
	char buf[64];
	int nr, k;

	if (i->nr_samples) {
		printf("time span:     ");
		cli_print_time(stdout, i->first_time);
		printf(" .. ");
		cli_print_time(stdout, i->last_time);
		printf(" (%.6f s)\n", (i->last_time - i->first_time) / 1e9);
	}
	printf("samples:       %llu\n", (unsigned long long)i->nr_samples);
	if (i->kernel_ref[0]) /* after the run: a pipe gives it with the records */
		printf("kernel map:    %s at %#llx\n", i->kernel_ref,
		       (unsigned long long)i->kernel_ref_addr);
	printf("records:       %llu (unknown types skipped: %llu)\n",
	       (unsigned long long)i->nr_records, (unsigned long long)i->nr_unknown_records);
	if (i->nr_out_of_order)
		printf("out of order:  %llu events older than a flushed round (perf warns of them)\n",
		       (unsigned long long)i->nr_out_of_order);
	printf("\nevents:\n%12s  %s\n", "samples", "event");
	attrs = ts_reader_attrs(r, &nr);
	for (k = 0; k < nr; k++)
		printf("%12llu  %s\n", (unsigned long long)attrs[k].nr_samples,
		       cli_event_name(r, ts_source_decoder(src), k, buf, sizeof(buf)));
	printf("\nlost events:   %llu in LOST records, %llu in LOST_SAMPLES records\n",
	       (unsigned long long)i->lost_total, (unsigned long long)i->lost_samples_total);
	for (k = 0; k < nr; k++)
		if (attrs[k].nr_lost_samples)
			printf("  %12llu samples lost of %s\n",
			       (unsigned long long)attrs[k].nr_lost_samples,
			       cli_event_name(r, ts_source_decoder(src), k, buf, sizeof(buf)));
	for (k = 0; k < i->nr_lost_cpus; k++)
		if (i->lost_per_cpu[k] || i->lost_samples_per_cpu[k])
			printf("  cpu %3d: %llu lost, %llu lost samples\n", k,
			       (unsigned long long)i->lost_per_cpu[k],
			       (unsigned long long)i->lost_samples_per_cpu[k]);
}

int cmd_info(int argc, char **argv)
{
	/* --kallsyms is accepted for symmetry with dump/report: info prints no symbols */
	struct cli_common cc = { .name = "info",
				 .help = info_help,
				 .common = CLI_KALLSYMS | CLI_STRICT | CLI_ONE_INPUT };
	struct ts_source_opts o = { .unordered = 0 }; /* ordered: perf counts late events too */
	struct ts_source *src;
	int ret = cli_parse(argc, argv, &cc, NULL, NULL, NULL);

	if (ret)
		return ret < 0 ? 0 : ret;
	o.input = cc.input;
	o.strict = cc.strict;
	ret = ts_source_open(&src, &o);
	if (!ret) {
		print_header(o.input, ts_reader_info(ts_source_reader(src)));
		ret = ts_source_run(src, no_event, NULL);
	}
	fflush(stdout);
	cli_warnings(src);
	if (ret) {
		cli_error("%s", src ? ts_source_error(src) : ts_strerror(ret));
		ts_source_close(src);
		return 1;
	}
	print_counts(src);
	ts_source_close(src);
	return 0;
}
