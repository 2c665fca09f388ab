# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# Helpers for the chart tests; source it after tests/lib/tap.sh.

# png_size FILE: "WIDTHxHEIGHT" from the PNG's IHDR chunk
png_size() {
	od -An -tu1 -j16 -N8 "$1" | awk '{ printf "%dx%d", $1 * 16777216 + $2 * 65536 + $3 * 256 + $4,
		$5 * 16777216 + $6 * 65536 + $7 * 256 + $8 }'
}

# check_charts DIR NAME: every drawn chart of DIR/charts.tsv has its PNG of the script's size
# and an SVG that parses with that viewBox; one TAP line
check_charts() {
	_bad=""
	_n=0
	while IFS="$(printf '\t')" read -r name script status _; do
		[ "$status" = drawn ] || continue
		_n=$((_n + 1))
		want=960x600
		[ "$script" = timeline.gp ] && want=1200x600
		[ "$(png_size "$1/$name.png" 2>/dev/null)" = "$want" ] || _bad="$_bad $name.png"
		xmllint --noout "$1/$name.svg" 2>/dev/null || _bad="$_bad $name.svg"
		grep -q "viewBox=\"0 0 ${want%x*} ${want#*x}\"" "$1/$name.svg" ||
			_bad="$_bad $name.svg-size"
	done <<EOF2
$(tail -n +2 "$1/charts.tsv")
EOF2
	[ "$_n" -gt 0 ] || _bad="no chart drawn"
	is "$_bad" "" "$2: $_n charts: PNGs of the scripts' sizes, SVGs parse"
}

# chart_status DIR NAME: drawn or missing
chart_status() {
	awk -F'\t' -v n="$2" '$1 == n { print $3 }' "$1/charts.tsv"
}

# chart_missing DIR NAME: why NAME was not drawn
chart_missing() {
	awk -F'\t' -v n="$2" '$1 == n { print $5 }' "$1/charts.tsv"
}

# self_contained HTML: what in HTML would load something from outside it (nothing, we hope)
self_contained() {
	grep -Eio 'https?:|src=|<script|<link|<img|<iframe|<object|@import|url\([^#]' "$1" |
		sort -u | tr '\n' ' '
	grep -Eo 'href="[^"]*"|href='"'"'[^'"'"']*'"'" "$1" | grep -v "href=[\"']#" | head -3
}

# browse MODE FILE OUT: headless Chromium ($CHROMIUM) on a local file; MODE pdf, screenshot or
# dump-dom. A browser that hangs is stopped by the hang guard, saying so.
browse() {
	_a="--headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir=$TAP_TMP/profile"
	if [ "$1" = pdf ]; then
		# shellcheck disable=SC2086
		timeout "$TS_HANG_GUARD" "$CHROMIUM" $_a --no-pdf-header-footer --print-to-pdf="$3" \
			"file://$2" >/dev/null 2>&1
	elif [ "$1" = screenshot ]; then
		# shellcheck disable=SC2086
		timeout "$TS_HANG_GUARD" "$CHROMIUM" $_a --window-size=1200,2400 --screenshot="$3" \
			"file://$2" >/dev/null 2>&1
	else
		# shellcheck disable=SC2086
		timeout "$TS_HANG_GUARD" "$CHROMIUM" $_a --dump-dom "file://$2" >"$3" 2>/dev/null
	fi
	_rc=$?
	[ $_rc -ne 124 ] ||
		echo "#   chromium ($1 of $2) did not exit in $TS_HANG_GUARD s, the hang guard" \
			"(TS_HANG_GUARD): a hang" >&2
	return $_rc
}
