#!/usr/bin/env perl
# The install script and the upgrade script of the version in development,
# built from the texts in control/ (what the Makefile runs; docs/design.md,
# "The install script is built from one piece per concern").
#
#   scripts/build-sql.pl install VERSION CONTROL_DIR
#   scripts/build-sql.pl upgrade FROM VERSION CONTROL_DIR
#
# install  prints the install script of VERSION: a two-line header, then
#          the pieces CONTROL_DIR/install/*.sql in the order of their
#          names, each line that is exactly
#              #include "functions/NAME.sql"   (or "views/NAME.sql")
#          replaced by that file of CONTROL_DIR/sql/.
# upgrade  prints the upgrade script from FROM to VERSION: a two-line
#          header, CONTROL_DIR/upgrade/FROM--VERSION/before.sql, then the
#          replay (every file the pieces include, in the order the install
#          script has them: each creates its function or view with CREATE
#          OR REPLACE and sets its comments and privileges again), then
#          CONTROL_DIR/upgrade/FROM--VERSION/after.sql.
#
# Only lines that are exactly an #include of that form are read; the SQL
# is copied byte for byte (no preprocessor: quotes, comments, dollar
# quoting and lines starting with # stay as they are).  It refuses an
# #include line of another form, a file that is missing, included twice
# or includes another, and a file of CONTROL_DIR/sql/ that no piece
# includes (its text would reach neither an install nor an upgrade).
use strict;
use warnings;

sub usage
{
	die "usage: $0 install VERSION CONTROL_DIR\n       $0 upgrade FROM VERSION CONTROL_DIR\n";
}

sub slurp
{
	my ($path) = @_;
	open my $fh, '<:raw', $path or die "$0: cannot read $path: $!\n";
	local $/;
	my $text = <$fh>;
	close $fh;
	die "$0: $path does not end with a newline\n" if length $text && $text !~ /\n\z/;
	return $text;
}

my $mode = shift @ARGV // usage();
my ($from, $version, $control);
if ($mode eq 'install' && @ARGV == 2) { ($version, $control) = @ARGV; }
elsif ($mode eq 'upgrade' && @ARGV == 3) { ($from, $version, $control) = @ARGV; }
else { usage(); }

my @pieces = sort glob("$control/install/*.sql");
die "$0: no pieces in $control/install/\n" unless @pieces;

# the pieces with their #include lines expanded, and the included files in order
my ($install, @replay, %included) = ('');
for my $piece (@pieces)
{
	my $n = 0;
	for my $line (split /^/, slurp($piece))
	{
		$n++;
		if ($line !~ /^#\s*include\b/)
		{
			$install .= $line;
			next;
		}
		$line =~ m{^#include "((?:functions|views)/[A-Za-z0-9_]+\.sql)"\n\z}
		  or die "$0: $piece:$n: an #include line is #include \"functions/NAME.sql\" or \"views/NAME.sql\", nothing else\n";
		my $file = $1;
		die "$0: $piece:$n: $file is included again (first in $included{$file})\n"
		  if $included{$file};
		$included{$file} = "$piece:$n";
		my $text = slurp("$control/sql/$file");
		die "$0: $control/sql/$file includes another file (only the pieces of install/ include)\n"
		  if $text =~ /^#\s*include\b/m;
		$install .= $text;
		push @replay, $text;
	}
}
for my $file (sort glob("$control/sql/*/*.sql"))
{
	(my $rel = $file) =~ s{^\Q$control\E/sql/}{};
	die "$0: $file is included by no piece of $control/install/\n" unless $included{$rel};
}

binmode STDOUT;
if ($mode eq 'install')
{
	print "-- pgbenchkit $version: the benchmark lab inside PostgreSQL\n",
	  "\\echo Use \"CREATE EXTENSION pgbenchkit CASCADE\" to load this file. \\quit\n",
	  "\n", $install;
}
else
{
	my $dir = "$control/upgrade/$from--$version";
	die "$0: no $dir/before.sql and $dir/after.sql: the upgrade from $from to $version starts with them\n"
	  unless -f "$dir/before.sql" && -f "$dir/after.sql";
	print "-- pgbenchkit $from to $version: ALTER EXTENSION pgbenchkit UPDATE\n",
	  "\\echo Use \"ALTER EXTENSION pgbenchkit UPDATE\" to load this file. \\quit\n",
	  "\n", "-- before the replay (control/upgrade/$from--$version/before.sql)\n\n",
	  slurp("$dir/before.sql"),
	  "\n-- the replay: every function and view of control/sql/, in install order\n\n",
	  join("\n", @replay),
	  "\n-- after the replay (control/upgrade/$from--$version/after.sql)\n\n",
	  slurp("$dir/after.sql");
}
