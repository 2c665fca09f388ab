#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0-only
# Test helper: hold the report's output against its documentation, table by table, in both
# directions. Prints one "ok"/"not ok" verdict line per table ("TABLE<TAB>problems"), for
# tests/report-formats.t to turn into TAP.
#
#   doc-check.pl tsv docs/report-tsv.md DIR      every "### `x.tsv`" table's column list (with
#                                                D_* as eight columns) equals DIR/x.tsv's header,
#                                                in order; every file in DIR is documented
#   doc-check.pl json docs/report-json.md FILE   per section table ("## `sched`", "## Top
#                                                level", "## Every section"): every key of the
#                                                JSON is a row's key or named in the row of its
#                                                parent; every row's key is in the JSON
#   doc-check.pl excerpt DOC CMD OUTPUT          the DOC's excerpt of "$ CMD" is OUTPUT's lines,
#                                                in order, "..." for what it leaves out
use strict;
use warnings;
use JSON::PP;

my @DIST = qw(count sum_ns min_ns p50_ns p90_ns p99_ns p999_ns max_ns);

sub slurp {
	my ($p) = @_;
	open(my $fh, '<', $p) or die "doc-check.pl: $p: $!\n";
	local $/;
	my $d = <$fh>;
	close $fh;
	return $d;
}

sub verdict {
	my ($table, @problems) = @_;
	printf "%s\t%s\t%s\n", @problems ? 'not ok' : 'ok', $table, join('; ', @problems);
}

sub tsv {
	my ($doc, $dir) = @_;
	my $text = slurp($doc);
	my %seen;
	while ($text =~ /^### `([a-z_]+\.tsv)`\n(.*?)(?=^### |\z)/msg) {
		my ($name, $body) = ($1, $2);
		$seen{$name} = 1;
		my ($cols) = $body =~ /`([^`]+)`/s;
		my @want = map { /^(.*)_\*$/ ? (map { "${1}_$_" } @DIST) : $_ } split /\s+/, $cols // '';
		my $path = "$dir/$name";
		if (!-f $path) {
			verdict($name, 'documented but not written');
			next;
		}
		open(my $fh, '<', $path) or die "doc-check.pl: $path: $!\n";
		my $head = <$fh> // '';
		close $fh;
		chomp $head;
		my @got = split /\t/, $head;
		my %w = map { $_ => 1 } @want;
		my %g = map { $_ => 1 } @got;
		my @p;
		push @p, 'not in the doc: ' . join(' ', grep { !$w{$_} } @got) if grep { !$w{$_} } @got;
		push @p, 'not in the file: ' . join(' ', grep { !$g{$_} } @want) if grep { !$g{$_} } @want;
		push @p, 'order differs' if !@p && join(' ', @want) ne join(' ', @got);
		verdict($name, @p);
	}
	opendir(my $dh, $dir) or die "doc-check.pl: $dir: $!\n";
	for my $f (sort grep { /\.tsv$/ } readdir $dh) {
		verdict($f, 'written but not documented') if !$seen{$f};
	}
	closedir $dh;
	verdict('tsv tables', 'no table documented') if !%seen;
}

# Rows of a markdown table: first-column keys => the meaning cell.
sub rows {
	my ($body) = @_;
	my %rows;
	for my $line (split /\n/, $body) {
		next unless $line =~ /^\|(.*?)\|(.*)\|\s*$/;
		my ($keys, $meaning) = ($1, $2);
		next if $keys =~ /^\s*(key|---)\s*$/;
		$rows{$_} = $meaning for $keys =~ /`([^`]+)`/g;
	}
	return \%rows;
}

sub is_dist {
	my ($v) = @_;
	return ref $v eq 'HASH' && exists $v->{p50_ns};
}

# The object keys one level down from $v (an object, or an array of objects); dynamic maps
# (documented as {"...": ...}) and distributions have none to check.
sub subkeys {
	my ($v) = @_;
	my @objs = ref $v eq 'ARRAY' ? grep { ref $_ eq 'HASH' } @$v : ref $v eq 'HASH' ? ($v) : ();
	my %k;
	for my $o (@objs) {
		next if is_dist($o);
		$k{$_} = 1 for keys %$o;
	}
	return sort keys %k;
}

