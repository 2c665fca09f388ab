#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0-only
# Test helper for tests/man-options.t: the options each command names, one "CMD<TAB>OPTION" line
# each, sorted and unique.
#
#   man-options.pl man FILE.1      from the man page: the command's SYNOPSIS lines, the entries
#                                  of OPTIONS (for info, dump and report, or the commands an
#                                  entry names as "(dump, report)"; -h/--help for every
#                                  command) and of its own "CMD OPTIONS" subsection
#   man-options.pl help CMD FILE   from CMD's --help text in FILE: its usage lines and the
#                                  option column of its option lines
#   man-options.pl synopsis FILE.1, man-options.pl usage CMD FILE
#                                  only the SYNOPSIS lines, only the usage lines
use strict;
use warnings;

my @CMDS = qw(info dump report compare summary plot record);
my %is_cmd = map { $_ => 1 } @CMDS;

# the -x and --long-name tokens of a text (not the "-1" of run-1, nor a bare "--")
sub opts {
	my ($t) = @_;
	return $t =~ /(?<![\w\-.\/])(--?[a-zA-Z][a-zA-Z\-]*)/g;
}

# roff to text: \- is -, fonts and quotes go, the macro name goes
sub plain {
	my ($l) = @_;
	$l =~ s/\\f[BIRP]//g;
	$l =~ s/\\-/-/g;
	$l =~ s/^\.[A-Z]{1,2}\s*//;
	$l =~ s/"//g;
	return $l;
}

my %set;
my $only = ''; # synopsis or usage: those lines alone

sub add {
	my ($cmd, @o) = @_;
	$set{"$cmd\t$_"} = 1 for @o;
}

sub man {
	my ($path) = @_;
	open(my $fh, '<', $path) or die "man-options.pl: $path: $!\n";
	my @l = <$fh>;
	close $fh;
	chomp @l;
	my ($sh, $ss, $cmd) = ('', '', undef);
	for (my $i = 0; $i < @l; $i++) {
		my $l = $l[$i];
		if ($l =~ /^\.SH\s+"?([^"]*)"?/) {
			($sh, $ss, $cmd) = ($1, '', undef);
			next;
		}
		if ($l =~ /^\.SS\s+"?([^"]*)"?/) {
			$ss = $1;
			next;
		}
		if ($sh eq 'SYNOPSIS') {
			if ($l =~ /^\.B\s+tickscope\s+([a-z]+)/ && $is_cmd{$1}) {
				$cmd = $1;
				add($cmd, opts(plain($l =~ s/^\.B\s+tickscope\s+[a-z]+//r)));
			} elsif ($l =~ /^\.br/ || $l =~ /^\.B\s+(tickscope|perf)\b/) {
				$cmd = undef;
			} elsif (defined $cmd) {
				add($cmd, opts(plain($l)));
			}
			next;
		}
		next if $only || $sh ne 'OPTIONS' || $l !~ /^\.TP/;
		my $tag = plain($l[$i + 1] // '');
		my $body = plain($l[$i + 2] // '');
		my @o = opts($tag);
		my @to;
		if ($ss =~ /^([A-Z]+) OPTIONS$/) {
			@to = (lc $1);
		} elsif ($body =~ /^\(tickscope alone\)/) {
			@to = ();
		} elsif ($body =~ /^\(([a-z, ]+)\)/) {
			@to = split /,\s*/, $1;
		} elsif (grep { $_ eq '--help' } @o) {
			@to = @CMDS;
		} else {
			@to = qw(info dump report);
		}
		add($_, @o) for @to;
	}
}

sub help {
	my ($cmd, $path) = @_;
	open(my $fh, '<', $path) or die "man-options.pl: $path: $!\n";
	my $usage = 0;
	while (my $l = <$fh>) {
		chomp $l;
		$usage = 1 if $l =~ /^usage:/;
		$usage = 0 if $l eq '';
		if ($usage) {
			add($cmd, opts($l =~ s/^(usage:)?\s*tickscope\s+[a-z]+//r));
		} elsif (!$only && $l =~ /^ {2,6}(-.*?)(?: {2,}|$)/) {
			add($cmd, opts($1));
		}
	}
	close $fh;
}

my $what = shift // '';
if ($what eq 'man' && @ARGV == 1) {
	man($ARGV[0]);
} elsif ($what eq 'help' && @ARGV == 2) {
	help(@ARGV);
} elsif ($what eq 'synopsis' && @ARGV == 1) {
	$only = $what;
	man($ARGV[0]);
} elsif ($what eq 'usage' && @ARGV == 2) {
	$only = $what;
	help(@ARGV);
} else {
	die "usage: man-options.pl man FILE.1 | help CMD FILE | synopsis FILE.1 | usage CMD FILE\n";
}
print "$_\n" for sort keys %set;
