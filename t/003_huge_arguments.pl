# bench.init with the largest values its integer arguments accept: it must
# refuse them or at least stay cancelable, never run away with the backend.
#
# partitions => 2147483647 (pgbench accepts any positive --partitions) must
# be refused at once (22023: bench.init allows at most 10000), or else end
# on pg_cancel_backend / statement_timeout within seconds.  A call that does
# neither is killed with SIGKILL (the node restarts) and the test fails:
# that was the case before the cap, when the calling backend looped over
# every partition name without checking for interrupts, its memory growing
# until the OOM killer ended it.
#
# Needs the server's bin directory (initdb, pg_ctl, postgres) first in
# PATH, and pgbenchkit installed into that server.
use strict;
use warnings;

use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time usleep);

my $node = PostgreSQL::Test::Cluster->new('huge');
$node->init;
$node->append_conf('postgresql.conf', qq{
max_worker_processes = 32
# a runaway call is stopped with SIGKILL: let the postmaster restart then
restart_after_crash = on
});
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION pgbenchkit CASCADE');

# Run the statements of SQL (an array) in psql in the background; cancel it after CANCEL_AFTER seconds;
# returns (ended, seconds, stderr).  A call still running LIMIT seconds
# after the cancel is killed with SIGKILL.
sub run_bounded
{
	my ($what, $sql, $cancel_after, $limit) = @_;
	my ($out, $err) = ('', '');
	my $h = IPC::Run::start(
		[
			'psql', '-XAtq', '-v', 'VERBOSITY=verbose', '-v', 'ON_ERROR_STOP=1',
			'-d', $node->connstr('postgres'), '-c', "SET application_name = 'huge'",
			map { ('-c', $_) } @$sql
		],
		'>', \$out, '2>', \$err);
	my $t = time;
	my $canceled = 0;
	while ($h->pumpable && time - $t < $cancel_after + $limit)
	{
		$h->pump_nb;
		if (!$canceled && time - $t >= $cancel_after)
		{
			$node->safe_psql('postgres',
				q{SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE application_name = 'huge'});
			$canceled = 1;
		}
		usleep(100_000);
	}
	my $ended = !$h->pumpable;
	my $secs = time - $t;
	if (!$ended)
	{
		# a runaway backend: only SIGKILL stops it (the postmaster then
		# restarts every process)
		my $pid = $node->safe_psql('postgres',
			q{SELECT pid FROM pg_stat_activity WHERE application_name = 'huge'});
		diag "$what: still running after ${secs}s; killing backend $pid";
		kill 'KILL', $pid if $pid =~ /^\d+$/;
		$h->finish;
		my $deadline = time + 60;
		usleep(500_000)
		  until time > $deadline || ($node->psql('postgres', 'SELECT 1'))[0] == 0;
	}
	else
	{
		$h->finish;
	}
	note "$what: stdout: $out\nstderr: $err";
	return ($ended, $secs, $err);
}

{
	my $what = 'partitions => 2147483647, canceled after 2 s';
	my ($ended, $secs, $err) = run_bounded($what,
		[q{SELECT bench.init('tpcb', partitions => 2147483647)}], 2, 10);
	ok($ended, sprintf("$what: the call ended (%.1f s)", $secs));
	like($err, qr/ERROR:  (57014|22023|53\d\d\d|54\d\d\d): /,
		"$what: with a cancel or a refusal, not a crash");
}

{
	my $what = 'partitions => 2147483647 under statement_timeout 2s';
	my ($ended, $secs, $err) = run_bounded($what,
		[ q{SET statement_timeout = '2s'},
		  q{SELECT bench.init('tpcb', partitions => 2147483647, partition_method => 'hash')} ],
		8, 4);
	ok($ended && $secs < 10, sprintf("$what: the call ended within 10 s (%.1f s)", $secs));
	like($err, qr/ERROR:  (57014|22023|53\d\d\d|54\d\d\d): /,
		"$what: with a timeout or a refusal, not a crash");
}

is($node->safe_psql('postgres', q{SELECT count(*) FROM bench.datasets WHERE status = 'loading'}),
	'0', 'no dataset is left loading');
is($node->safe_psql('postgres', q{SELECT count(*) FROM pg_class WHERE relname LIKE 'bench\_load\_%'}),
	'0', 'no staging table is left');

$node->stop;
done_testing();
