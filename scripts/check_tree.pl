#!/usr/bin/env perl
# The source tree keeps its shape (docs/design.md, "Where things are"):
#
#   scripts/check_tree.pl [--tap] [SRC-DIR]
#
# Checks, on src/ as it is and on its built objects (run `make` first):
#
#  1. every part of the architecture is a folder of src/ named in @LAYERS,
#     lowest first, with a README.md saying what it owns; no source sits
#     in src/ itself;
#  2. no C file is over $MAX_LINES lines;
#  3. a file includes headers of its own folder and of lower ones only
#     (`#include "runner/runner.h"`), and an object uses symbols of its own
#     folder and of lower ones only;
#  4. no circle between units (a unit is foo.c with its foo.h), in the
#     graph made of the #include lines between our files and of the
#     objects' symbols (nm: what one object leaves undefined that another
#     defines);
#  5. a symbol one unit uses from another is declared in the other's own
#     header (foo.c exports through foo.h, nowhere else).
#
# Prints each violation and exits non-zero if there is any; with --tap,
# prints one TAP line per check instead (test/tree.sh).
use strict;
use warnings;
use File::Basename qw(basename dirname);
use File::Find;

# lowest first: a folder may depend on itself and on the folders before it
my @LAYERS = qw(core script target meta dataset observe runner api);
my $MAX_LINES = 1500;

my $tap = @ARGV && $ARGV[0] eq '--tap' ? shift @ARGV : 0;
my $src = shift @ARGV // dirname(__FILE__) . '/../src';
-d $src or die "no source folder $src\n";

