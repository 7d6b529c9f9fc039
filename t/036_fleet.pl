# A fleet of drivers: two pgbenchkit databases, each a node
# (bench.set_node), publish their results (bench.publish), and a central
# pgbenchkit database subscribes to both with plain CREATE SUBSCRIPTION.
# The rows arrive as the drivers have them, table by table, in the columns
# the publication carries. What it leaves out (run variables, the run
# arguments of suites, process ids, the regclass[] of datasets) stays on
# the drivers. The central database reports and compares the runs of both
# and says which node ran each. It shows a run in progress on a driver as
# its node wrote it, and catches up after it was down. bench.publish's bad
# input is refused.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(sleep);

my %n;
for my $name (qw(driver1 driver2 central))
{
	my $node = PostgreSQL::Test::Cluster->new($name);
	$node->init(allows_streaming => 'logical');
	$node->append_conf('postgresql.conf', "max_worker_processes = 16\n");
	$node->start;
	$node->safe_psql('postgres', 'CREATE DATABASE bk');
	$node->safe_psql('bk', 'SET client_min_messages = warning; CREATE EXTENSION pgbenchkit CASCADE');
	$n{$name} = $node;
}
my ($d1, $d2, $c) = @n{qw(driver1 driver2 central)};

if ($d1->safe_psql('bk', 'SHOW server_version_num') < 150000)
{
	my ($ret, $out, $err) = $d1->psql('bk', 'SELECT bench.publish()');
	like($err, qr/bench.publish needs PostgreSQL 15 or later/, 'PostgreSQL 14: bench.publish is refused');
	done_testing();
	exit 0;
}

# ---------------------------------------------------------------- bad input

my ($ret, $out, $err) = $d1->psql('bk', 'SELECT bench.publish()');
like($err, qr/this database is not a node yet/, 'bench.publish before bench.set_node: refused');
like($err, qr/Set its node first, bench.set_node\(name, number\)/, '... the hint says what to do');
$d1->safe_psql('bk', "SELECT bench.set_node('aws-1', 1)");
$d2->safe_psql('bk', "SELECT bench.set_node('gcp-1', 2)");
$c->safe_psql('bk', "SELECT bench.set_node('central', 9)");
($ret, $out, $err) = $d1->psql('bk', 'SELECT bench.publish(NULL)');
like($err, qr/argument "publication" of bench.publish must not be null/, 'a NULL publication name: refused');
$d1->safe_psql('bk', 'CREATE ROLE fleet_nobody');
($ret, $out, $err) = $d1->psql('bk', 'SET ROLE fleet_nobody; SELECT bench.publish()');
like($err, qr/permission denied for function publish/, 'not everyone may publish');
is($d1->safe_psql('bk', 'SELECT count(*) FROM pg_publication'), '0', 'nothing was published');

# ---------------------------------------------------------------- the drivers' work

# a run with a secret variable and a sweep on each driver
sub work
{
	my ($d) = @_;
	$d->safe_psql('bk', "SELECT dataset_id FROM bench.init('tpcb', scale => 1)")
	  if $d->safe_psql('bk', 'SELECT count(*) FROM bench.datasets') eq '0';
	my $run = $d->safe_psql('bk', q{
		SELECT id FROM bench.run('tpcb', clients => 2, duration => '2 s', progress => '1 s',
		                         variables => '{"fleet_secret": "hunter2"}')});
	my $suite = $d->safe_psql('bk', q{
		SET client_min_messages = warning;
		SELECT DISTINCT suite_id FROM bench.sweep('select-only', clients => '{1,2}', repeat => 1,
		                                          duration => '1 s', progress => '0',
		                                          variables => '{"fleet_secret": "hunter2"}')});
	return ($run, $suite);
}
my ($run1, $suite1) = work($d1);
my ($run2, $suite2) = work($d2);
cmp_ok($run1, '>=', 1 << 40, "driver 1's run is in node 1's range");
cmp_ok($run2, '>=', 2 << 40, "driver 2's run is in node 2's range");

is($d1->safe_psql('bk', 'SELECT bench.publish()'), 'pgbenchkit', 'bench.publish makes the publication');
is($d1->safe_psql('bk', 'SELECT bench.publish()'), 'pgbenchkit',
	'a second time: the same publication, brought to the tables and columns of this version');
