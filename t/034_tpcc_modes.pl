# TPC-C's two modes against a target: a second cluster without pgbenchkit,
# reached with a scram password, loaded by bench.init('tpcc', target =>).
# The built-in mix runs in mode 'procedures' (the dataset's functions,
# made there by bench.tpcc_functions' statements) and in mode 'statements'
# (go-tpc's statements, each a round trip), 4 clients in 2 jobs each: the
# new orders the clients counted are the districts' d_next_o_id advance,
# the payments the history rows, the deliveries the new_order rows gone,
# counted on the target's rows; bench.tpcc_check(target => ...) passes
# after both; without the functions, 'statements' still runs.  The
# password reaches no log line.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

use Cwd qw(abs_path);
use File::Basename qw(dirname);
use lib dirname(abs_path(__FILE__)) . '/lib';
use BenchTarget qw(driver_and_target add_targets);

my $password = 'Tm4-s3cr3t-pw';

# ------------------------------------------------------------------ servers
my ($node, $remote) = driver_and_target($password, 'tc');
add_targets($node, $remote, $password, tc => 'tc');

$node->safe_psql('bk', q{SELECT rows_loaded FROM bench.init('tpcc', warehouses => 1, target => 'tc')});
# the five functions beside the target's tables, as a user makes them
my $functions = $node->safe_psql('bk', q{SELECT string_agg(s, E';\n') FROM unnest(bench.tpcc_functions('public')) AS s});
$remote->safe_psql('tc', "SET ROLE bench_remote;\n$functions;");

# what the transactions leave in the target's tables
sub tables
{
	return split /\|/, $remote->safe_psql('tc', q{
		SELECT (SELECT sum(d_next_o_id) FROM district), (SELECT count(*) FROM history),
		       (SELECT count(*) FROM new_order), (SELECT count(*) FROM orders WHERE o_carrier_id IS NOT NULL)});
}

for my $mode ('procedures', 'statements')
{
	my @before = tables();
	my ($status, $failures, $run) = split /\|/, $node->safe_psql('bk', qq{
		SELECT status, failures, id FROM bench.run('tpcc', clients => 4, jobs => 2, transactions => 100,
		                                           target => 'tc', progress => '0', mode => '$mode')});
	is("$status $failures", 'done 0', "mode '$mode': the mix runs against the target, 4 clients in 2 jobs");
	my @after = tables();
	my ($new_orders, $payments, $deliveries, $modes, $types) = split /\|/, $node->safe_psql('bk', qq{
		SELECT sum(committed) FILTER (WHERE transaction = 'new-order'),
		       sum(committed) FILTER (WHERE transaction = 'payment'),
		       coalesce(sum(committed) FILTER (WHERE transaction = 'delivery'), 0),
		       string_agg(DISTINCT mode, ','), count(*)
		  FROM bench.tpcc_transactions WHERE run_id = $run});
	is("$modes $types", "$mode 5", "mode '$mode': the run's five transaction types, in its mode");
	is($after[0] - $before[0], $new_orders, "mode '$mode': the new orders counted are the districts' ($new_orders)");
	is($after[1] - $before[1], $payments, "mode '$mode': the payments counted are the history rows ($payments)");
	is($before[2] + $new_orders - $after[2], 10 * $deliveries,
		"mode '$mode': each delivery took one new_order row of each district ($deliveries)");
	is($after[3] - $before[3], 10 * $deliveries, "mode '$mode': and set their orders' carrier");
	is($node->safe_psql('bk', qq{SELECT mode || ' ' || (new_orders = $new_orders) FROM bench.tpcc_results WHERE run_id = $run}),
		"$mode true", "mode '$mode': bench.tpcc_results reports the mode and the new orders");
	is($node->safe_psql('bk', q{
		SELECT string_agg(condition::text, ',' ORDER BY condition) FROM bench.tpcc_check(target => 'tc') WHERE passed IS NOT TRUE}),
		'11', "mode '$mode': the consistency conditions hold on the target (11 only before the first delivery)");
}

# tables without the functions (as go-tpc prepares them): 'statements' runs
$remote->safe_psql('tc', q{
	DROP FUNCTION tpcc_new_order, tpcc_payment, tpcc_order_status, tpcc_delivery, tpcc_stock_level});
my @before = tables();
my ($status, $run) = split /\|/, $node->safe_psql('bk', q{
	SELECT status, id FROM bench.run('tpcc-new-order', clients => 2, jobs => 2, transactions => 50,
	                                 target => 'tc', progress => '0', mode => 'statements')});
is($status, 'done', "mode 'statements' needs none of the dataset's functions");
my @after = tables();
is($after[0] - $before[0], $node->safe_psql('bk', qq{SELECT new_orders FROM bench.tpcc_results WHERE run_id = $run}),
	'and its new orders are the districts\'');

# ------------------------------------------------------------------ secrets
unlike(slurp_file($node->logfile), qr/\Q$password\E/, "the password is in no line of the driver's log");
unlike(slurp_file($remote->logfile), qr/\Q$password\E/, "the password is in no line of the target's log");

$node->stop;
$remote->stop;
done_testing();
