# A fleet of drivers: two pgbenchkit databases, each a node
# (bench.set_node), publish their results (bench.publish), and a central
# pgbenchkit database subscribes to driver 1 with plain CREATE SUBSCRIPTION
# and to driver 2 with bench.subscribe. The rows arrive as the drivers have
# them, table by table, in the columns the publication carries. What it
# leaves out (run variables, the run arguments of suites, process ids, the
# regclass[] of datasets) stays on the drivers. The central database
# reports and compares the runs of both and says which node ran each. It
# shows a run in progress on a driver as its node wrote it, and catches up
# after it was down. bench.publish's bad input is refused; bench.subscribe
# refuses a driver whose node number another node here has (throwaway
# databases on driver 2's cluster), or without pgbenchkit, a node or of
# another version, leaving no slot behind; bench.unsubscribe drops the
# subscription and its slot, and subscribing the node again brings its
# rows back as the driver has them, none lost, none twice.
use strict;
use warnings;

use FindBin;
use lib "$FindBin::RealBin/lib";
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(sleep);

use BenchFleet qw(logical_nodes);

my ($d1, $d2, $c) = logical_nodes(qw(driver1 driver2 central));

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
# security, as applying changes needs. Driver 1 by plain CREATE
# SUBSCRIPTION (no check), driver 2 by bench.subscribe. The connection
# strings carry a password (which trust authentication ignores) that no
# message, table or statement statistic may show.
my $password = 'fleet-pw-5ecret';
sub conn_of
{
	my ($d, $db) = @_;
	return 'port=' . $d->port . ' host=' . $d->host . ' dbname=' . ($db // 'bk') . " password=$password";
}
$c->safe_psql('bk', "CREATE SUBSCRIPTION driver1 CONNECTION '" . conn_of($d1) . "' PUBLICATION pgbenchkit");
$c->safe_psql('bk', 'CREATE EXTENSION pg_stat_statements');
my $subscribed = $c->safe_psql('bk', qq{
	SET pg_stat_statements.track = 'all';
	SELECT subscription, node_name, node_number, publication, slot_name, subscribed_by = current_user,
	       node_system_identifier = '@{[ $d2->safe_psql('bk', 'SELECT system_identifier FROM bench.node') ]}'
	  FROM bench.subscribe('driver2', '@{[ conn_of($d2) ]}')});
is($subscribed, 'driver2|gcp-1|2|pgbenchkit|driver2|t|t',
	'bench.subscribe subscribes to driver 2 and returns its node, as bench.subscriptions records it');
is($c->safe_psql('bk', "SELECT subenabled, subslotname, subpublications FROM pg_subscription WHERE subname = 'driver2'"),
	't|driver2|{pgbenchkit}', '... an enabled subscription with the slot of its name');
is($d2->safe_psql('bk', "SELECT slot_type, plugin, database FROM pg_replication_slots WHERE slot_name = 'driver2'"),
	'logical|pgoutput|bk', '... the slot made on the driver before the subscription');
is($c->safe_psql('bk', "SELECT count(*) FROM bench.subscriptions s WHERE s::text LIKE '%$password%'"), '0',
	'... the password is in no table of pgbenchkit');
is($c->safe_psql('bk', qq{
	SELECT count(*) FROM pg_stat_statements
	 WHERE query LIKE '%$password%' AND query NOT LIKE 'CREATE SUBSCRIPTION driver1 %'}), '0',
	'... nor in a statement pg_stat_statements keeps (track = all), but for the plain CREATE SUBSCRIPTION\'s');

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

# ---------------------------------------------------------------- refusals

# throwaway databases on driver 2's cluster, each a pgbenchkit database
# (published as a node unless told), as drivers that bench.subscribe
# refuses: with no slot left on the cluster, nothing subscribed or
# recorded on the central database, and the password in no message
sub throwaway
{
	my ($db, $name, $number) = @_;
	$d2->safe_psql('postgres', "CREATE DATABASE $db");
	$d2->safe_psql($db, 'SET client_min_messages = warning; CREATE EXTENSION pgbenchkit CASCADE');
	$d2->safe_psql($db, "SELECT bench.set_node('$name', $number); SELECT bench.publish()") if defined $name;
}
sub refused
{
	my ($sub, $db, $state, $message, $what) = @_;
	my ($ret, $out, $err) = $c->psql('bk', qq{
		\\set VERBOSITY verbose
		SELECT bench.subscribe('$sub', '@{[ conn_of($d2, $db) ]}')});
	like($err, qr/ERROR:  $state: \Q$message\E/, "$what: refused ($state)");
	unlike($err, qr/\Q$password\E/, '... the password is in no part of the error');
	is($d2->safe_psql('postgres', "SELECT count(*) FROM pg_replication_slots WHERE slot_name = '$sub'"), '0',
		'... no slot left on the driver');
	is($c->safe_psql('bk', q{SELECT (SELECT string_agg(subname, ',' ORDER BY subname) FROM pg_subscription) || ' / '
	                                || (SELECT string_agg(subscription, ',') FROM bench.subscriptions)}),
		'driver1,driver2 / driver2', '... nothing subscribed or recorded on the central database');
	return $err;
}
throwaway('own_number', 'impostor-9', 9);
my $err9 = refused('own_number', 'own_number', '23505',
	'node number 9 is taken: the driver is node "impostor-9", and this database is node "central"',
	"a driver with the central database's own number");
like($err9, qr/HINT:  Give each driver its own number with bench.set_node/, '... the hint says what to do');
throwaway('dup_of_1', 'aws-dup', 1);
refused('dup_of_1', 'dup_of_1', '23505',
	'node number 1 is taken: the driver is node "aws-dup", and the results here are of node "aws-1"',
	"a driver with the number of driver 1 (subscribed by hand: its runs are here)");
throwaway('dup_of_2', 'gcp-dup', 2);
refused('dup_of_2', 'dup_of_2', '23505',
	'node number 2 is taken: the driver is node "gcp-dup", and subscription "driver2" receives node "gcp-1"',
	'a driver with the number of driver 2 (subscribed by bench.subscribe)');
refused('driver2_again', 'bk', '23505',
	'node "gcp-1" (number 2) is subscribed already, by subscription "driver2"',
	'driver 2 under a second subscription');
refused('no_extension', 'postgres', '55000', 'the driver has no pgbenchkit', 'a database without pgbenchkit');
throwaway('no_node');
refused('no_node', 'no_node', '55000', 'the driver is not a node yet', 'a pgbenchkit database that is not a node');
$d2->safe_psql('no_node', q{UPDATE pg_extension SET extversion = '0.2.0' WHERE extname = 'pgbenchkit'});
my $version = $c->safe_psql('bk', q{SELECT extversion FROM pg_extension WHERE extname = 'pgbenchkit'});
my $err_version = refused('no_node', 'no_node', '55000', "the driver has pgbenchkit 0.2.0, this database $version",
	'a driver of another version of pgbenchkit');
like($err_version, qr/HINT:  Bring both to the same version with ALTER EXTENSION pgbenchkit UPDATE: the central database first/,
	'... the hint gives the order of the updates');
throwaway('unpublished', 'unpublished', 77);
$d2->safe_psql('unpublished', 'DROP PUBLICATION pgbenchkit');
refused('unpublished', 'unpublished', '42704', 'the driver, node "unpublished", has no publication "pgbenchkit"',
	'a node without the publication');
($ret, $out, $err) = $c->psql('bk', "\\set VERBOSITY verbose\nSELECT bench.subscribe('driver2', '" . conn_of($d2, 'postgres') . "')");
like($err, qr/ERROR:  42710: subscription "driver2" already exists/, 'a subscription name taken: refused (42710)');
is($c->safe_psql('bk', "SELECT subconninfo LIKE '%dbname=bk%' FROM pg_subscription WHERE subname = 'driver2'"), 't',
	'... the subscription of that name is as it was');
# a CREATE SUBSCRIPTION that fails after the slot was made on the driver
# (an event trigger refuses it): the slot is dropped again
throwaway('fresh', 'fresh', 42);
$c->safe_psql('bk', q{
	CREATE FUNCTION public.no_subscription() RETURNS event_trigger LANGUAGE plpgsql
	    AS $$ BEGIN RAISE EXCEPTION 'no subscription today'; END $$;
	CREATE EVENT TRIGGER no_subscription ON ddl_command_start WHEN TAG IN ('CREATE SUBSCRIPTION')
	    EXECUTE FUNCTION public.no_subscription()});
my $log_offset = -s $d2->logfile;
refused('fresh', 'fresh', 'P0001', 'no subscription today',
	'a subscription that fails after its slot was made on the driver');
my $d2_log = slurp_file($d2->logfile, $log_offset);
like($d2_log, qr/pg_create_logical_replication_slot\(\$1, 'pgoutput'\)\n[^\n]*Parameters: \$1 = 'fresh'.*pg_drop_replication_slot\(\$1\)\n[^\n]*Parameters: \$1 = 'fresh'/si,
	'... it had been made, and was dropped (the driver\'s log)');
$c->safe_psql('bk', 'DROP EVENT TRIGGER no_subscription; DROP FUNCTION public.no_subscription()');
$d2->safe_psql('postgres', "DROP DATABASE $_") foreach (qw(own_number dup_of_1 dup_of_2 no_node unpublished fresh));

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

# ---------------------------------------------------------------- unsubscribe, subscribe again

my $runs2 = $c->safe_psql('bk', 'SELECT count(*) FROM bench.runs WHERE node_number = 2');
is($c->safe_psql('bk', "SELECT subscription, node_name, node_number, slot_name FROM bench.unsubscribe('driver2')"),
	'driver2|gcp-1|2|driver2', 'bench.unsubscribe drops the subscription of driver 2 and returns its row');
is($c->safe_psql('bk', q{SELECT (SELECT count(*) FROM pg_subscription WHERE subname = 'driver2')
                              + (SELECT count(*) FROM bench.subscriptions)}), '0',
	'... the subscription and its row are gone');
is($d2->safe_psql('bk', 'SELECT count(*) FROM pg_replication_slots'), '0', '... and no slot is left on the driver');
is($c->safe_psql('bk', 'SELECT count(*) FROM bench.runs WHERE node_number = 2'), $runs2,
	"... the node's runs stay on the central database");
($ret, $out, $err) = $c->psql('bk', "SELECT bench.unsubscribe('driver1')");
like($err, qr/subscription "driver1" was not made by bench.subscribe/,
	'a subscription made by hand is not bench.unsubscribe\'s');

# driver 2 works while it is not subscribed; then the same node is
# subscribed again: refused while its rows are here, unless replace_rows;
# then its rows here are replaced by the driver's, which the initial copy
# brings, the new ones with them
my ($gap2) = work($d2);
($ret, $out, $err) = $c->psql('bk', "SELECT subscription FROM bench.subscribe('driver2', '" . conn_of($d2) . "')");
like($err, qr/node "gcp-1" has \d+ runs and \d+ suites here already/,
	'the same node subscribed again: refused while its rows are here');
like($err, qr/replace_rows => true/, '... and the hint says how to replace them');
is($c->safe_psql('bk', "SELECT count(*) FROM pg_subscription WHERE subname = 'driver2'")
	. $d2->safe_psql('bk', 'SELECT count(*) FROM pg_replication_slots'), '00', '... no subscription made, no slot left');
($ret, $out, $err) = $c->psql('bk', "SELECT subscription, node_number FROM bench.subscribe('driver2', '" . conn_of($d2) . "', replace_rows => true)");
is($out, 'driver2|2', 'the same node subscribed again after bench.unsubscribe');
like($err, qr/NOTICE:  the \d+ runs and \d+ suites of node "gcp-1" here are replaced by the driver's/,
	"... its rows here are replaced by the driver's");
synced();
is($c->safe_psql('bk', "SELECT status FROM bench.runs WHERE id = $gap2"), 'done',
	'the run made while driver 2 was not subscribed arrived');
same_as_drivers('after driver 2 was unsubscribed and subscribed again');

# ... and dropped again: no slot left on the driver, the rows stay
$c->safe_psql('bk', "SELECT bench.unsubscribe('driver2')");
is($d2->safe_psql('bk', 'SELECT count(*) FROM pg_replication_slots'), '0',
	'unsubscribed again: no slot left on the driver');
cmp_ok($c->safe_psql('bk', 'SELECT count(*) FROM bench.runs WHERE node_number = 2'), '>', $runs2,
	"... and the node's runs, the new one too, stay on the central database");

done_testing();
