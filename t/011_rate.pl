# Rate-limited runs (bench.run(rate => ...), pgbench -R): the achieved rate
# is within 2% of the target at 500 and at 5000 transactions per second,
# the schedule lag is reported, latency counts from the scheduled start,
# and latency_limit counts late transactions and skips the too late ones.
#
# The schedule is a Poisson process drawn from the run's random_seed: with
# a fixed seed the number of transactions due within the duration is fixed
# too, so the 2% bound does not depend on luck, only on the clients keeping
# up with the schedule (a few percent of two cores at these rates).
#
# Needs the server's bin directory first in PATH and pgbenchkit installed
# into that server.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('rate');
$node->init;
$node->append_conf('postgresql.conf', qq{
max_worker_processes = 32
});
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION pgbenchkit CASCADE');

sub sql { return $node->safe_psql('postgres', $_[0]); }

# a rate-limited run of a trivial script; its row as a hash
sub rate_run
{
	my ($rate, $clients, $duration, $extra) = @_;
	$extra //= '';
	my $row = sql(qq{SET client_min_messages = warning;
		SELECT status, transactions, round(tps::numeric, 3), measured_s,
		       lag_avg_ms, lag_max_ms, latency_avg_ms, COALESCE(skipped, -1), COALESCE(late, -1), id
		  FROM bench.run(script => 'SELECT 1;', clients => $clients, duration => '$duration',
		                 rate => $rate, random_seed => 20261121, prewarm => false,
		                 progress => '0' $extra)});
	my %r;
	@r{qw(status transactions tps measured_s lag_avg lag_max lat_avg skipped late id)} = split /\|/, $row;
	return \%r;
}

foreach my $case ([ 500, 2, '10 s' ], [ 5000, 4, '10 s' ])
{
	my ($rate, $clients, $duration) = @$case;
	my $r = rate_run($rate, $clients, $duration);
	is($r->{status}, 'done', "rate $rate: the run is done");
	my $off = abs($r->{tps} / $rate - 1);
	cmp_ok($off, '<', 0.02,
		"rate $rate with $clients clients: achieved $r->{tps} tps, within 2% of the target ("
		  . sprintf('%.2f%%', 100 * $off) . ')');
	ok(defined $r->{lag_avg} && $r->{lag_avg} ne '' && $r->{lag_avg} >= 0,
		"rate $rate: the schedule lag is reported (avg $r->{lag_avg} ms)");
	cmp_ok($r->{lag_max}, '>=', $r->{lag_avg}, "rate $rate: max lag ($r->{lag_max} ms) >= average lag");
	cmp_ok($r->{lat_avg}, '>=', $r->{lag_avg},
		"rate $rate: latency counts from the scheduled start, so it includes the lag");
	is($r->{skipped}, -1, "rate $rate without latency_limit: skipped is not counted (NULL)");
	like(sql("SELECT bench.report($r->{id})"), qr/^rate limit schedule lag: avg [0-9.]+ \(max [0-9.]+\) ms$/m,
		"rate $rate: bench.report prints the schedule lag as pgbench -R does");
}

# the same seed gives the same schedule.  A run's schedule depends only on
# its seed, rate, clients and client workers: bench._rate_schedule draws it
# as the clients do.  A duration that ends in the middle of the widest gap
# between two scheduled starts from 2 to 4 s leaves no start within about a
# tenth of a second of the end, so each run of that seed counts exactly the
# starts before its end, however late its clients run on a busy machine.
sub schedule
{
	my ($seed) = @_;
	my $arr = sql("SELECT bench._rate_schedule($seed, 10, 2, 2, 5)");
	$arr =~ s/^\{|\}$//g;
	return [ split /,/, $arr ];
}
my $starts = schedule(20261121);
my ($best, $end, $count) = (0, undef, undef);
for my $i (0 .. $#$starts - 1)
{
	my ($x, $y) = ($starts->[$i], $starts->[ $i + 1 ]);
	next if $y < 2 || $x > 4;
	($best, $end, $count) = ($y - $x, ($x + $y) / 2, $i + 1) if $y - $x > $best;
}
ok(defined $end && $best > 0.1,
	sprintf('the schedule of 10 tps over 2 clients has a gap of %.0f ms near 3 s', 1000 * $best));
my $duration = sprintf('%.4f s', $end);
my $a = rate_run(10, 2, $duration);
my $b = rate_run(10, 2, $duration);
is($a->{transactions}, $count, "a run of $duration at 10 tps counts the $count starts its seed schedules");
is($b->{transactions}, $count, "so does another run with the same random_seed");
isnt(join(',', @{ schedule(20261122) }), join(',', @$starts), 'another seed schedules other starts');

# latency_limit: a script of 3 ms at 1000 tps on one client cannot keep up;
# transactions already more than 1 ms late when due are skipped, and the
# ones that run take longer than 1 ms: all late
my $slow = sql(q{SET client_min_messages = warning;
	SELECT status, transactions, skipped, late, transactions + skipped
	  FROM bench.run(script => 'SELECT pg_sleep(0.003);', transactions => 300, rate => 1000,
	                 latency_limit => '1 ms', random_seed => 1, prewarm => false, progress => '0')});
my ($st, $xacts, $skipped, $late, $total) = split /\|/, $slow;
is($st, 'done', 'latency_limit: the run is done');
is($total, 300, 'latency_limit: transactions and skipped ones add up to the 300 asked for (pgbench -t counts skipped ones)');
cmp_ok($skipped, '>', 0, "latency_limit: $skipped transactions were skipped for being too late");
is($late, $xacts, "latency_limit: all $xacts transactions that ran took longer than 1 ms");

# and a limit that every transaction meets: nothing late, nothing skipped
my $fast = sql(q{SET client_min_messages = warning;
	SELECT late, skipped FROM bench.run(script => 'SELECT 1;', transactions => 200, rate => 100,
	                 latency_limit => '1 s', prewarm => false, progress => '0')});
is($fast, '0|0', 'latency_limit of 1 s at 100 tps: nothing late, nothing skipped');

$node->stop;
done_testing();
