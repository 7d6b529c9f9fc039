# bench.compare on real runs: each run is done and counted exactly what
# the server committed; two runs alike have no parameter that differs, a
# run with synchronous_commit off says so first, and each comparison has
# every metric judged; suites of real runs compare per client count; and
# runs and suites exported on one server and imported on another compare
# there as they did at home.
#
# Which verdict a change gets depends on how fast the machine ran each
# run, which a loaded machine does not guarantee: the verdicts themselves
# are tested on figures the test sets (sql/compare.sql).
#
# Needs the server's bin directory first in PATH and pgbenchkit installed
# into that server.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

# a cluster with a tpcb dataset at scale 2 in database bk; fsync on (test
# clusters have it off), so that a commit waits for its WAL to be flushed
# unless synchronous_commit is off
sub new_node
{
	my ($name) = @_;
	my $node = PostgreSQL::Test::Cluster->new($name);
	$node->init;
	$node->append_conf('postgresql.conf', qq{
max_worker_processes = 32
autovacuum = off
fsync = on
});
	$node->start;
	$node->safe_psql('postgres', 'CREATE DATABASE bk');
	$node->safe_psql('bk', 'CREATE EXTENSION pgbenchkit CASCADE');
	$node->safe_psql('bk', q{SELECT dataset_id FROM bench.init('tpcb', scale => 2)});
	return $node;
}

sub sql { my ($node, $query) = @_; return $node->safe_psql('bk', $query); }

# a tpcb run of a duration, done, whose transactions are the rows it
# added to pgbench_history; its id
sub run_tpcb
{
	my ($node, $clients, $duration) = @_;
	my $history = sql($node, 'SELECT count(*) FROM pgbench_history');
	my $id = sql($node, qq{SET client_min_messages = warning;
		SELECT id FROM bench.run('tpcb', clients => $clients, duration => '$duration', progress => '1 s')});
	is(sql($node, qq{SELECT status, transactions > 0, transactions + warmup_transactions
	                   FROM bench.runs WHERE id = $id}),
		'done|t|' . (sql($node, 'SELECT count(*) FROM pgbench_history') - $history),
		"run $id ($clients clients, $duration): done, its transactions the rows it added");
	return $id;
}

# a suite as bench.sweep makes one, of real runs: each client count, then
# again (interleaved), repeat times
sub suite_of_runs
{
	my ($node, $clients, $repeat, $duration) = @_;
	my $n = @$clients * $repeat;
	my $list = join(',', @$clients);
	my $suite = sql($node, qq{
		INSERT INTO bench.suites
		SELECT * FROM jsonb_populate_record(NULL::bench.suites, jsonb_build_object(
		    'id', nextval('bench.runs_id_seq'), 'workload', 'tpcb', 'clients', '{$list}'::int[],
		    'repeat', $repeat, 'run_order', 'interleaved', 'args', '{}'::jsonb,
		    'search_path', current_setting('search_path'), 'runs_planned', $n, 'status', 'running',
		    'created_by', current_user, 'server_version', current_setting('server_version'),
		    'started_at', clock_timestamp()))
		RETURNING id});
	for (1 .. $repeat)
	{
		for my $c (@$clients)
		{
			my $run = run_tpcb($node, $c, $duration);
			sql($node, "UPDATE bench.runs SET suite_id = $suite WHERE id = $run");
		}
	}
	sql($node, "UPDATE bench.suites SET status = 'done', ended_at = clock_timestamp() WHERE id = $suite");
	return $suite;
}

