# The upgrade script is built from the same texts as the install script
# (docs/design.md, "Releases and upgrades"), so a change written once, in
# its file of control/sql/, reaches databases that are updated.
#
#  1. A copy of control/ is made, and scripts/build-sql.pl (what the
#     Makefile runs) builds from it, unchanged, the install and upgrade
#     scripts that are installed.
#  2. In the copy, three changes, each in one file only:
#       - the body of bench._svg_num (rounds to 0.01, not 0.1);
#       - the signature of bench._progress_histogram: an argument with a
#         default, and an OUT column more (and its drop in before.sql, as
#         CREATE OR REPLACE cannot change them);
#       - a column appended to the view bench.run_arguments.
#     The copy's install and upgrade scripts, built as a version of its
#     own (EXTVERSION-pieces-test) from the last release (UPGRADE_FROM),
#     go into the extension folder of a PostgreSQL installation of the
#     test's own (its binaries copied, everything else a symbolic link to
#     the server's: PostgreSQL finds its share folder from where its
#     binary is), so that the server's files stay as they are; each
#     changed text is in one file of the copy and once in the upgrade
#     script.
#  3. A database made at the last release, with its frozen install
#     script, and updated to that version sees each change: the function's
#     result, the signature pg_proc has, the view's columns; and its
#     extension is the same as a fresh install of that version.
# Needs the server's bin directory first in PATH and pgbenchkit installed
# into that server.
use strict;
use warnings;

use Cwd qw(abs_path);
use File::Basename qw(dirname);
use File::Find;
use File::Temp qw(tempdir);
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

use lib dirname(abs_path(__FILE__)) . '/lib';
use ExtensionCatalog qw(same_extension);

