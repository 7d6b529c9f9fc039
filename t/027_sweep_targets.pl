# Sweeps and schedules over several targets: two servers of their own
# ("a" and "b", scram-sha-256 over TCP, pgbench's tables made there by
# pgbench -i) and this server (local).
#
#  - A sweep over targets '{a,b,local}', repeat 3: every repetition runs
#    every target in turn, repetition r (from 0) starting at target r mod 3;
#    the order is read back from the runs' start times.  Each server's
#    pgbench_history has exactly the transactions counted for it; the
#    summary has a row per target; the NOTICEs name each run's target.
#  - run_order => 'blocks' with two client counts: targets innermost,
#    rotating with the repetition.
#  - A schedule over a and b, one of which becomes 25 times slower:
#    bench.regressions names that target only, each judged against its own
#    baseline; schedule_status's last_tps is keyed by target.
#  - Bad input, refused before anything starts, each with its SQLSTATE: a
#    target and targets together, an unknown target, one listed twice, an
#    empty list, a null, a two-dimensional list, local when a target has
#    that name, datasets that differ, a target without the dataset, an
#    argument that needs a target with local in the list.
#
# Needs the server's bin directory first in PATH and pgbenchkit installed
# into that server.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $password = 'T4rget-s3cret';

my $sharedir = `pg_config --sharedir`;
chomp $sharedir;
my $has_cron = -e "$sharedir/extension/pg_cron.control";

# a server that asks for a password, with pgbench's tables at SCALE made by
# its role, and a table that says how long the sleepy workload sleeps
sub make_remote
{
	my ($name, $scale) = @_;
	my $node = PostgreSQL::Test::Cluster->new($name);
	$node->init(allows_streaming => 0);
	$node->append_conf('postgresql.conf', qq{
listen_addresses = '127.0.0.1'
password_encryption = 'scram-sha-256'
});
	my $hba = $node->data_dir . '/pg_hba.conf';
	my $rules = slurp_file($hba);
	open my $fh, '>', $hba or die "cannot write $hba: $!";
	print $fh "host all bench_remote 127.0.0.1/32 scram-sha-256\n", $rules;
	close $fh;
	$node->start;
	$node->safe_psql('postgres', qq{
		SET log_statement = 'none';
		CREATE ROLE bench_remote LOGIN PASSWORD '$password';
		RESET log_statement;
		GRANT CREATE ON SCHEMA public TO bench_remote;
		CREATE DATABASE big OWNER bench_remote;
		CREATE DATABASE empty;
		CREATE TABLE sleep_for (seconds double precision);
		INSERT INTO sleep_for VALUES (0.002);
		GRANT SELECT ON sleep_for TO bench_remote;
	});
	local $ENV{PGPASSWORD} = $password;
	my ($out, $err) = ('', '');
	my $ok = IPC::Run::run(['pgbench', '-i', '-q', '-s', $scale, '-h', '127.0.0.1', '-p', $node->port,
		'-U', 'bench_remote', 'postgres'], '>', \$out, '2>', \$err);
	ok($ok, "pgbench -i made the dataset on $name") or diag($err);
	return $node;
}

my $srv_a = make_remote('a', 1);
my $srv_b = make_remote('b', 1);
# a scale 2 dataset, for datasets that differ
{
	local $ENV{PGPASSWORD} = $password;
	my ($out, $err) = ('', '');
	ok(IPC::Run::run(['pgbench', '-i', '-q', '-s', '2', '-h', '127.0.0.1', '-p', $srv_b->port,
		'-U', 'bench_remote', 'big'], '>', \$out, '2>', \$err), 'a scale 2 dataset on b, database big')
	  or diag($err);
}

