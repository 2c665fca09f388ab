// SPDX-License-Identifier: GPL-2.0-only
/*
 * noop.so: a dlfilter that drops every sample and does nothing else. `make bench` times
 * tickscope.so against it: the difference is the plugin's own cost inside perf.
 */
#include <perf/perf_dlfilter.h>

struct perf_dlfilter_fns perf_dlfilter_fns;

int filter_event_early(void *data, const struct perf_dlfilter_sample *sample, void *ctx)
{
	return 1;
}

const char *filter_description(const char **long_description)
{
	return "drop every sample (tickscope's benchmark baseline)";
}