# one metric's row of a comparison: verdict, change and noise in %
sub metric_row
{
	my ($node, $x, $y, $metric, $clients) = @_;
	my $where = defined $clients ? "AND clients = $clients" : '';
	my ($verdict, $change, $noise) = split /\|/, sql($node, qq{
		SELECT verdict, round(change_pct::numeric, 1), coalesce(round(noise_pct::numeric, 1)::text, 'unknown')
		  FROM bench.compare($x, $y) WHERE metric = '$metric' $where});
	return ($verdict // '', $change // '', $noise // '');
}

# the differing parameters, in order
sub parameters
{
	my ($node, $x, $y) = @_;
	return split /\n/, sql($node, qq{
		SELECT metric || '=' || coalesce(a_value, '') || '/' || coalesce(b_value, '')
		  FROM bench.compare($x, $y) WHERE section = 'parameter'});
}

# a whole comparison as text, to compare comparisons
sub comparison { my ($node, $x, $y) = @_; return sql($node, "SELECT * FROM bench.compare($x, $y)"); }

# the metric rows of a comparison, and how many have both values and a
# verdict (whichever: it depends on the machine's speed during each run)
sub judged
{
	my ($node, $x, $y) = @_;
	return sql($node, qq{
		SELECT count(*), count(*) FILTER (WHERE a_value IS NOT NULL AND b_value IS NOT NULL
		                                    AND verdict IN ('improvement', 'regression', 'within noise'))
		  FROM bench.compare($x, $y) WHERE section = 'metric'});
}

my $node = new_node('compare');

# two runs alike: no parameter differs, every metric judged (on a busy
# shared machine one run can be slowed as a whole by more than its own
# intervals vary: which verdict is the machine's)
my $run_a = run_tpcb($node, 1, '8 s');
my $run_b = run_tpcb($node, 1, '8 s');
my ($verdict, $change, $noise) = metric_row($node, $run_a, $run_b, 'tps');
note("identical runs $run_a and $run_b: tps $verdict (change $change%, noise $noise%)");
is_deeply([ parameters($node, $run_a, $run_b) ], ['none differ=/'], 'two identical runs: no parameter differs');
is(judged($node, $run_a, $run_b), '9|9', 'two identical runs: every metric has both values and a verdict');

# synchronous_commit off, for the run's clients only
sql($node, 'ALTER DATABASE bk SET synchronous_commit = off');
my $run_c = run_tpcb($node, 1, '8 s');
sql($node, 'ALTER DATABASE bk RESET synchronous_commit');
($verdict, $change, $noise) = metric_row($node, $run_a, $run_c, 'tps');
note("synchronous_commit off: tps $verdict (change $change%, noise $noise%)");
my @params = parameters($node, $run_a, $run_c);
is($params[0], 'synchronous_commit=on/off', 'synchronous_commit off: the first parameter that differs')
  or diag(join("\n", @params));
is(judged($node, $run_a, $run_c), '9|9', 'synchronous_commit off: every metric has both values and a verdict');

# suites: 2 client counts x 2 repeats, with synchronous_commit on, then off
my $suite_on = suite_of_runs($node, [ 1, 2 ], 2, '2 s');
sql($node, 'ALTER DATABASE bk SET synchronous_commit = off');
my $suite_off = suite_of_runs($node, [ 1, 2 ], 2, '2 s');
sql($node, 'ALTER DATABASE bk RESET synchronous_commit');
@params = parameters($node, $suite_on, $suite_off);
is($params[0], 'synchronous_commit=on/off', 'suites: synchronous_commit is the first parameter that differs')
  or diag(join("\n", @params));
for my $clients (1, 2)
{
	($verdict, $change, $noise) = metric_row($node, $suite_on, $suite_off, 'tps', $clients);
	note("suites, clients $clients: tps $verdict (change $change%, noise $noise%)");
}
is(judged($node, $suite_on, $suite_off), '18|18',
	'suites: every metric of both client counts has both values and a verdict');
is(sql($node, qq{SELECT count(*) FROM bench.compare($suite_on, $suite_off)
                  WHERE section = 'metric' AND clients IS NULL}),
	'0', 'suites: every metric is per client count');

# export here, import on another server: the same comparisons there.  The
# documents go through files (a statement with one in it would fill the
# server's log).
my $node2 = new_node('compare_import');
my %imported;
for my $id ($run_a, $run_c, $suite_on, $suite_off)
{
	my $file = "$PostgreSQL::Test::Utils::tmp_check/export_$id.json";
	append_to_file($file, sql($node, "SELECT bench.export($id)"));
	$imported{$id} = sql($node2, "SELECT bench.import(pg_read_file('$file')::jsonb)");
}
is(comparison($node2, $imported{$run_a}, $imported{$run_c}),
	comparison($node, $run_a, $run_c), 'imported runs compare as they did where they ran');
is(comparison($node2, $imported{$suite_on}, $imported{$suite_off}),
	comparison($node, $suite_on, $suite_off), 'imported suites compare as they did where they ran');
is(sql($node2, "SELECT origin->>'system_identifier' FROM bench.runs WHERE id = $imported{$run_a}"),
	sql($node, 'SELECT system_identifier FROM pg_control_system()'),
	'an imported run says which server it came from');

# a run of this server against one of the other: the servers' differences
# come first
my $run_d = run_tpcb($node2, 1, '3 s');
@params = parameters($node2, $imported{$run_a}, $run_d);
ok((grep { /^port=/ } @params), 'a run of another server: its port differs')
  or diag(join("\n", @params));
($verdict, $change, $noise) = metric_row($node2, $imported{$run_a}, $run_d, 'tps');
like($verdict, qr/^(improvement|regression|within noise)$/,
	"a run of another server: tps judged ($verdict, change $change%, noise $noise%)");

# the same document twice: refused
my ($ret, $stdout, $stderr) = $node2->psql('bk',
	"SELECT bench.import(pg_read_file('$PostgreSQL::Test::Utils::tmp_check/export_$run_a.json')::jsonb)");
isnt($ret, 0, 'the same document twice: refused');
like($stderr, qr/run $run_a of system \d+ was imported before, as run $imported{$run_a}/,
	'the same document twice: says as which run it was imported');

$node->stop;
$node2->stop;
done_testing();