my $node = PostgreSQL::Test::Cluster->new('driver');
$node->init;
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION pg_cron') if $has_cron;
$node->safe_psql('postgres', qq{
	CREATE EXTENSION pgbenchkit CASCADE;
	SET log_statement = 'none';
	SELECT name FROM bench.add_target('a', 'host=127.0.0.1 port=@{[$srv_a->port]} dbname=postgres',
	                                  password => '$password', "user" => 'bench_remote');
	SELECT name FROM bench.add_target('b', 'host=127.0.0.1 port=@{[$srv_b->port]} dbname=postgres',
	                                  password => '$password', "user" => 'bench_remote');
	SELECT name FROM bench.add_target('big', 'host=127.0.0.1 port=@{[$srv_b->port]} dbname=big',
	                                  password => '$password', "user" => 'bench_remote');
	SELECT name FROM bench.add_target('empty', 'host=127.0.0.1 port=@{[$srv_b->port]} dbname=empty',
	                                  password => '$password', "user" => 'bench_remote');
	RESET log_statement;
	SELECT dataset_id FROM bench.init('tpcb', scale => 1);
	CREATE TABLE sleep_for (seconds double precision);
	INSERT INTO sleep_for VALUES (0.002);
});

sub sql { return $node->safe_psql('postgres', $_[0]); }

sub history
{
	return {
		a => $srv_a->safe_psql('postgres', 'SELECT count(*) FROM pgbench_history'),
		b => $srv_b->safe_psql('postgres', 'SELECT count(*) FROM pgbench_history'),
		local => sql('SELECT count(*) FROM pgbench_history') };
}

# ------------------------------------------------------------ a sweep, rotated

my $before = history();
my ($ret, $out, $err) = $node->psql('postgres', q{
	SELECT target, clients, position, runs_done, runs_planned
	  FROM bench.sweep('tpcb', clients => '{1}', repeat => 3, transactions => 20, progress => '0',
	                   prewarm => false, targets => '{a,b,local}')});
is($ret, 0, 'a sweep over a, b and this server') or diag($err);
is($out, "a|1|1|3|3\nb|1|1|3|3\nlocal|1|1|3|3",
	'its summary: a row per target, in the list\'s order, three repetitions each');
my $suite = sql('SELECT max(id) FROM bench.suites');
is(sql("SELECT runs_planned || '|' || targets::text || '|' || status FROM bench.suites WHERE id = $suite"),
	'9|{a,b,local}|done', 'bench.suites: nine runs planned, the targets as given');
is(sql("SELECT string_agg(COALESCE(target, 'local'), ',' ORDER BY started_at) FROM bench.runs WHERE suite_id = $suite"),
	'a,b,local,b,local,a,local,a,b',
	'the runs in the order of their start: each repetition starts one target further');
is(sql("SELECT string_agg(DISTINCT driver, ',') FROM bench.runs WHERE suite_id = $suite AND target IS NULL"),
	'server', 'local runs in this server');
like($err, qr/run \d+ started \(2 of 9: target b, clients 1, repetition 1 of 3\)/,
	'the NOTICEs name the target of each run');
like($err, qr/run \d+ started \(9 of 9: target b, clients 1, repetition 3 of 3\)/,
	'and count repetitions per target');

my $after = history();
foreach my $t (qw(a b local))
{
	my $counted = sql("SELECT sum(transactions + warmup_transactions) FROM bench.runs
	                    WHERE suite_id = $suite AND COALESCE(target, 'local') = '$t'");
	is($counted, 60, "$t: three runs of 20 transactions counted");
	is($after->{$t} - $before->{$t}, $counted, "$t: its pgbench_history has exactly those rows");
}
is(sql("SELECT bool_and(m.tps_median = (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY r.tps)
                                          FROM bench.runs r WHERE r.id = ANY (m.run_ids))
                  AND cardinality(m.run_ids) = 3
                  AND (SELECT count(DISTINCT COALESCE(r.target, 'local')) FROM bench.runs r
                        WHERE r.id = ANY (m.run_ids)) = 1)
          FROM bench.suite_summary m WHERE m.suite_id = $suite"), 't',
	'each row of the summary is the median of its own target\'s three runs');

# the chart: a line per target in each panel, named in the legend
my $svg = sql("SELECT bench.chart_suite($suite)");
is(scalar(() = $svg =~ /<polyline class="tps"/g) . '|' . scalar(() = $svg =~ /<polyline class="p99"/g),
	'3|3', 'bench.chart_suite: a tps line and a p99 line per target');