$d1->safe_psql('bk', 'CREATE TABLE public.mine (i int PRIMARY KEY); CREATE PUBLICATION other FOR TABLE public.mine');
($ret, $out, $err) = $d1->psql('bk', 'SELECT bench.publish(\'other\')');
like($err, qr/publication "other" exists already, and publishes more than the results of pgbenchkit/,
	'a publication of other tables: refused');
$d1->safe_psql('bk', 'DROP PUBLICATION other; DROP TABLE public.mine');
$d2->safe_psql('bk', 'SELECT bench.publish()');

# ---------------------------------------------------------------- the central database

# its subscriptions: its owner (a superuser here) bypasses row level
# security, as applying changes needs
sub subscribe
{
	my ($d) = @_;
	my $conn = 'port=' . $d->port . ' host=' . $d->host . ' dbname=bk';
	my $sub = $d->name;
	$c->safe_psql('bk', "CREATE SUBSCRIPTION $sub CONNECTION '$conn' PUBLICATION pgbenchkit");
}
subscribe($_) foreach ($d1, $d2);

# wait until every table is copied and the central database has all that
# each driver wrote
sub synced
{
	$c->poll_query_until('bk', q{SELECT count(*) = 0 FROM pg_subscription_rel WHERE srsubstate NOT IN ('r', 's')})
	  or die 'the tables were not copied';
	$_->wait_for_catchup($_->name) foreach ($d1, $d2);
}
synced();

# the tables, each in the columns the publication carries, the rows of
# the driver's range: as on the driver
my %leave_out = (_runs => [qw(variables coordinator_pid)], _suites => [qw(args worker_pid)],
	datasets => [qw(tables worker_pid)]);
my @tables = qw(_runs _suites datasets progress histograms samples relation_sizes prewarms
  run_scripts command_latencies run_groups group_progress outages);
sub contents
{
	my ($node, $table, $number) = @_;
	my $key = $table =~ /^(_runs|_suites|datasets)$/ ? 'id' : 'run_id';
	my $out = join(',', map { "'$_'" } @{ $leave_out{$table} || [] });
	my $cols = $node->safe_psql('bk', qq{
		SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum) FROM pg_attribute
		 WHERE attrelid = 'bench.$table'::regclass AND attnum > 0 AND NOT attisdropped
		   @{[ $out ? "AND attname NOT IN ($out)" : '' ]}});
	return $node->safe_psql('bk', qq{
		SELECT count(*) || ' rows, md5 ' || md5(COALESCE(string_agg(r::text, '|' ORDER BY r::text), ''))
		  FROM (SELECT $cols FROM bench.$table
		         WHERE $key >= (${number}::bigint << 40) AND $key < ((${number} + 1)::bigint << 40)) r});
}
sub same_as_drivers
{
	my ($what) = @_;
	for my $pair ([ $d1, 1 ], [ $d2, 2 ])
	{
		my ($d, $number) = @$pair;
		my (@differ, $runs);
		for my $t (@tables)
		{
			my $there = contents($d, $t, $number);
			push @differ, "$t: $there on the driver, " . contents($c, $t, $number) . ' here'
			  if contents($c, $t, $number) ne $there;
			$runs = $there if $t eq '_runs';
		}
		is(join("; ", @differ), "", "$what: every table of node $number as on its driver (its runs: $runs)");
	}
}
same_as_drivers('after the initial copy');
cmp_ok($c->safe_psql('bk', "SELECT count(*) FROM bench.progress WHERE run_id IN ($run1, $run2)"), '>', 0,
	'the progress rows of both runs are there');

# what the publication leaves out
is($c->safe_psql('bk', q{
	SELECT count(*) FROM bench._runs WHERE id >= (1::bigint << 40) AND id < (9::bigint << 40)
	   AND (variables IS NOT NULL OR coordinator_pid IS NOT NULL)}), '0',
	'runs arrive without their variables and process ids');
is($c->safe_psql('bk', q{
	SELECT count(*) FROM bench._suites WHERE id < (9::bigint << 40) AND (args IS NOT NULL OR worker_pid IS NOT NULL)}),
	'0', 'suites arrive without their run arguments and process ids');
is($c->safe_psql('bk', q{SELECT count(*) FROM bench.datasets WHERE id < (9::bigint << 40) AND tables IS NOT NULL}),
	'0', 'datasets arrive without the regclass[] of their tables');