my %rank;
@rank{@LAYERS} = (0 .. $#LAYERS);
my (%problems, @order);
sub problem {
	my ($check, $text) = @_;
	push @{ $problems{$check} }, $text;
}
my @checks = (
	'the parts of src/ are its folders, each with a README.md',
	"no C file is over $MAX_LINES lines",
	'a file includes and uses its own part and the parts below it only',
	'no circle between units (includes and symbols)',
	'a unit exports through its own header only',
);

# ------------------------------------------------------------ the files
my (@files, %unit_of);
find({ no_chdir => 1, wanted => sub {
	return unless /\.[ch]$/;
	my $rel = substr($File::Find::name, length($src) + 1);
	push @files, $rel;
} }, $src);
@files = sort @files;
for my $f (@files) {
	my $dir = dirname($f);
	if ($dir eq '.') {
		problem($checks[0], "src/$f is in src/ itself, not in the folder of its part");
		next;
	}
	if (!exists $rank{$dir}) {
		problem($checks[0], "src/$dir/ is not a part of the architecture (\@LAYERS in this script)");
		next;
	}
	(my $unit = $f) =~ s/\.[ch]$//;
	$unit_of{$f} = $unit;
}
for my $dir (@LAYERS) {
	problem($checks[0], "src/$dir/ has no README.md") unless -f "$src/$dir/README.md";
}

# ------------------------------------------------------------ line counts
for my $f (grep { /\.c$/ } @files) {
	open my $fh, '<', "$src/$f" or die "$src/$f: $!\n";
	my $n = 0;
	$n++ while <$fh>;
	close $fh;
	problem($checks[1], "src/$f has $n lines") if $n > $MAX_LINES;
}

# ------------------------------------------------------------ the graph
my %edge;    # "$from $to" => reason
sub folder_of { return dirname($_[0]); }
sub add_edge {
	my ($from, $to, $why) = @_;
	return if $from eq $to;
	$edge{"$from $to"} //= $why;
	my ($a, $b) = (folder_of($from), folder_of($to));
	if (exists $rank{$a} && exists $rank{$b} && $rank{$b} > $rank{$a}) {
		problem($checks[2], "$from ($a) depends on $to ($b, a higher part): $why");
	}
}

for my $f (grep { exists $unit_of{$_} } @files) {
	open my $fh, '<', "$src/$f" or die "$src/$f: $!\n";
	while (my $line = <$fh>) {
		next unless $line =~ /^\s*#\s*include\s+"([^"]+)"/;
		my $inc = $1;
		next unless -f "$src/$inc";    # a PostgreSQL header
		add_edge($unit_of{$f}, $unit_of{$inc} // $inc, "$f includes $inc");
	}
	close $fh;
}

# the objects' symbols
my (%defined_by, %uses);
for my $c (grep { /\.c$/ && exists $unit_of{$_} } @files) {
	(my $o = "$src/$c") =~ s/\.c$/.o/;
	if (!-f $o) {
		problem($checks[3], "src/$c is not built (run make first)");
		next;
	}
	my $unit = $unit_of{$c};
	for (`nm --defined-only -g "$o"`) {
		my (undef, $type, $sym) = split;
		next unless defined $sym && $type =~ /^[TDBRCVW]$/;
		$defined_by{$sym} = $unit;
	}
	for (`nm -u "$o"`) {
		my (undef, $sym) = split;
		push @{ $uses{$unit} }, $sym if defined $sym;
	}
}
my %exports;    # unit => { sym => first user }
for my $unit (sort keys %uses) {
	for my $sym (@{ $uses{$unit} }) {
		my $def = $defined_by{$sym} or next;
		next if $def eq $unit;
		add_edge($unit, $def, "uses $sym");
		$exports{$def}{$sym} //= $unit;
	}
}

# ------------------------------------------------------------ circles
# Tarjan's strongly connected components; each of more than one unit is
# a circle
my %next;
for (keys %edge) {
	my ($a, $b) = split;
	push @{ $next{$a} }, $b;
}
my ($index, @stack, %on, %idx, %low) = (0);
my @sccs;
sub visit {
	my ($v) = @_;
	$idx{$v} = $low{$v} = $index++;
	push @stack, $v;
	$on{$v} = 1;
	for my $w (sort @{ $next{$v} // [] }) {
		if (!exists $idx{$w}) {
			visit($w);
			$low{$v} = $low{$w} if $low{$w} < $low{$v};
		} elsif ($on{$w}) {
			$low{$v} = $idx{$w} if $idx{$w} < $low{$v};
		}
	}
	if ($low{$v} == $idx{$v}) {
		my @c;
		my $w;
		do { $w = pop @stack; $on{$w} = 0; push @c, $w; } while ($w ne $v);
		push @sccs, [sort @c] if @c > 1;
	}
}
my %nodes = map { $_ => 1 } map { split } keys %edge;
for (sort keys %nodes) { visit($_) unless exists $idx{$_}; }
for my $c (@sccs) {
	my %in = map { $_ => 1 } @$c;
	my @why = map { "$_ ($edge{$_})" } grep { my ($a, $b) = split; $in{$a} && $in{$b} } sort keys %edge;
	problem($checks[3], "a circle between " . join(', ', @$c) . ": " . join('; ', @why));
}

# ------------------------------------------------------------ exports
for my $unit (sort keys %exports) {
	my $h = "$src/$unit.h";
	my $text = '';
	if (open my $fh, '<', $h) { local $/; $text = <$fh>; close $fh; }
	for my $sym (sort keys %{ $exports{$unit} }) {
		next if $text =~ /\b\Q$sym\E\b/;
		problem($checks[4], "$sym of $unit.c (used by $exports{$unit}{$sym}) is not declared in $unit.h");
	}
}

# ------------------------------------------------------------ report
my $failed = 0;
my $n = 0;
for my $check (@checks) {
	my @p = @{ $problems{$check} // [] };
	$failed++ if @p;
	if ($tap) {
		$n++;
		print @p ? "not ok $n - $check\n" : "ok $n - $check\n";
		print map { "# $_\n" } @p;
	} else {
		print map { "$_\n" } @p;
	}
}
print "1..$n\n" if $tap;
exit($failed && !$tap ? 1 : 0);