like($svg, qr/target a \(median of the repeats\).*target b .*target local /s, 'its legend names the targets');

# blocks over two client counts: all repetitions of one, targets innermost
($ret, $out, $err) = $node->psql('postgres', q{
	SELECT count(*) FROM bench.sweep('tpcb', clients => '{1,2}', repeat => 2, transactions => 5,
	       progress => '0', prewarm => false, run_order => 'blocks', targets => '{a,local}')});
is($out, '4', 'a sweep in blocks over a and this server') or diag($err);
$suite = sql('SELECT max(id) FROM bench.suites');
is(sql("SELECT string_agg(COALESCE(target, 'local') || ':' || clients, ',' ORDER BY started_at)
          FROM bench.runs WHERE suite_id = $suite"),
	'a:1,local:1,local:1,a:1,a:2,local:2,local:2,a:2',
	'blocks: each client count\'s repetitions, every target in each, rotating');
is(sql("SELECT string_agg(target || ':' || clients || ':' || runs_done, ',' ORDER BY position, target)
          FROM bench.suite_summary WHERE suite_id = $suite"),
	'a:1:2,local:1:2,a:2:2,local:2:2', 'its summary per client count and target');

# ------------------------------------------------- a schedule over two targets

sql(q{SELECT name FROM bench.define_workload('sleepy', E'SELECT pg_sleep(seconds) FROM sleep_for;\n',
                                             'sleeps as long as sleep_for says')});
if ($has_cron)
{
	sql(q{SELECT name FROM bench.schedule('pair', '0 0 1 1 *', 'sleepy', clients => '{1}',
	      transactions => 30, progress => '0', prewarm => false, baseline_runs => 2, threshold => 0.5,
	      targets => '{a,b}')});
}
else
{
	# the row bench.schedule would make; run_schedule needs no pg_cron
	sql(q{INSERT INTO bench.schedules (name, cron, workload, clients, repeat, run_order, args,
	                                   search_path, baseline_runs, threshold, cron_database, targets)
	      SELECT 'pair', '0 0 1 1 *', s->>'workload', '{1}', 1, s->>'run_order', s->'args',
	             s->>'search_path', 2, 0.5, 'postgres', '{a,b}'
	        FROM bench._sweep_spec('sleepy', transactions => 30, progress => '0', prewarm => false,
	                               targets => '{a,b}') s});
}
is(sql(q{SELECT targets FROM bench.schedules WHERE name = 'pair'}), '{a,b}', 'the schedule keeps its targets');
for my $i (1 .. 3)
{
	($ret, $out, $err) = $node->psql('postgres', q{SELECT count(*) FROM bench.run_schedule('pair')});
	is($out, '2', "execution $i: a row per target") or diag($err);
}
is(sql(q{SELECT count(*) FROM bench.regressions WHERE schedule = 'pair'}), '0', 'no regression while alike');
# b becomes 25 times slower
$srv_b->safe_psql('postgres', 'UPDATE sleep_for SET seconds = 0.05');
($ret, $out, $err) = $node->psql('postgres', q{SELECT count(*) FROM bench.run_schedule('pair')});
is($out, '2', 'the execution after b slowed down') or diag($err);
$suite = sql(q{SELECT max(id) FROM bench.suites WHERE schedule = 'pair'});
is(sql(qq{SELECT string_agg(target || ':' || clients || ':' || baseline_runs, ',') FROM bench.regressions
           WHERE suite_id = $suite}), 'b:1:2', 'bench.regressions names b only, judged against its own two runs');
is(sql(qq{SELECT string_agg(target || ':' || regression, ',' ORDER BY target) FROM bench.schedule_results
           WHERE suite_id = $suite}), 'a:false,b:true', 'schedule_results: a against its baseline, b against its own');
is(sql(qq{SELECT round(baseline_tps::numeric, 6) = round((SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY r.tps)
                                                           FROM bench.runs r JOIN bench.suites s ON s.id = r.suite_id
                                                          WHERE s.schedule = 'pair' AND s.id < $suite
                                                            AND s.id > (SELECT min(id) FROM bench.suites WHERE schedule = 'pair')
                                                            AND r.target = 'b')::numeric, 6)
           FROM bench.schedule_results WHERE suite_id = $suite AND target = 'b'}), 't',
	'b\'s baseline is the median of b\'s own runs of the two executions before');
is(sql(q{SELECT string_agg(k, ',' ORDER BY k) || '|' || (last_tps->'a' ? '1') || '|' || last_regression
           FROM bench.schedule_status, jsonb_object_keys(last_tps) k WHERE name = 'pair'
          GROUP BY last_tps, last_regression}), 'a,b|true|true',
	'schedule_status: last_tps per target, then client count');

# ------------------------------------------------------------------ bad input

sub refused
{
	my ($sql, $state, $message, $name) = @_;
	my ($r, $o, $e) = $node->psql('postgres', "\\set VERBOSITY verbose\n$sql");
	isnt($r, 0, "$name: refused");
	like($e, qr/ERROR:  $state: $message/, "$name: $state");
}

my $runs = sql('SELECT count(*) FROM bench.runs');
my $suites = sql('SELECT count(*) FROM bench.suites');
refused(q{SELECT * FROM bench.sweep('tpcb', target => 'a', targets => '{a,b}')},
	'22023', 'bench.sweep takes target or targets, not both', 'target and targets');
refused(q{SELECT * FROM bench.sweep('tpcb', targets => '{a,nosuch}')},
	'42704', 'target "nosuch" does not exist', 'an unknown target');
refused(q{SELECT * FROM bench.sweep('tpcb', targets => '{a,b,a}')},
	'22023', 'targets lists "a" twice', 'a target listed twice');
refused(q{SELECT * FROM bench.sweep('tpcb', targets => '{}')},
	'22023', 'targets must not be empty', 'an empty list');
refused(q{SELECT * FROM bench.sweep('tpcb', targets => '{a,NULL}')},
	'22004', 'targets must not contain null', 'a null target');
refused(q{SELECT * FROM bench.sweep('tpcb', targets => '{{a},{b}}')},
	'22023', 'targets must be a one-dimensional array', 'a two-dimensional list');
refused(q{SELECT * FROM bench.sweep('tpcb', targets => '{a,big}')},
	'22023', 'targets "a" and "big" have different datasets: scale 1 on "a", scale 2 on "big"',
	'datasets that differ');
refused(q{SELECT * FROM bench.sweep('tpcb', targets => '{local,big}')},
	'22023', 'targets "local" and "big" have different datasets: scale 1 on "local", scale 2 on "big"',
	'this server\'s dataset and a target\'s that differ');
refused(q{SELECT * FROM bench.sweep('tpcb', targets => '{a,empty}')},
	'42P01', 'workload "tpcb" needs a tpcb dataset, and target "empty" has no pgbench_branches its role can read',
	'a target without the dataset');
refused(q{SELECT * FROM bench.sweep('tpcb', connect => 'per_transaction', transactions => 1, targets => '{a,local}')},
	'22023', "connect => 'per_transaction' needs a target", 'an argument that needs a target, with this server in the list');
refused(q{SELECT bench.start_sweep('tpcb', targets => '{b,b}')},
	'22023', 'targets lists "b" twice', 'bench.start_sweep checks them too');
refused(q{SELECT bench.schedule('bad', '0 0 1 1 *', 'tpcb', targets => '{a,big}')},
	'22023', 'targets "a" and "big" have different datasets', 'bench.schedule checks them too');
sql(q{SET log_statement = 'none';
      SELECT name FROM bench.add_target('local', 'host=127.0.0.1 port=} . $srv_a->port . q{ dbname=postgres',
                                        password => '} . $password . q{', "user" => 'bench_remote')});
refused(q{SELECT * FROM bench.sweep('tpcb', targets => '{a,local}')},
	'22023', 'target "local" in targets is ambiguous', 'local when a target has that name');
sql(q{SELECT bench.drop_target('local')});
is(sql('SELECT count(*) FROM bench.runs') . '|' . sql('SELECT count(*) FROM bench.suites'), "$runs|$suites",
	'nothing started');

done_testing();