is($c->safe_psql('bk', q{
	SELECT (SELECT count(*) FROM bench._runs r WHERE r::text LIKE '%hunter2%')
	     + (SELECT count(*) FROM bench._suites s WHERE s::text LIKE '%hunter2%')}), '0',
	'the secret variable is nowhere in the central database');
is($d1->safe_psql('bk', "SELECT count(*) FROM bench._suites s WHERE s::text LIKE '%hunter2%'"), '1',
	'... and still on its driver');

# reports, comparisons and charts over both drivers, naming the node
like($c->safe_psql('bk', "SELECT bench.report($run1)"), qr/^node: aws-1 \(number 1\), on host \S+$/m,
	'bench.report of a run of driver 1 names its node');
like($c->safe_psql('bk', "SELECT bench.report($run2)"), qr/^node: gcp-1 \(number 2\)/m,
	'... and of driver 2');
is($c->safe_psql('bk', "SELECT count(*) FROM bench.compare($run1, $run2)") > 0 ? 'rows' : 'none', 'rows',
	'bench.compare compares a run of each driver');
like($c->safe_psql('bk', "SELECT bench.chart_runs(ARRAY[$run1, $run2])"), qr/^<svg/,
	'bench.chart_runs draws them together');
is($c->safe_psql('bk', "SELECT string_agg(status, ',' ORDER BY id) FROM bench.suites WHERE id IN ($suite1, $suite2)"),
	'done,done', 'the suites of both drivers, done');

# ---------------------------------------------------------------- who sees what

# rows keep the driver's role names: on the central database they belong
# to the roles of those names, and row level security gives each its own
$_->safe_psql('postgres', 'CREATE ROLE fleet_alice LOGIN; CREATE ROLE fleet_bob LOGIN')
  foreach ($d1, $c);
$d1->safe_psql('bk', 'GRANT EXECUTE ON FUNCTION bench.run TO fleet_alice');
my $alice_run = $d1->safe_psql('bk', q{
	SET ROLE fleet_alice;
	SELECT id FROM bench.run(script => 'SELECT 1', transactions => 5, progress => '0', prewarm => false)});
$d1->wait_for_catchup('driver1');
is($c->safe_psql('bk', "SELECT created_by FROM bench.runs WHERE id = $alice_run"), 'fleet_alice',
	'a run of a role of the driver arrives with its role name');
is($c->safe_psql('bk', "SET ROLE fleet_alice; SELECT count(*) FROM bench.runs WHERE id = $alice_run"), '1',
	'... the role of that name on the central database sees it');
is($c->safe_psql('bk', "SET ROLE fleet_alice; SELECT count(*) FROM bench.runs WHERE id = $run1"), '0',
	'... and not the runs of other roles');
is($c->safe_psql('bk', "SET ROLE fleet_bob; SELECT count(*) FROM bench.runs WHERE id = $alice_run"), '0',
	'another role does not see it');

# ---------------------------------------------------------------- a run in progress

# a driver's run shows on the central database as it progresses, with the
# status its node wrote: never aborted because nobody here holds its lock
my $live = $d1->safe_psql('bk', q{SELECT bench.start('tpcb', clients => 2, duration => '4 s', progress => '1 s')});
$c->poll_query_until('bk', qq{
	SELECT status = 'running' AND (SELECT count(*) FROM bench.progress p WHERE p.run_id = r.id) > 0
	  FROM bench.runs r WHERE r.id = $live}) or die 'the run in progress did not arrive';
pass('a run in progress on driver 1 shows on the central database, running, with its progress');
is($c->safe_psql('bk', "SELECT count(*) FROM bench.runs_in_progress WHERE id = $live"), '1',
	'... in bench.runs_in_progress');
$d1->safe_psql('bk', "SELECT status FROM bench.wait($live)");
$c->poll_query_until('bk', "SELECT status = 'done' FROM bench.runs WHERE id = $live")
  or die 'the end of the run did not arrive';
pass('... and done once it ended there');

# ---------------------------------------------------------------- the central database down

$c->stop;
my ($late1) = work($d1);
my ($late2) = work($d2);
$c->start;
synced();
is($c->safe_psql('bk', "SELECT count(*) FROM bench.runs WHERE id IN ($late1, $late2) AND status = 'done'"), '2',
	'the runs made while the central database was down arrived');
same_as_drivers('after the central database was down');

done_testing();
