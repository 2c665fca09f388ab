# SPDX-License-Identifier: GPL-2.0-only
# timeline.gp: a few milliseconds of one run, one lane per CPU: which task ran (a coloured bar
# with its name where it fits), idle periods by state (grey, darker for deeper states), tick
# stops and timer expiries (marks), and wakeups as arrows from the waker's CPU to the woken
# task's CPU (sched_waking to sched_wakeup: for a remote wakeup, the IPI and the idle exit).
#
# Run by hand:  gnuplot -e "data='timeline.tsv'; out='timeline'" plots/timeline.gp
# writes out.png (pngcairo) and out.svg. Variables (all optional but data):
#   data    the table     out   output name without extension     title   chart title
#   fmt     "png svg" (default), "png" or "svg"
#
# Columns of data (tab-separated, one header row; the names are the contract with tickscope).
# Times are µs from the window's start; a row's kind says which columns it uses (others hold
# 0 or "-"):
#   kind      run, idle, tick_stop, tick_stop_fail, hrtimer, timer, work, wake or ipi
#   cpu       the CPU (for wake: the waker's)
#   start_us  run/idle: start; marks: the time; wake: sched_waking
#   end_us    run/idle: end; marks: the same as start_us; wake: sched_wakeup
#   to_cpu    wake: the woken task's CPU
#   tid       run, wake: the task
#   state     idle: the idle state (0, 1, ...)
#   name      run, wake: the task's comm; tick_stop*: the dependency; timers: the function;
#             ipi: the IPI event ("call_function_single_entry", "ipi_entry")
# The CPU lanes run from the lowest CPU at the bottom to the highest at the top.

if (!exists("data")) { exit error "timeline.gp: set data='FILE.tsv' (see its header)" }
if (!exists("out")) { out = data[1:strlen(data) - 4] }
if (!exists("title")) { title = "Timeline" }
if (!exists("fmt")) { fmt = "png svg" }

set encoding utf8
set datafile separator "\t"
set datafile columnheaders

is(k) = strcol(1) eq k
# Task colours: by tid, from a palette that avoids the idle greys.
array pal[8] = [0x0072B2, 0xD55E00, 0x009E73, 0xCC79A7, 0xE69F00, 0x56B4E9, 0x8C564B, 0xF0E442]
tcolor(tid) = pal[int(tid) % 8 + 1]
icolor(state) = state < 1 ? 0xDDDDDD : state < 2 ? 0xBBBBBB : state < 3 ? 0x999999 : 0x777777
tickstop(k) = k eq "tick_stop" || k eq "tick_stop_fail"
timer(k) = k eq "hrtimer" || k eq "timer" || k eq "work"
mcolor(k) = k eq "tick_stop" ? 0x009E73 : k eq "tick_stop_fail" ? 0xE15759 : \
	k eq "hrtimer" ? 0x000000 : k eq "timer" ? 0x8C564B : 0xCC79A7
# An arrow leaves the waker's lane towards the woken one's and stops at its edge.
up(a, b) = b > a ? 1 : -1
# A task's name is written on its bar when it fits (about 6 pixels a character).
fits(w, name) = w > xmax * (6 * strlen(name) + 8) / 1100

stats data using 2 nooutput
cmin = STATS_min
cmax = STATS_max
stats data using 4 nooutput
xmax = STATS_max > 0 ? STATS_max : 1
stats data using 5 nooutput
cmax = STATS_max > cmax ? STATS_max : cmax

set title title
set xlabel "time from the window's start (µs)"
set ylabel "CPU"
set xrange [0:xmax]
set yrange [cmin - 0.6:cmax + 0.6]
set ytics 1 scale 0
set grid xtics lc rgb "#eeeeee"
set key outside top center horizontal
set style fill solid 0.9 noborder
set style arrow 1 head filled size screen 0.008, 20 lw 1.2 lc rgb "#E15759"

do for [t in fmt] {
	if (t eq "png") {
		set terminal pngcairo size 1200, 600 font "sans,9" noenhanced
	} else {
		set terminal svg size 1200, 600 dynamic font "sans,9" noenhanced
	}
	set output out . "." . t
	plot data using (($3 + $4) / 2):(is("idle") ? $2 : NaN):(($4 - $3) / 2):(0.12):(icolor($7)) \
		with boxxyerror lc rgb variable title "idle (darker: deeper state)", \
	     data using (($3 + $4) / 2):(is("run") ? $2 : NaN):(($4 - $3) / 2):(0.3):(tcolor($6)) \
		with boxxyerror lc rgb variable title "task running", \
	     data using (($3 + $4) / 2):(is("run") ? $2 : NaN): \
		(fits($4 - $3, strcol(8)) ? strcol(8) : "") \
		with labels tc rgb "#ffffff" notitle, \
	     data using 3:(tickstop(strcol(1)) ? $2 + 0.42 : NaN):(mcolor(strcol(1))) \
		with points pt 9 lc rgb variable ps 1.3 title "tick stop (green) or failed (red)", \
	     data using 3:(timer(strcol(1)) ? $2 + 0.42 : NaN):(mcolor(strcol(1))) \
		with points pt 2 lc rgb variable ps 1.1 title "hrtimer, timer or work expiry", \
	     data using 3:(is("ipi") ? $2 - 0.42 : NaN) \
		with points pt 7 ps 0.8 lc rgb "#CC79A7" title "IPI arriving", \
	     data using 3:(is("wake") ? $2 + 0.3 * up($2, $5) : NaN):($4 - $3): \
		($5 - $2 - 0.6 * up($2, $5)) \
		with vectors arrowstyle 1 title "wakeup: waking → wakeup"
	unset output
}
