# Upgrades keep results, and so does pg_dump.
#
#  1. In database lab, pgbenchkit is created at its first release, 0.1.0,
#     and used: a dataset, runs (a workload, an unnamed script, a custom
#     workload), a sweep, and, where the server has pg_cron, a schedule
#     with one execution.
#  2. ALTER EXTENSION pgbenchkit UPDATE takes it to the version the control
#     file names.  Every row of every table of schema bench is still there,
#     unchanged, and every function works on the old results and makes new
#     ones (whose ids follow the old).  The one change: a statement text
#     with a password, as 0.1.0 kept them in samples, is redacted.
#  3. The upgraded extension is the same as a fresh install of the new
#     version in database fresh: the same functions (with the same
#     definitions, owners' grants and comments), tables, columns in the
#     same order, defaults, constraints, indexes, row level security and
#     its policies, views (and their options), types and configuration
#     tables.  An upgrade script that forgets something fails here.
#     The same for the last step alone: in database lab2, pgbenchkit is
#     created at the last release (0.2.0, its frozen install script), used
#     for a run, and updated by the upgrade script built from control/sql/
#     and control/upgrade/; every row is kept, what a role was granted on
#     bench.run and bench.run_arguments stays, and the extension is the
#     same as the fresh install.
#  4. Every table and sequence of schema bench is one that pg_dump keeps
#     (pg_extension_config_dump); pg_dump of lab restored into a new
#     database gives back every row, and the restored database runs
#     benchmarks on the restored dataset and replaces it with bench.init.
#
# Needs the server's bin directory first in PATH and pgbenchkit installed
# into that server.
use strict;
use warnings;

use Cwd qw(abs_path);
use File::Basename qw(dirname);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

use lib dirname(abs_path(__FILE__)) . '/lib';
use ExtensionCatalog qw(describe_extension same_extension);

my $sharedir = `pg_config --sharedir`;
chomp $sharedir;
my $has_cron = -e "$sharedir/extension/pg_cron.control";

my $node = PostgreSQL::Test::Cluster->new('upgrade');
$node->init;
$node->append_conf('postgresql.conf', qq{
max_worker_processes = 40
autovacuum = off
});
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION pg_cron') if $has_cron;
$node->safe_psql('postgres', 'CREATE DATABASE lab');
$node->safe_psql('postgres', 'CREATE DATABASE fresh');

sub lab { return $node->safe_psql('lab', $_[0]); }

my $new_version = $node->safe_psql('postgres',
	q{SELECT default_version FROM pg_available_extensions WHERE name = 'pgbenchkit'});
isnt($new_version, '0.1.0', "the control file names a version after 0.1.0 ($new_version)");

# ------------------------------------------------------------ 1. at 0.1.0
lab(q{CREATE EXTENSION pgbenchkit VERSION '0.1.0' CASCADE});
is(lab(q{SELECT extversion FROM pg_extension WHERE extname = 'pgbenchkit'}), '0.1.0',
	'lab has pgbenchkit 0.1.0');

lab(q{SELECT dataset_id FROM bench.init('tpcb', scale => 1)});
my $run_tpcb = lab(q{SELECT id FROM bench.run('tpcb', clients => 2, transactions => 50,
	progress => '0', tag => 'before')});
my $run_script = lab(q{SELECT id FROM bench.run(script => $$\set n random(1, 10)
SELECT :n;$$, transactions => 20, progress => '0', random_seed => 7,
	variables => '{"label": "x"}')});
