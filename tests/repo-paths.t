#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The repository stands alone: no committed file carries an absolute path of the machine that
# made it (fixtures record paths relative to the project or results folder, docs use neutral
# ones), and no test or script reads a file outside the repository.
. "$(dirname "$0")/lib/tap.sh"

command -v git >/dev/null || skip_all "git missing"
git -C "$TS_TOP" rev-parse --git-dir >/dev/null 2>&1 || skip_all "$TS_TOP is not a git checkout"

# Paths this project's machines used: the worktrees and home folders, and the temporary
# folders of tests/fixtures/record.sh and boards/record.sh.
bad=$(git -C "$TS_TOP" grep -nI -E '(^|[^A-Za-z0-9_.~])/(work|home|root)/|/tmp/tickscope-(record|board|run)' \
	-- . ':!*.xz' ':!tests/repo-paths.t' | cut -c1-160)
is "$bad" "" "no committed text file names a path of the machine that made it"

# The compressed text fixtures too (compare.json.xz, summaries, kallsyms, configs); a perf.data
# holds what the recorded machine ran (its MMAP and COMM records), which is left as recorded.
bad=$(git -C "$TS_TOP" ls-files '*.xz' | while read -r f; do
	case $f in *perf.data.xz | *.data.xz) continue ;; esac
	xz -dc "$TS_TOP/$f" 2>/dev/null | grep -aqE '(^|[^A-Za-z0-9_.~])/(work|home|root)/' &&
		echo "$f"
done)
is "$bad" "" "no committed .xz text names a path of the machine that made it"

out=$(git -C "$TS_TOP" grep -nI -E '\.\./shared|TS_TOP/\.\./' -- tests scripts boards Makefile \
	':!tests/repo-paths.t' ':!*.patch' | cut -c1-160)
is "$out" "" "no test or script reads files outside the repository (a patch's header may cite"\
" the seed it reproduces)"

tap_done
