#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0-only
# The layering rules of analysis/README.md, checked on the tree and its built objects:
#   scripts/layers.pl TOP BUILD
# prints one line per breach ("include: ...", "uses: ...") and per circle ("circle: ...", the
# files of one strongly connected group, then "#   " lines saying who takes what from whom).
# The layer order is the README's "Layers, lowest first:" line; a public header of
# include/tickscope/ belongs to the layer that defines the functions it declares.
# Exit 0 always: tests/layers.t decides what is allowed.
use strict;
use warnings;

my ($top, $build) = @ARGV;
die "usage: layers.pl TOP BUILD\n" unless defined $build;

open(my $rd, '<', "$top/analysis/README.md") or die "analysis/README.md: $!\n";
my @order;
while (<$rd>) {
	@order = /`(\w+)`/g if /^Layers, lowest first:/;
}
close $rd;
die "analysis/README.md: no line 'Layers, lowest first:'\n" unless @order;
my %rank;
@rank{@order} = (0 .. $#order);

my @srcs = sort(glob("$top/analysis/*/*.[ch]"), glob("$top/analysis/include/tickscope/*.h"));
s{^\Q$top\E/analysis/}{} for @srcs;
sub folder { my ($f) = @_; return $f =~ m{^include/} ? 'include' : ($f =~ m{^(\w+)/})[0]; }

# Symbols: who defines what, who takes what (global names only; static ones are a file's own).
my (%def, %und);
for my $f (grep { /\.c$/ } @srcs) {
	(my $o = "$build/analysis/$f") =~ s/\.c$/.o/;
	die "$o: not built (make all)\n" unless -f $o;
	for (`nm -P '$o'`) {
		my ($s, $t) = split;
		next unless defined $t;
		if ($t eq 'U') {
			push @{ $und{$f} }, $s;
		} elsif ($t =~ /^[TDRBCVW]$/) {
			$def{$s} = $f;
		}
	}
}
my %takes;    # $takes{a}{b}{name}: file a uses name, defined in file b
for my $f (sort keys %und) {
	for my $s (@{ $und{$f} }) {
		my $d = $def{$s};
		$takes{$f}{$d}{$s} = 1 if $d && $d ne $f;
	}
}

# A public header's layer: the highest layer that defines a function it declares.
my %hdr_layer;
for my $h (grep { m{^include/} } @srcs) {
	open(my $fh, '<', "$top/analysis/$h") or die "$h: $!\n";
	local $/;
	my $text = <$fh>;
	close $fh;
	$text =~ s{/\*.*?\*/}{}gs;
	my %l;
	for my $name ($text =~ /\b(ts_\w+)\s*\(/g) {
		my $d = $def{$name} or next;
		$l{ folder($d) } = 1;
	}
	my ($hi) = sort { $rank{$b} <=> $rank{$a} } grep { exists $rank{$_} } keys %l;
	$hdr_layer{ ($h =~ m{^include/(.*)})[0] } = $hi if $hi;
}

# Includes: resolved like the compiler's -Ianalysis/include -Ianalysis (own folder first).
# The headers the Makefile generates in $(BUILD)/gen (-I$(BUILD)/gen) hold only constants.
my %generated = map { $_ => 1 } qw(tickscope/models_id.h);
my %incl;
for my $f (@srcs) {
	my $me = folder($f);
	open(my $fh, '<', "$top/analysis/$f") or die "$f: $!\n";
	while (<$fh>) {
		next unless /^\s*#\s*include\s+"([^"]+)"/;
		my $inc = $1;
		next if $generated{$inc};
		(my $dir = $f) =~ s{/[^/]*$}{};
		my $path;
		if (-f "$top/analysis/$dir/$inc") {
			$path = "$dir/$inc";
		} elsif (-f "$top/analysis/include/$inc") {
			$path = "include/$inc";
		} elsif (-f "$top/analysis/$inc") {
			$path = $inc;
		} else {
			print "include: $f: \"$inc\" is not in the tree\n#   line $.\n";
			next;
		}
		$incl{$f}{$path} = $.;
		my $them = folder($path);
		if ($them ne 'include' && $them ne 'common' && $them ne $me) {
			print "include: $f: \"$inc\" is a private header of $them/\n#   line $.\n";
		}
		my $hl = $them eq 'include' ? $hdr_layer{$inc} : undef;
		if ($hl && $me ne 'include' && exists $rank{$me} && $rank{$hl} > $rank{$me}) {
			print "include: $f: \"$inc\" is $hl\'s API, a layer above $me\n#   line $.\n";
		}
	}
	close $fh;
}

for my $a (sort keys %takes) {
	for my $b (sort keys %{ $takes{$a} }) {
		my ($fa, $fb) = (folder($a), folder($b));
		next unless exists $rank{$fa} && exists $rank{$fb} && $rank{$fb} > $rank{$fa};
		print "uses: $a takes ", join(', ', sort keys %{ $takes{$a}{$b} }),
		    " from $b, a layer above\n";
	}
}

# Circles: Tarjan's strongly connected components of "takes names from" and of "includes".
sub circles {
	my ($g, $what) = @_;
	my ($idx, @stack, %on, %index, %low, @out) = (0);
	my $visit;
	$visit = sub {
		my ($v) = @_;
		$index{$v} = $low{$v} = $idx++;
		push @stack, $v;
		$on{$v} = 1;
		for my $w (sort keys %{ $g->{$v} || {} }) {
			if (!exists $index{$w}) {
				$visit->($w);
				$low{$v} = $low{$w} if $low{$w} < $low{$v};
			} elsif ($on{$w} && $index{$w} < $low{$v}) {
				$low{$v} = $index{$w};
			}
		}
		return unless $low{$v} == $index{$v};
		my @c;
		my $w;
		do { $w = pop @stack; $on{$w} = 0; push @c, $w } while ($w ne $v);
		push @out, [ sort @c ] if @c > 1;
	};
	$visit->($_) for grep { !exists $index{$_} } sort keys %$g;
	for my $c (sort { $a->[0] cmp $b->[0] } @out) {
		my %in = map { $_ => 1 } @$c;
		print "circle: $what: @$c\n";
		for my $a (@$c) {
			for my $b (grep { $in{$_} } sort keys %{ $g->{$a} }) {
				my $v = $g->{$a}{$b};
				print "#   $a ", ref $v ? 'takes ' . join(', ', sort keys %$v) . " from" :
				    'includes', " $b\n";
			}
		}
	}
}
circles(\%takes, 'names');
circles(\%incl, 'includes');