lab(q{SELECT name FROM bench.define_workload('mine',
	'\set aid random(1, 100000 * :scale)
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;', dataset => 'tpcb')});
my $run_mine = lab(q{SELECT id FROM bench.run('mine', clients => 2, duration => '2 s',
	progress => '1 s', sample_interval => '500 ms')});
my $suite = lab(q{SELECT DISTINCT suite_id FROM bench.sweep('select-only', clients => '{1,2}',
	repeat => 1, transactions => 30, progress => '0')});
ok($run_tpcb && $run_script && $run_mine && $suite, 'runs and a sweep made at 0.1.0');
if ($has_cron)
{
	lab(q{SELECT name FROM bench.schedule('nightly', '0 3 * * *', 'select-only',
		clients => '{1,2}', transactions => 20, progress => '0')});
	lab(q{SELECT * FROM bench.run_schedule('nightly')});
	is(lab(q{SELECT count(*) FROM bench.suites WHERE schedule = 'nightly' AND status = 'done'}),
		'1', 'a schedule and one execution of it at 0.1.0');
}

# a statement text with a password in the sample after a run, as 0.1.0
# kept them (pg_stat_statements keeps utility statements as they were
# written); the sample as it is then, to compare with after the update
lab(qq{UPDATE bench.samples
	SET data = jsonb_set(data, '{statements}', coalesce(data->'statements', '[]') || jsonb_build_array(jsonb_build_object(
		'queryid', -42, 'userid', 10, 'toplevel', true, 'own', true, 'calls', 5,
		'total_exec_time', 1e6, 'rows', 0,
		'query', 'CREATE USER MAPPING FOR CURRENT_USER SERVER vault OPTIONS (user ''bench'', password ''hunter2-old'')')))
	WHERE run_id = $run_tpcb AND phase = 'after'});
lab(qq{CREATE TABLE public.sample_at_0_1_0 AS
	SELECT data FROM bench.samples WHERE run_id = $run_tpcb AND phase = 'after'});
is(lab(q{SELECT count(*) FROM bench.samples WHERE data::text ~ 'hunter2'}), '1',
	'a sample of 0.1.0 holds a password in a statement text');

# every row of every table of schema bench, and where the sequences are
# (bench.datasets.tables as OIDs, which an upgrade keeps, or as names,
# which a restore keeps: TABLES_AS 'oid' or 'name'; after a restore, the
# built-in workloads are the new extension's, defined when it was created;
# the sample with a password is compared on its own; the tables of runs
# and suites, bench._runs and bench._suites since 0.2.0, under their
# names of 0.1.0)
sub contents
{
	my ($db, $tables_as, $columns) = @_;
	my %c;
	for my $table (split /\n/, $node->safe_psql($db,
		q{SELECT tablename FROM pg_tables WHERE schemaname = 'bench' ORDER BY 1}))
	{
		(my $t = $table) =~ s/^_(runs|suites)$/$1/;
		my $row =
		    $t eq 'datasets' && $tables_as eq 'oid'
		  ? q{to_jsonb(x) || jsonb_build_object('tables', x.tables::oid[])}
		  : $t eq 'datasets' ? q{to_jsonb(x) || jsonb_build_object('tables', x.tables::regclass[]::text[])}
		  # the built-in workloads are the extension's own, made again
		  # when a restore creates it
		  : $t eq 'workloads' && $tables_as eq 'name'
		  ? q{to_jsonb(x) - CASE WHEN x.builtin THEN 'defined_at' ELSE '' END}
		  : 'to_jsonb(x)';
		# COLUMNS: only the columns a table had then (a column an update
		# adds has its default in the rows it finds)
		$row = qq{(SELECT jsonb_object_agg(e.key, e.value) FROM jsonb_each($row) e
		            WHERE e.key = ANY ('{$columns->{$t}}'::text[]))}
		  if $columns && $columns->{$t};
		my $where = $t eq 'samples' ? "WHERE NOT (x.run_id = $run_tpcb AND x.phase = 'after')"
		  # the built-in workloads 0.2.0 and 0.3.0 add (sysbench's, ibench's,
		  # TPC-C's) are checked apart
		  : $t eq 'workloads' ? "WHERE NOT (x.builtin AND x.dataset IN ('sysbench', 'ibench', 'tpcc'))" : '';
		$c{$t} = $node->safe_psql($db, qq{SELECT count(*) || ' rows, md5 '
			|| md5(coalesce(string_agg(r::text, E'\\n' ORDER BY r::text), ''))
			FROM (SELECT $row AS r FROM bench."$table" x $where) y});
	}
	for my $s (split /\n/, $node->safe_psql($db,
		q{SELECT sequencename FROM pg_sequences WHERE schemaname = 'bench' ORDER BY 1}))
	{
		$c{"sequence $s"} = $node->safe_psql($db, qq{SELECT last_value FROM bench."$s"});
	}
	return \%c;
}

my $before = contents('lab', 'oid');
# the columns of each table before the update
my %columns_before = map { split /\|/, $_, 2 } split /\n/, lab(q{
	SELECT c.relname || '|' || string_agg(a.attname, ',' ORDER BY a.attnum)
	  FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
	 WHERE c.relnamespace = 'bench'::regnamespace AND c.relkind = 'r' GROUP BY c.relname});
ok(keys %$before >= 12, 'schema bench has its tables (' . join(', ', sort keys %$before) . ')');
like($before->{runs}, qr/^(\d+) rows/, 'bench.runs has rows');
my ($runs_before) = $before->{runs} =~ /^(\d+)/;
cmp_ok($runs_before, '>=', 5, "runs before the update: $runs_before");

# ------------------------------------------------------------ 2. the update
lab('ALTER EXTENSION pgbenchkit UPDATE');
is(lab(q{SELECT extversion FROM pg_extension WHERE extname = 'pgbenchkit'}), $new_version,
	"ALTER EXTENSION pgbenchkit UPDATE takes lab to $new_version");
{
	my $after = contents('lab', 'oid', \%columns_before);
	my @added = sort grep { !exists $before->{$_} } keys %$after;
	is(join(',', map { "$_: $after->{$_}" } @added),
		'group_progress: 0 rows, md5 d41d8cd98f00b204e9800998ecf8427e,node: 0 rows, md5 d41d8cd98f00b204e9800998ecf8427e,outages: 0 rows, md5 d41d8cd98f00b204e9800998ecf8427e,run_groups: 0 rows, md5 d41d8cd98f00b204e9800998ecf8427e,subscriptions: 0 rows, md5 d41d8cd98f00b204e9800998ecf8427e',
		'the update adds the tables of client groups, of clients\' outages, of the node and of a central database\'s subscriptions, empty');
	delete @$after{@added};
	is_deeply($after, $before, 'every row of every table of schema bench is kept, unchanged');
}
is(lab(q{SELECT string_agg(name, ',' ORDER BY name) FROM bench.workloads WHERE builtin AND dataset = 'sysbench'}),
	'oltp_delete,oltp_insert,oltp_point_select,oltp_read_only,oltp_read_write,oltp_update_index,oltp_update_non_index,oltp_write_only',
	'the update adds sysbench\'s eight OLTP workloads, built in');
is(lab(q{SELECT string_agg(name, ',' ORDER BY name) FROM bench.workloads WHERE builtin AND dataset = 'ibench'}),
	'ibench.l.i0,ibench.l.i1,ibench.l.i2,ibench.l.x,ibench.qp,ibench.qr',
	'the update adds the Insert Benchmark\'s four load steps and its two kinds of query clients, built in');
is(lab(q{SELECT string_agg(name || ' ' || array_to_string(weights, '/'), ',' ORDER BY name) FROM bench.workloads WHERE builtin AND dataset = 'tpcc'}),
	'tpcc 45/43/4/4/4,tpcc-delivery 1,tpcc-new-order 1,tpcc-order-status 1,tpcc-payment 1,tpcc-stock-level 1',
	'the update adds TPC-C\'s mix and its five transactions alone, built in');
is(lab(q{SELECT count(*) FILTER (WHERE driver = 'server' AND target IS NULL) = count(*) FROM bench.runs}), 't',
	'the runs of 0.1.0 read as runs of in-server clients');
is(lab(q{SELECT count(*) FROM bench.samples WHERE data::text ~ 'hunter2'}), '0',
	'the update redacts the password a sample of 0.1.0 held');
is(lab(qq{SELECT s.data = jsonb_set(o.data, '{statements,-1,query}',
		to_jsonb('CREATE USER MAPPING FOR CURRENT_USER SERVER vault OPTIONS (user ''<redacted>'', password ''<redacted>'')'::text))
	FROM bench.samples s, public.sample_at_0_1_0 o WHERE s.run_id = $run_tpcb AND s.phase = 'after'}), 't',
	'its statement text keeps all but its constants, and the rest of the sample is as it was');

# the old results, read by the new functions
like(lab(qq{SELECT bench.report($run_tpcb)}), qr/number of transactions actually processed: 100\b/,
	'bench.report reads a run of 0.1.0');
like(lab(qq{SELECT bench.report($run_tpcb)}),
	qr/ms mean: CREATE USER MAPPING FOR CURRENT_USER SERVER vault OPTIONS \(user '<redacted>'/,
	'and shows the statement redacted');
like(lab(qq{SELECT bench.chart_run($run_mine)}), qr/^<svg/, 'bench.chart_run draws a run of 0.1.0');
like(lab(qq{SELECT bench.chart_suite($suite)}), qr/^<svg/, 'bench.chart_suite draws a suite of 0.1.0');
is(lab(qq{SELECT (bench.export($run_script))->'runs'->0->>'random_seed'}), '7',
	'bench.export exports a run of 0.1.0');

# new work next to it
my $run_new = lab(q{SELECT id FROM bench.run('tpcb', clients => 2, transactions => 50,
	progress => '0', tag => 'after')});
cmp_ok($run_new, '>', $runs_before, "a new run gets an id after the old ones ($run_new)");
is(lab(qq{SELECT status || ' ' || transactions FROM bench.runs WHERE id = $run_new}), 'done 100',
	'the new run is done with its 100 transactions');
is(lab(qq{SELECT count(*) > 0 FROM bench.compare($run_tpcb, $run_new)}), 't',
	'bench.compare sets the old run beside the new one');
my $suite_new = lab(q{SELECT DISTINCT suite_id FROM bench.sweep('mine', clients => '{1,2}',
	repeat => 1, transactions => 20, progress => '0')});
is(lab(qq{SELECT status || ' ' || runs_planned FROM bench.suites WHERE id = $suite_new}), 'done 2',
	'a new sweep of the workload defined at 0.1.0');
if ($has_cron)
{
	lab(q{SELECT * FROM bench.run_schedule('nightly')});
	is(lab(q{SELECT suites || ' ' || done FROM bench.schedule_status WHERE name = 'nightly'}),
		'2 2', 'the schedule made at 0.1.0 runs again, and its status counts both executions');
}

# ------------------------------------------------------------ 3. same as fresh
$node->safe_psql('fresh', 'CREATE EXTENSION pgbenchkit CASCADE');

# the extension's objects, one line each, as far as their definition goes
# (t/lib/ExtensionCatalog.pm)
my @fresh = describe_extension($node, 'fresh');
cmp_ok(scalar @fresh, '>', 200, 'a fresh install has its objects described (' . scalar(@fresh) . ' lines)');
same_extension($node, 'lab', 'fresh', "the upgraded extension is the same as a fresh install of $new_version");

# the last step alone: from the last release, whose install script is
# frozen, by the upgrade script built from the texts of control/sql/
my $last_release = '0.2.0';
$node->safe_psql('postgres', 'CREATE DATABASE lab2');
$node->safe_psql('lab2', qq{CREATE EXTENSION pgbenchkit VERSION '$last_release' CASCADE});
is($node->safe_psql('lab2', q{SELECT extversion FROM pg_extension WHERE extname = 'pgbenchkit'}),
	$last_release, "lab2 has pgbenchkit $last_release");
# a price set while the SQL is the last release's, which has no place for
# it: the run is recorded without
my $run_lab2 = $node->safe_psql('lab2', q{SET pgbenchkit.price_per_hour = '0.5'; SET pgbenchkit.currency = 'USD';
	SELECT id FROM bench.run(script => 'SELECT 1', transactions => 20, progress => '0', tag => 'before')});
# the columns of each table before the update (a column it adds is NULL in
# the rows it finds)
my %lab2_columns = map { my ($t, $c) = split /\|/, $_, 2; $t =~ s/^_(runs|suites)$/$1/; ($t, $c) }
  split /\n/, $node->safe_psql('lab2', q{
	SELECT c.relname || '|' || string_agg(a.attname, ',' ORDER BY a.attnum)
	  FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
	 WHERE c.relnamespace = 'bench'::regnamespace AND c.relkind = 'r' GROUP BY c.relname});
my $lab2_before = contents('lab2', 'oid', \%lab2_columns);
# privileges a role was granted on a function that takes the run arguments
# and on a view, which the update makes again in place
$node->safe_psql('postgres', 'CREATE ROLE upgrade_reader');
$node->safe_psql('lab2', 'GRANT EXECUTE ON FUNCTION bench.run TO upgrade_reader;
	GRANT SELECT ON bench.run_arguments TO upgrade_reader');
$node->safe_psql('lab2', 'ALTER EXTENSION pgbenchkit UPDATE');
is($node->safe_psql('lab2', q{SELECT extversion FROM pg_extension WHERE extname = 'pgbenchkit'}),
	$new_version, "ALTER EXTENSION pgbenchkit UPDATE takes lab2 from $last_release to $new_version");
{
	my $after = contents('lab2', 'oid', \%lab2_columns);
	my @added = sort grep { !exists $lab2_before->{$_} } keys %$after;
	is(join(',', map { "$_: $after->{$_}" } @added),
		'node: 0 rows, md5 d41d8cd98f00b204e9800998ecf8427e,outages: 0 rows, md5 d41d8cd98f00b204e9800998ecf8427e,subscriptions: 0 rows, md5 d41d8cd98f00b204e9800998ecf8427e',
		"the update from $last_release adds the tables of clients' outages, of the node and of a central database's subscriptions, empty");
	delete @$after{@added};
	is_deeply($after, $lab2_before,
		"every row of every table of schema bench is kept by the update from $last_release");
}
is($node->safe_psql('lab2', qq{SELECT status || ' ' || transactions FROM bench.runs WHERE id = $run_lab2}),
	'done 20', "the run made at $last_release reads as it was");
is($node->safe_psql('lab2', q{SELECT count(*) || ' ' || count(price_per_hour) || ' ' || count(currency) FROM bench.runs}),
	'1 0 0', "the runs made at $last_release have no price (NULL)");
is($node->safe_psql('lab2', q{SET pgbenchkit.price_per_hour = '0.5'; SET pgbenchkit.currency = 'USD';
	SELECT price_per_hour || ' ' || currency || ' ' || status
	  FROM bench.run(script => 'SELECT 1', transactions => 20, progress => '0', tag => 'after')}),
	'0.5 USD done', 'a run after the update keeps its price');
is($node->safe_psql('lab2', q{SELECT has_function_privilege('upgrade_reader', p.oid, 'EXECUTE')
	  FROM pg_proc p WHERE p.pronamespace = 'bench'::regnamespace AND p.proname = 'run'})
	. ' ' . $node->safe_psql('lab2', q{SELECT has_table_privilege('upgrade_reader', 'bench.run_arguments', 'SELECT')}),
	't t', 'what a role was granted on bench.run and bench.run_arguments stays');
$node->safe_psql('lab2', 'REVOKE EXECUTE ON FUNCTION bench.run FROM upgrade_reader;
	REVOKE SELECT ON bench.run_arguments FROM upgrade_reader');
same_extension($node, 'lab2', 'fresh',
	"updated from $last_release, the extension is the same as a fresh install of $new_version");

# ------------------------------------------------------------ 4. pg_dump
is(lab(q{SELECT string_agg(c.relname, ', ' ORDER BY c.relname)
           FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace,
                pg_extension e
          WHERE n.nspname = 'bench' AND c.relkind IN ('r', 'p', 'S')
            AND e.extname = 'pgbenchkit' AND NOT c.oid = ANY (e.extconfig)}),
	'', 'every table and sequence of schema bench is kept by pg_dump (pg_extension_config_dump)');

my $dump = $node->basedir . '/lab.dump';
$node->command_ok([ 'pg_dump', '-Fc', '-d', $node->connstr('lab'), '-f', $dump ], 'pg_dump of lab');
$node->safe_psql('postgres', 'CREATE DATABASE restored');
$node->command_ok([ 'pg_restore', '--exit-on-error', '-d', $node->connstr('restored'), $dump ],
	'pg_restore into database restored');
my $after = contents('lab', 'name');
is_deeply(contents('restored', 'name'), $after, 'the restored database has every row of every table of schema bench');
is($node->safe_psql('restored', q{SELECT extversion FROM pg_extension WHERE extname = 'pgbenchkit'}),
	$new_version, "the restored extension is at $new_version");
like($node->safe_psql('restored', qq{SELECT bench.report($run_tpcb)}),
	qr/number of transactions actually processed: 100\b/, 'bench.report reads a restored run');

# the restored dataset is the restored database's own: runs use it, and
# bench.init may replace it
my $run_restored = $node->safe_psql('restored', q{SELECT id FROM bench.run('tpcb', clients => 2,
	transactions => 30, progress => '0')});
is($node->safe_psql('restored', qq{SELECT status || ' ' || transactions || ' ' || (dataset_id IS NOT NULL)
	FROM bench.runs WHERE id = $run_restored}), 'done 60 true',
	'a run on the restored dataset');
cmp_ok($run_restored, '>', $run_new, 'its id follows the restored ones');
is($node->safe_psql('restored', q{SELECT workload || ' ' || scale FROM bench.init('tpcb', scale => 1, force => true)}),
	'tpcb 1', 'bench.init replaces the restored dataset');
is($node->safe_psql('restored', q{SELECT string_agg(status, ',' ORDER BY id) FROM bench.datasets}),
	'replaced,ready', 'the restored dataset is marked replaced, the new one ready');

done_testing();
