#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0-only
# The biggest C files and functions of the tree (issue #34's measure of what to split):
#   scripts/sizes.pl [-n N] [TOP]
# prints the N (10) longest files of analysis/, plugin/ and kconfig-fragments/tool/ in lines,
# then the N longest functions, from the line naming the function to its closing brace, and
# the count of functions over 60 lines.
use strict;
use warnings;

my $n = 10;
if (@ARGV && $ARGV[0] eq '-n') {
	shift;
	$n = shift;
}
my $top = shift // '.';
my @files = map { glob("$top/$_") }
    qw(analysis/*/*.[ch] analysis/include/tickscope/*.h plugin/*.[ch] kconfig-fragments/tool/*.[ch]);
my (@fsize, @func);
for my $f (@files) {
	open(my $fh, '<', $f) or die "$f: $!\n";
	my @l = <$fh>;
	close $fh;
	(my $name = $f) =~ s{^\Q$top\E/}{};
	push @fsize, [ scalar @l, $name ];
	next unless $f =~ /\.c$/;
	my ($start, $fn, $body);
	for my $i (0 .. $#l) {
		# A definition: a name and "(" at column 0, then "{" at column 0 before any ";" ends
		# a line (else it was a declaration); its body ends at "}" at column 0.
		if (!defined $start) {
			($start, $fn, $body) = ($i, $1, 0)
			    if $l[$i] =~ /^[A-Za-z_][\w \*]*?\b(\w+)\(/ && $l[$i] !~ /^(typedef|#)/ &&
			    $l[$i] !~ /;\s*$/;
		} elsif (!$body) {
			if ($l[$i] =~ /^\{/) {
				$body = 1;
			} elsif ($l[$i] =~ /;\s*$/) {
				undef $start;
			}
		} elsif ($l[$i] =~ /^\}/) {
			push @func, [ $i - $start + 1, "$name:" . ($start + 1), $fn ];
			undef $start;
		}
	}
}
@fsize = sort { $b->[0] <=> $a->[0] || $a->[1] cmp $b->[1] } @fsize;
@func = sort { $b->[0] <=> $a->[0] || $a->[1] cmp $b->[1] } @func;
print "files, lines:\n";
printf "  %5d %s\n", @$_ for @fsize[0 .. ($n < @fsize ? $n : @fsize) - 1];
print "functions, lines:\n";
printf "  %5d %s %s\n", @$_ for @func[0 .. ($n < @func ? $n : @func) - 1];
printf "functions over 60 lines: %d of %d\n", scalar(grep { $_->[0] > 60 } @func), scalar @func;