my $src = abs_path($ENV{PGBENCHKIT_SRC} // dirname(abs_path(__FILE__)) . '/..');
my %pg = map { my $d = `pg_config --$_`; chomp $d; ($_ => abs_path($d)) } qw(bindir sharedir pkglibdir);
my $extdir = "$pg{sharedir}/extension";

sub slurp
{
	my ($path) = @_;
	open my $fh, '<:raw', $path or die "cannot read $path: $!";
	local $/;
	return scalar <$fh>;
}

sub spew
{
	my ($path, $text) = @_;
	open my $fh, '>:raw', $path or die "cannot write $path: $!";
	print $fh $text;
	close $fh or die "cannot write $path: $!";
}

# replace OLD by NEW in FILE, once (the test fails if OLD is not there once)
sub edit
{
	my ($file, $old, $new) = @_;
	my $text = slurp($file);
	my $n = () = $text =~ /\Q$old\E/g;
	die "$file has \"$old\" $n times, not once" unless $n == 1;
	$text =~ s/\Q$old\E/$new/;
	spew($file, $text);
}

my $makefile = slurp("$src/Makefile");
my ($version) = $makefile =~ /^EXTVERSION\s*=\s*(\S+)/m;
my ($from) = $makefile =~ /^UPGRADE_FROM\s*=\s*(\S+)/m;
ok($version && $from, "the Makefile builds $version and the upgrade from $from");
my $test_version = "$version-pieces-test";

# ------------------------------------------------------------ 1. the copy
my $tmp = tempdir('pieces-XXXXXX', TMPDIR => 1, CLEANUP => 1);
system('cp', '-R', "$src/control", "$tmp/control") == 0 or die "cp -R $src/control failed";
system('rm', '-rf', "$tmp/control/build");
my $build = "$src/scripts/build-sql.pl";

sub build
{
	my ($mode, @args) = @_;
	my ($out, $err) = ('', '');
	my $ok = IPC::Run::run([ 'perl', $build, $mode, @args, "$tmp/control" ], '>', \$out, '2>', \$err);
	die "scripts/build-sql.pl $mode @args failed: $err" unless $ok;
	return $out;
}

is(build('install', $version), slurp("$extdir/pgbenchkit--$version.sql"),
	"built from the copy, the install script of $version is the one installed");
is(build('upgrade', $from, $version), slurp("$extdir/pgbenchkit--$from--$version.sql"),
	"and so is the upgrade script from $from");

# ------------------------------------------------------------ 2. the changes
my $sql = "$tmp/control/sql";
edit("$sql/functions/_svg_num.sql", 'pg_catalog.round(v::numeric, 1)', 'pg_catalog.round(v::numeric, 2)');
edit("$sql/functions/_progress_histogram.sql", 'bench._progress_histogram(run_id bigint)',
	'bench._progress_histogram(run_id bigint, min_count bigint DEFAULT 0)');
edit("$sql/functions/_progress_histogram.sql", 'count bigint)', 'count bigint, width_ms double precision)');
edit("$sql/functions/_progress_histogram.sql", 'sum(h.count)::bigint',
	'sum(h.count)::bigint, h.upper_ms - h.lower_ms');
edit("$sql/functions/_progress_histogram.sql", ' GROUP BY h.lower_ms, h.upper_ms',
	" GROUP BY h.lower_ms, h.upper_ms\nHAVING sum(h.count) >= min_count");
edit("$sql/functions/_progress_histogram.sql", 'bench._progress_histogram(bigint) IS',
	'bench._progress_histogram(bigint, bigint) IS');
edit("$sql/views/run_arguments.sql", 'a.default_value, a.description',
	'a.default_value, a.description, a.required');
system('mv', "$tmp/control/upgrade/$from--$version", "$tmp/control/upgrade/$from--$test_version") == 0
  or die "mv of control/upgrade/$from--$version failed";
my $before = "$tmp/control/upgrade/$from--$test_version/before.sql";
spew($before, slurp($before) . "\nDROP FUNCTION bench._progress_histogram(bigint);\n");

my $install = build('install', $test_version);
my $upgrade = build('upgrade', $from, $test_version);

# each changed text is in one file of the copy, and once in the upgrade script
for my $text ('pg_catalog.round(v::numeric, 2)', 'min_count bigint DEFAULT 0',
	'width_ms double precision', 'a.description, a.required')
{
	my @files;
	find(sub { push @files, $File::Find::name if -f $_ && index(slurp($_), $text) >= 0 }, "$tmp/control");
	s{^\Q$tmp\E/}{} for @files;
	is(join(' ', sort @files), $text eq 'a.description, a.required' ? 'control/sql/views/run_arguments.sql'
		: $text =~ /round/ ? 'control/sql/functions/_svg_num.sql' : 'control/sql/functions/_progress_histogram.sql',
		"\"$text\" is written in one file of control/");
	my $n = () = $upgrade =~ /\Q$text\E/g;
	is($n, 1, "... and is once in the upgrade script built from it");
}

# The test's installation: under MIRROR, the folders from ROOT (three
# levels above the folder that holds bin, share and lib, so that a
# library path relative to the binaries, as the PyPI build has, leads to
# the same files) down to them; every other entry on the way is a
# symbolic link to the server's.  bin/ is a copy (a binary reached
# through a link would find the server's share folder); share/extension/
# is a folder of links to the server's files, with the copy's scripts.
my @dirs = values %pg;
my $common = $pg{bindir};
$common = dirname($common) while grep { index("$_/", "$common/") != 0 } @dirs;
my $root = $common;
$root = dirname($root) for 1 .. 3;
my $mirror = "$tmp/installation";
# where the copy of a folder under ROOT is (ROOT may be /)
sub mirrored { return $mirror . substr($_[0], $root eq '/' ? 0 : length $root); }

# the folders from ROOT down to bin/ and share/extension/
for my $real ($pg{bindir}, $extdir)
{
	my @chain = ($real);
	unshift @chain, dirname($chain[0]) while $chain[0] ne $root;
	-d mirrored($_) or mkdir mirrored($_) or die 'mkdir ' . mirrored($_) . ": $!" for @chain;
}
# bin/: a copy
my $bin = mirrored($pg{bindir});
system('cp', '-a', (glob "$pg{bindir}/*"), $bin) == 0 or die "cp -a of $pg{bindir} failed";
# every other entry of those folders: a link to the server's
for my $real ($pg{bindir}, $extdir)
{
	my $dir = $real;
	while (1)
	{
		my $copy = mirrored($dir);
		opendir my $dh, $dir or die "opendir $dir: $!";
		for my $e (grep { $_ ne '.' && $_ ne '..' } readdir $dh)
		{
			next if -e "$copy/$e" || -l "$copy/$e";
			symlink("$dir/$e", "$copy/$e") or die "symlink $copy/$e: $!";
		}
		closedir $dh;
		last if $dir eq $root;
		$dir = dirname($dir);
	}
}
my $ext = mirrored($extdir);
spew("$ext/pgbenchkit--$test_version.sql", $install);
spew("$ext/pgbenchkit--$from--$test_version.sql", $upgrade);
is(`$bin/pg_config --sharedir`, mirrored($pg{sharedir}) . "\n",
	'the copied binaries find the share folder of the test\'s installation');

# ------------------------------------------------------------ 3. the update
my $node = PostgreSQL::Test::Cluster->new('pieces', install_path => dirname($bin));
$node->init;
$node->append_conf('postgresql.conf', "max_worker_processes = 20\n");
$node->start;
$node->safe_psql('postgres', 'CREATE DATABASE up');
$node->safe_psql('postgres', 'CREATE DATABASE fresh');
sub up { return $node->safe_psql('up', $_[0]); }

my %q = (
	svg_num => q{SELECT bench._svg_num(1.23456)},
	args => q{SELECT pg_get_function_arguments(p.oid) || ' -> ' || pg_get_function_result(p.oid)
	            FROM pg_proc p WHERE p.oid = 'bench._progress_histogram'::regproc},
	columns => q{SELECT string_agg(attname, ',' ORDER BY attnum) FROM pg_attribute
	              WHERE attrelid = 'bench.run_arguments'::regclass AND attnum > 0});

up(qq{CREATE EXTENSION pgbenchkit VERSION '$from' CASCADE});
is(up($q{svg_num}), '1.2', "at $from, bench._svg_num rounds to 0.1");
is(up($q{args}), 'run_id bigint -> TABLE(lower_ms double precision, upper_ms double precision, count bigint)',
	"at $from, bench._progress_histogram has its old signature");
is(up($q{columns}), 'argno,name,type,default_value,description', "at $from, bench.run_arguments has five columns");
my $run = up(q{SELECT id FROM bench.run(script => 'SELECT 1', duration => '2 s', progress => '1 s')});

up(qq{ALTER EXTENSION pgbenchkit UPDATE TO '$test_version'});
is(up(q{SELECT extversion FROM pg_extension WHERE extname = 'pgbenchkit'}), $test_version,
	"the database is updated to $test_version");
is(up($q{svg_num}), '1.23', 'a body changed in its file only: bench._svg_num rounds to 0.01');
is(up($q{args}),
	'run_id bigint, min_count bigint DEFAULT 0 -> TABLE(lower_ms double precision, upper_ms double precision, count bigint, width_ms double precision)',
	'a signature changed in its file and dropped in before.sql: bench._progress_histogram has the new one, alone');
is(up(qq{SELECT count(*) = count(*) FILTER (WHERE abs(width_ms - (upper_ms - lower_ms)) < 1e-9) AND count(*) > 0
           FROM bench._progress_histogram($run, min_count => 1)}), 't',
	'and returns its new column for a run made before the update');
is(up($q{columns}), 'argno,name,type,default_value,description,required',
	'a column appended to a view in its file: bench.run_arguments has it');
is(up(q{SELECT count(*) FILTER (WHERE v.required = a.required) = count(*) AND count(*) > 10
          FROM bench.run_arguments v JOIN bench._arguments_of('bench.run') a USING (argno)}), 't',
	'with the values bench._arguments_of has');
is(up(qq{SELECT status FROM bench.runs WHERE id = $run}), 'done', 'the run made before the update is kept');

$node->safe_psql('fresh', qq{CREATE EXTENSION pgbenchkit VERSION '$test_version' CASCADE});
is($node->safe_psql('fresh', $q{svg_num}) . ' ' . $node->safe_psql('fresh', $q{columns}),
	'1.23 argno,name,type,default_value,description,required', "a fresh install of $test_version has the changes");
same_extension($node, 'up', 'fresh', "updated from $from, the extension is the same as a fresh install of $test_version");

$node->stop;

done_testing();