sub check_table {
	my ($label, $rows, $obj, $skip_rows) = @_;
	my @p;
	for my $k (sort keys %$obj) {
		my $m = $rows->{$k};
		if (!defined $m) {
			push @p, "key $k not in the table";
			next;
		}
		next if is_dist($obj->{$k}) || $m =~ /\{"[^}]*\}/;
		my @objs = ref $obj->{$k} eq 'ARRAY' ? @{ $obj->{$k} } : ($obj->{$k});
		for my $s (subkeys($obj->{$k})) {
			next if $s =~ /^\d+$/;
			push @p, "$k.$s not named in its row" if $m !~ /`\Q$s\E`/;
			# one level further: the keys of an object member (idle's per-CPU exits, ...)
			my @inner = map { ref $_ eq 'HASH' ? $_->{$s} : () } @objs;
			next if $k eq 'sections' || $m =~ /`\Q$s\E`\s*\(\s*`?\{"/;
			for my $t (grep { !/^\d+$/ } subkeys(\@inner)) {
				push @p, "$k.$s.$t not named in its row" if $m !~ /`\Q$t\E`/;
			}
		}
	}
	for my $k (sort keys %$rows) {
		next if exists $obj->{$k} || ($skip_rows && $skip_rows->($k, $rows->{$k}));
		push @p, "row $k not in the output";
	}
	verdict($label, @p);
}

sub json {
	my ($doc, $file) = @_;
	my $text = slurp($doc);
	my $r = JSON::PP->new->decode(slurp($file));
	my %tables;
	while ($text =~ /^## (.*?)\n(.*?)(?=^## |\z)/msg) {
		my ($h, $body) = ($1, $2);
		$h =~ s/`//g;
		$tables{$h} = rows($body) if $body =~ /^\| key \|/m;
	}
	my $common = $tables{'Every section'} or die "doc-check.pl: no 'Every section' table\n";
	my $top = $tables{'Top level'} or die "doc-check.pl: no 'Top level' table\n";
	check_table('top level', $top, $r);
	# Conditional rows ("only with ...", "with callchains", "with `timer:tick_stop`").
	my $cond = sub { $_[1] =~ /^\s*(only )?with\b/i };
	for my $s (sort keys %{ $r->{sections} }) {
		my $sec = $r->{sections}{$s};
		my $rows = $tables{$s};
		if (!$rows) {
			verdict("section $s", 'no table');
			next;
		}
		my %own = map { $_ => $sec->{$_} } grep { !exists $common->{$_} } keys %$sec;
		my %both = (%$common, %$rows);
		# "The other keys below appear only when status is present"
		my $skip = $sec->{status} eq 'present' ? $cond : sub { 1 };
		check_table("section $s", $rows, \%own, $skip);
		check_table("section $s (common keys)", $common,
			    { map { $_ => $sec->{$_} } grep { exists $common->{$_} } keys %$sec },
			    sub { $sec->{status} ne 'present' && $_[0] =~ /_ns$|^lost/ });
	}
}

# An excerpt of real output in a document: the ``` block whose first line is "$ CMD". Its
# lines must all be lines of OUTPUT, in the same order; "..." alone stands for lines left out,
# and a line ending in "..." for the start of a longer one. Trailing blanks do not count.
sub excerpt {
	my ($doc, $cmd, $out) = @_;
	my $text = slurp($doc);
	my @blocks = grep { defined } $text =~ /^```\n\$ \Q$cmd\E\n(.*?)^```$/msg;
	return verdict("excerpt \$ $cmd", "no such excerpt in $doc") unless @blocks;
	my @have = map { s/\s+$//r } split /\n/, slurp($out);
	my ($i, @problems) = (0);
	for my $want (map { s/\s+$//r } split /\n/, $blocks[0]) {
		next if $want eq '...';
		my $prefix = $want =~ s/\.\.\.$//r;
		my $j = $i;
		$j++ while $j < @have &&
			($want =~ /\.\.\.$/ ? index($have[$j], $prefix) != 0 : $have[$j] ne $want);
		if ($j >= @have) {
			push @problems, "not in the output (after its line $i): '$want'";
			last;
		}
		$i = $j + 1;
	}
	verdict("excerpt \$ $cmd", @problems);
}

my $mode = shift // '';
if ($mode eq 'tsv' && @ARGV == 2) {
	tsv(@ARGV);
} elsif ($mode eq 'json' && @ARGV == 2) {
	json(@ARGV);
} elsif ($mode eq 'excerpt' && @ARGV == 3) {
	excerpt(@ARGV);
} else {
	die "usage: doc-check.pl tsv DOC DIR | json DOC FILE | excerpt DOC CMD OUTPUT\n";
}
