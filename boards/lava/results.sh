#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The test cases of a lava-run log: one line per `lvl: results` record of a test definition,
# "CASE RESULT MEASUREMENT UNITS" ('-' when absent). lava-run leaves a job "pass" when a case
# fails, so callers check each case.
set -eu
case "${1:-}" in
'' | -h | --help)
	echo "usage: boards/lava/results.sh LAVA_RUN_LOG   (lava-run's stdout, one record a line)"
	[ -n "${1:-}" ] && exit 0
	exit 2
	;;
esac
[ -r "$1" ] || { echo "lava-results: error: cannot read $1" >&2; exit 1; }
# A field of a record: "key": "value" or, with a YAML tag, "key": ! "value".
grep '"lvl": "results"' "$1" | grep -v '"definition": "lava"' | sed 's/": ! "/": "/g' |
	awk '
	function field(k,    m) {
		if (match($0, "\"" k "\": \"[^\"]*\"")) {
			m = substr($0, RSTART, RLENGTH)
			sub("^\"" k "\": \"", "", m)
			sub("\"$", "", m)
			return m
		}
		return "-"
	}
	{ print field("case"), field("result"), field("measurement"), field("units") }'
