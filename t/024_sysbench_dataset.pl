# bench.init('sysbench') makes the tables sysbench prepare makes, and
# sysbench runs on them.
#
# In this server: bench.init('sysbench', tables => 2, table_size => 5000)
# in database bk, sysbench 1.0's `oltp_read_write prepare` with the same
# options in database ref.  Relation by relation the catalogs (columns,
# types, defaults, NOT NULL, indexes, constraints, the serial's sequence and
# its value) must agree, the values must have sysbench's patterns, and k
# sysbench's distribution (two-sample Kolmogorov-Smirnov distance between
# the two datasets' k under the 1e-6 level's critical value, 2.69 * sqrt(2
# / 10000); a uniform k would be at about 0.7).  Then sysbench's
# oltp_read_write runs on bench.init's tables for 3 s and commits
# transactions without a fatal error.
#
# On a target (a second cluster without pgbenchkit, password
# authentication): bench.init('sysbench', target => ...) with the rows sent
# by COPY and with the rows made there (generate => 'server'), against
# sysbench prepare on that same server; the same checks, and sysbench runs
# on the target's tables.
#
# Needs sysbench (Debian's package) in PATH, the server's bin directory
# first in PATH and pgbenchkit installed into that server.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time sleep);

my $password = 'Sb7-s3cr3t-pw';
my ($TABLES, $SIZE) = (2, 5000);
my $KS = 2.69 * sqrt(2 / ($TABLES * $SIZE));

my $sysbench = `sh -c 'command -v sysbench'`;
chomp $sysbench;
ok($sysbench ne '', "sysbench is installed ($sysbench)")
  or BAIL_OUT('sysbench is needed: apt-get install sysbench');

# ------------------------------------------------------------------ servers
my $node = PostgreSQL::Test::Cluster->new('driver');
$node->init;
$node->append_conf('postgresql.conf', "max_worker_processes = 16\n");
$node->start;
$node->safe_psql('postgres', 'CREATE DATABASE bk');
$node->safe_psql('postgres', 'CREATE DATABASE ref');
$node->safe_psql('bk', 'SET client_min_messages = warning; CREATE EXTENSION pgbenchkit CASCADE');

my $remote = PostgreSQL::Test::Cluster->new('target');
$remote->init;
$remote->start;
my $hba = $remote->data_dir . '/pg_hba.conf';
my $rules = slurp_file($hba);
open my $fh, '>', $hba or die "cannot write $hba: $!";
print $fh "local all bench_remote scram-sha-256\n", $rules;
close $fh;
$remote->reload;
$remote->safe_psql('postgres', qq{
	SET log_statement = 'none';
	SET password_encryption = 'scram-sha-256';
	CREATE ROLE bench_remote LOGIN PASSWORD '$password';
});
$remote->safe_psql('postgres', q{
	CREATE DATABASE sb OWNER bench_remote;
	CREATE DATABASE sbgen OWNER bench_remote;
	CREATE DATABASE ref OWNER bench_remote;
});
my ($rhost, $rport) = ($remote->host, $remote->port);
$node->safe_psql('bk', qq{
	SET log_statement = 'none';
	SELECT name FROM bench.add_target('sb', 'host=$rhost port=$rport dbname=sb',
	                                  password => '$password', "user" => 'bench_remote');
	SELECT name FROM bench.add_target('sbgen', 'host=$rhost port=$rport dbname=sbgen',
	                                  password => '$password', "user" => 'bench_remote');
	SELECT name FROM bench.add_target('sbref', 'host=$rhost port=$rport dbname=ref',
	                                  password => '$password', "user" => 'bench_remote');
	SELECT name FROM bench.add_target('sbnone', 'host=$rhost port=$rport dbname=postgres',
	                                  password => '$password', "user" => 'bench_remote');
});

# ------------------------------------------------------------------ helpers

# sysbench's oltp_read_write with COMMAND on database DB of server N (as
# USER, with PASSWORD if any); returns (exit status, output)
sub sysbench
{
	my ($n, $db, $command, $user, $pw, @more) = @_;
	my @cmd = ($sysbench, 'oltp_read_write', '--db-driver=pgsql', '--pgsql-host=' . $n->host,
		'--pgsql-port=' . $n->port, "--pgsql-user=$user", "--pgsql-db=$db",
		($pw ? ("--pgsql-password=$pw") : ()),
		"--tables=$TABLES", "--table-size=$SIZE", @more, $command);
	my $out = `@cmd 2>&1`;
	return ($? >> 8, $out);
}

# the sbtest tables of database DB of server N, described: columns, indexes,
# constraints, serials (one line each, sorted, no schema or OIDs)
sub describe
{
	my ($n, $db) = @_;
	return $n->safe_psql($db, q{
SELECT line FROM (
  SELECT format('column %s.%s %s %s default %s', c.relname, a.attname,
                format_type(a.atttypid, a.atttypmod), CASE WHEN a.attnotnull THEN 'not null' ELSE 'null' END,
                coalesce(pg_get_expr(d.adbin, d.adrelid), '-')) AS line
    FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
    LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
   WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r' AND c.relname LIKE 'sbtest%'
  UNION ALL
  SELECT format('index %s %s', i.indexrelid::regclass, regexp_replace(pg_get_indexdef(i.indexrelid), 'public\.', '', 'g'))
    FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
   WHERE c.relnamespace = 'public'::regnamespace AND c.relname LIKE 'sbtest%'
  UNION ALL
  SELECT format('constraint %s %s %s', conrelid::regclass, conname, pg_get_constraintdef(oid))
    FROM pg_constraint WHERE connamespace = 'public'::regnamespace AND conrelid::regclass::text LIKE 'sbtest%'
  UNION ALL
  SELECT format('sequence %s of %s: %s %s %s..%s by %s', s.seqrelid::regclass,
                (SELECT d.refobjid::regclass || '.' || a.attname FROM pg_depend d
                   JOIN pg_attribute a ON a.attrelid = d.refobjid AND a.attnum = d.refobjsubid
                  WHERE d.objid = s.seqrelid AND d.deptype = 'a'),
                format_type(s.seqtypid, NULL), q.last_value, s.seqmin, s.seqmax, s.seqincrement)
    FROM pg_sequence s JOIN pg_class c ON c.oid = s.seqrelid
    CROSS JOIN LATERAL (SELECT last_value FROM pg_sequences ps
                         WHERE ps.schemaname = 'public' AND ps.sequencename = c.relname) q
   WHERE c.relnamespace = 'public'::regnamespace
) l ORDER BY line});
}

# the values: rows, ids, and whether every c and pad has sysbench's pattern
# (blank-padded to the column's width, as char(n) stores it)
sub values_ok
{
	my ($n, $db) = @_;
	return $n->safe_psql($db, qq{
SELECT string_agg(format('%s: %s rows, ids %s, c %s, pad %s, k in range %s', t, n, ids, c, pad, k), '; ' ORDER BY t)
  FROM (SELECT t, count(*) AS n, min(id) = 1 AND max(id) = $SIZE AS ids,
               bool_and(c::text ~ '^([0-9]{11}-){9}[0-9]{11}\$' AND octet_length(c) = 120) AS c,
               bool_and(pad::text ~ '^([0-9]{11}-){4}[0-9]{11}\$' AND octet_length(pad) = 60) AS pad,
               min(k) >= 1 AND max(k) <= $SIZE AS k
          FROM (SELECT 'sbtest1' AS t, * FROM sbtest1 UNION ALL SELECT 'sbtest2', * FROM sbtest2) r GROUP BY t) q});
}

# the largest distance between the distributions of k in two databases
sub k_distance
{
	my ($n1, $db1, $n2, $db2) = @_;
	my $q = 'SELECT k FROM sbtest1 UNION ALL SELECT k FROM sbtest2';
	my @a = split /\n/, $n1->safe_psql($db1, $q);
	my @b = split /\n/, $n2->safe_psql($db2, $q);
	my (%ca, %cb);
	$ca{$_}++ for @a;
	$cb{$_}++ for @b;
	my ($fa, $fb, $d) = (0, 0, 0);
	for my $k (sort { $a <=> $b } keys %{ { %ca, %cb } })
	{
		$fa += ($ca{$k} // 0) / @a;
		$fb += ($cb{$k} // 0) / @b;
		$d = abs($fa - $fb) if abs($fa - $fb) > $d;
	}
	return $d;
}

my $expected_values = join('; ', map { "sbtest$_: $SIZE rows, ids t, c t, pad t, k in range t" } 1 .. $TABLES);

# ------------------------------------------------------------------ in this server
my ($rc, $out) = sysbench($node, 'ref', 'prepare', $node->safe_psql('postgres', 'SELECT current_user'), undef);
is($rc, 0, 'sysbench prepare in ref') or diag $out;
is($node->safe_psql('bk', "SELECT rows_loaded FROM bench.init('sysbench', tables => $TABLES, table_size => $SIZE, jobs => 2)"),
	$TABLES * $SIZE, 'bench.init loads the rows');

my $ref = describe($node, 'ref');
like($ref, qr/^index k_1 CREATE INDEX k_1 ON sbtest1 USING btree \(k\)$/m, 'sysbench prepare made the index on k');
is(describe($node, 'bk'), $ref, "bench.init's tables are sysbench prepare's: columns, indexes, constraints, serials");
is(values_ok($node, 'bk'), $expected_values, "bench.init's values have sysbench's patterns");
is(values_ok($node, 'ref'), $expected_values, "sysbench prepare's values have the patterns checked");
my $d = k_distance($node, 'bk', $node, 'ref');
cmp_ok($d, '<', $KS, sprintf("k has sysbench's distribution: distance %.4f", $d));

($rc, $out) = sysbench($node, 'bk', 'run', $node->safe_psql('postgres', 'SELECT current_user'), undef,
	'--threads=2', '--time=3');
is($rc, 0, 'sysbench oltp_read_write runs on bench.init\'s tables') or diag $out;
my ($tx) = $out =~ /transactions:\s+(\d+)/;
cmp_ok($tx // 0, '>', 0, 'sysbench committed transactions there (' . ($tx // 'none') . ')');
unlike($out, qr/FATAL/, 'sysbench met no fatal error');

# bench.run on sysbench prepare's own tables: :tables and :table_size read
# from them; the rows a read-write run keeps, and those it reads
$node->safe_psql('ref', 'SET client_min_messages = warning; CREATE EXTENSION pgbenchkit CASCADE');
is($node->safe_psql('ref', q{SELECT status || ' ' || transactions FROM bench.run('oltp_read_write', transactions => 30,
	prewarm => false, progress => '0')}), 'done 30', "bench.run('oltp_read_write') on sysbench prepare's tables");
is($node->safe_psql('ref', q{SELECT (SELECT count(*) FROM sbtest1) + (SELECT count(*) FROM sbtest2)}),
	$TABLES * $SIZE, 'its deletes and inserts of the same ids keep the rows');
is($node->safe_psql('ref', q{SELECT count(*) FILTER (WHERE command LIKE 'SELECT c FROM sbtest:{t} WHERE id = :id%')
	|| ' point selects, ' || min(executions) || ' executions each' FROM bench.command_latencies
	WHERE run_id = (SELECT max(id) FROM bench.runs)}), '10 point selects, 30 executions each',
	'each transaction ran its ten point selects');
($rc, $out) = (0, $node->safe_psql('bk', q{SELECT status || ' ' || transactions FROM bench.run('oltp_read_only',
	clients => 2, duration => '2 s', prewarm => false, progress => '0')}));
like($out, qr/^done \d+$/, "bench.run('oltp_read_only') with 2 clients on bench.init's tables: $out");

# ------------------------------------------------------------------ on a target
($rc, $out) = sysbench($remote, 'ref', 'prepare', 'bench_remote', $password);
is($rc, 0, 'sysbench prepare on the target') or diag $out;
my $rref = describe($remote, 'ref');
is($rref, $ref, "the target's reference is this server's");
for my $case ([ 'sb', 'client' ], [ 'sbgen', 'server' ])
{
	my ($db, $generate) = @$case;
	is($node->safe_psql('bk', "SELECT rows_loaded FROM bench.init('sysbench', tables => $TABLES, table_size => $SIZE,
	                           target => '$db', generate => '$generate')"),
		$TABLES * $SIZE, "target, generate $generate: bench.init loads the rows");
	is(describe($remote, $db), $rref, "target, generate $generate: the tables are sysbench prepare's");
	is(values_ok($remote, $db), $expected_values, "target, generate $generate: the values have sysbench's patterns");
	$d = k_distance($remote, $db, $remote, 'ref');
	cmp_ok($d, '<', $KS, sprintf("target, generate %s: k has sysbench's distribution: distance %.4f", $generate, $d));
	is($remote->safe_psql($db, q{SELECT count(*) FROM pg_class WHERE relnamespace = 'public'::regnamespace}),
		$TABLES * 4, "target, generate $generate: nothing but the tables, their keys, indexes and serials");
	($rc, $out) = sysbench($remote, $db, 'run', 'bench_remote', $password, '--threads=2', '--time=2');
	is($rc, 0, "target, generate $generate: sysbench runs on the tables") or diag $out;
	($tx) = $out =~ /transactions:\s+(\d+)/;
	cmp_ok($tx // 0, '>', 0, "target, generate $generate: sysbench committed transactions (" . ($tx // 'none') . ')');
}

# ------------------------------------------------------------------ workloads on a target
# sysbench's workloads over libpq: :tables and :table_size read from the
# target's tables, bench.init's or sysbench prepare's own
for my $case ([ 'sb', 'oltp_read_write' ], [ 'sbref', 'oltp_read_only' ], [ 'sbgen', 'oltp_point_select' ])
{
	my ($t, $workload) = @$case;
	is($node->safe_psql('bk', qq{
		SELECT status || ' ' || transactions || ' ' || failures || ' ' || (variables->>'tables') || ' ' || (variables->>'table_size')
		  FROM bench.run('$workload', target => '$t', clients => 2, transactions => 30, progress => '0')}),
		"done 60 0 $TABLES $SIZE", "target $t: $workload runs over libpq with the target's tables and size");
}
# the sizes of the target's sbtest tables, before and after, as for pgbench's
is($node->safe_psql('bk', q{
	SELECT string_agg(relation, ',' ORDER BY relation) FROM bench.relation_sizes
	 WHERE run_id = (SELECT max(id) FROM bench.runs) AND phase = 'after' AND kind = 'table'}),
	join(',', map { "public.sbtest$_" } 1 .. $TABLES), "target: the run measured the sizes of the target's sbtest tables");
my ($ok, $stdout, $stderr) = $node->psql('bk', q{SELECT * FROM bench.run('oltp_read_only', target => 'sbnone', transactions => 1)});
like($stderr, qr/workload "oltp_read_only" needs a sysbench dataset, and target "sbnone" has no sbtest1 its role can read/,
	'target without sbtest1: a sysbench workload is refused before it starts');
($ok, $stdout, $stderr) = $node->psql('bk', q{SELECT * FROM bench.run('tpcb', target => 'sb', transactions => 1)});
like($stderr, qr/workload "tpcb" needs a tpcb dataset, and target "sb" has no pgbench_branches/,
	'a sysbench target: a pgbench workload is refused');

# ------------------------------------------------------------------ the Insert Benchmark on a target
# bench.init('ibench') makes the empty tables there, the benchmark's own
# statements; its steps run over libpq
is($node->safe_psql('bk', q{SELECT rows_loaded FROM bench.init('ibench', tables => 2, target => 'sbgen')}), '0',
	'ibench on a target: bench.init makes the tables, empty');
is($remote->safe_psql('sbgen', q{SELECT string_agg(c.relname || ' ' || s.seqcache, ',' ORDER BY c.relname)
	FROM pg_sequence s JOIN pg_class c ON c.oid = s.seqrelid WHERE c.relname LIKE 'pi%'}),
	'pi1_transactionid_seq 1000,pi2_transactionid_seq 1000', 'ibench on a target: the sequences cache 1000 ids');
# (each run's sessions take the sequence's ids 1000 at a time)
for my $case ([ 'ibench.l.i0', 5, 'pi1 500 1 500,pi2 500 1 500' ], [ 'ibench.l.x', 1, 'pi1 600 1 1100,pi2 600 1 1100' ],
	[ 'ibench.l.i1', 4, 'pi1 600 201 2200,pi2 600 201 2200' ])
{
	my ($workload, $txs, $rows) = @$case;
	is($node->safe_psql('bk', qq{SELECT status || ' ' || transactions FROM bench.run('$workload', target => 'sbgen',
		clients => 2, transactions => $txs, progress => '0')}), 'done ' . (2 * $txs), "ibench on a target: $workload runs");
	is($remote->safe_psql('sbgen', q{SELECT string_agg(t || ' ' || n || ' ' || lo || ' ' || hi, ',' ORDER BY t)
		FROM (SELECT 'pi1' AS t, count(*) AS n, min(transactionid) AS lo, max(transactionid) AS hi FROM pi1
		      UNION ALL SELECT 'pi2', count(*), min(transactionid), max(transactionid) FROM pi2) x}),
		$rows, "ibench on a target: the rows after $workload");
}
is($remote->safe_psql('sbgen', q{SELECT count(*) FROM pg_indexes WHERE tablename IN ('pi1', 'pi2')}), '8',
	'ibench on a target: l.x made three secondary indexes on each table');

# the whole benchmark as one call on the target: l.i0 makes the tables
# anew there (bench.init over libpq, in the suite's worker), then each step
# a run over libpq, the query steps as two groups
my $steps = $node->safe_psql('bk', q{
	SELECT string_agg(step || ' ' || status || ' ' || clients || ' ' || COALESCE(inserts::text, '-')
	                  || ' ' || COALESCE(target_inserts_per_s::text, '-') || ' ' || (table_bytes > 0), ',' ORDER BY step_no)
	  FROM bench.ibench(rows => 200, insert_clients => 2, duration => '1 s', steps => '{l.i0,l.x,qp1000}',
	                    target => 'sbgen', progress => '0')});
like($steps, qr/^l\.i0 done 2 400 - true,l\.x done 2 - - true,qp1000 done 4 \d+ 2000 true$/,
	'bench.ibench on a target: each step a run there, l.i0 400 rows, the query step at its target rate');
is($remote->safe_psql('sbgen', q{SELECT count(*) FROM pg_indexes WHERE tablename IN ('pi1', 'pi2')}), '8',
	'bench.ibench on a target: l.x indexed the tables l.i0 made anew');
is($node->safe_psql('bk', q{SELECT string_agg(DISTINCT target || ' ' || driver, ',') FROM bench.runs
	WHERE suite_id = (SELECT max(id) FROM bench.suites)}), 'sbgen libpq',
	'bench.ibench on a target: every step ran over libpq');

# ------------------------------------------------------------------ ignored errors
# over libpq: a duplicate key the script ignores restarts the transaction
# with new values (each client draws from its own ten ids, of which the
# first two are taken; each statement commits alone, so ign_tries keeps
# every try), as in the server's clients
$remote->safe_psql('sbgen', q{
	SET ROLE bench_remote;
	CREATE TABLE ign_unique (id int PRIMARY KEY);
	INSERT INTO ign_unique VALUES (1), (2), (11), (12);
	CREATE TABLE ign_tries (id int);
});
my $ign = $node->safe_psql('bk', q{
	SELECT status || ' ' || transactions || ' ' || failures || ' ' || ignored_errors
	  FROM bench.run(script => $s$
\ignore_errors 23505
\set id random(1, 4) + 10 * :client_id
INSERT INTO ign_tries VALUES (:id);
INSERT INTO ign_unique VALUES (:id);
DELETE FROM ign_unique WHERE id = :id;
$s$, target => 'sbgen', clients => 2, transactions => 50, random_seed => 5, progress => '0')});
my ($status, $txs, $fails, $ignored) = split / /, $ign;
is("$status $txs $fails", 'done 100 0', 'ignored errors over libpq: the run is done, every transaction counted');
cmp_ok($ignored, '>', 0, "ignored errors over libpq: some were met ($ignored)");
is($remote->safe_psql('sbgen', q{SELECT count(*) FILTER (WHERE id % 10 IN (3, 4)) || ' ' || count(*) FILTER (WHERE id % 10 IN (1, 2)) FROM ign_tries}),
	"100 $ignored", 'ignored errors over libpq: each failed try restarted with new values, and only it');
is($remote->safe_psql('sbgen', 'SELECT array_agg(id ORDER BY id) FROM ign_unique'), '{1,2,11,12}',
	'ignored errors over libpq: the table is left as it was');

# ------------------------------------------------------------------ where the time goes on a target
# without pg_stat_statements there the report says what is not measured;
# with it, execution per call, and planning too with track_planning on
my $last = q{(SELECT max(id) FROM bench.runs)};
like($node->safe_psql('bk', "SELECT bench.report($last)"),
	qr/^where the time goes: not measured \(the target's statements are timed by its server, and its pg_stat_statements is not available: /m,
	'target without pg_stat_statements: the report says the phases are not measured, and why');
$remote->append_conf('postgresql.conf', "shared_preload_libraries = 'pg_stat_statements'\npg_stat_statements.track_planning = on\n");
$remote->restart;
$remote->safe_psql('sbgen', 'CREATE EXTENSION pg_stat_statements');
$remote->safe_psql('sbgen', 'GRANT pg_read_all_stats TO bench_remote');
my ($phases) = sub {
	my ($label) = @_;
	is($node->safe_psql('bk', q{SELECT status FROM bench.run('oltp_point_select', target => 'sbgen', clients => 2,
		transactions => 200, progress => '0')}), 'done', "$label: the run is done");
	my $report = $node->safe_psql('bk', "SELECT bench.report($last)");
	my ($head, $cols, $row) = $report =~ /^(where the time goes, in milliseconds per call, as pg_stat_statements measured it on the target[^\n]*)\n([^\n]*)\n([^\n]*)/m;
	return ($head // '', $cols // '', $row // '', $report);
};
my ($head, $cols, $row, $report) = $phases->('track_planning on');
like($head, qr/\(planning and execution; parse, analysis and rewrite are not measured there\):$/, 'track_planning on: planning and execution are measured');
like($row, qr/^ +\d+\.\d{4} +\d+\.\d{4} +\d+  SELECT c FROM sbtest\d WHERE id = \$1$/,
	'track_planning on: the point select, its planning and execution per call') or diag $report;
$remote->safe_psql('postgres', 'ALTER SYSTEM SET pg_stat_statements.track_planning = off');
$remote->reload;
# a reload is a signal: the run's sessions, forked by the target's
# postmaster, have the setting once a new session has it (a loaded machine
# ran the next run's sessions before the postmaster had reloaded)
{
	my $deadline = time + 60;
	sleep 0.1 while $remote->safe_psql('sbgen', 'SHOW pg_stat_statements.track_planning') ne 'off' && time < $deadline;
}
is($remote->safe_psql('sbgen', 'SHOW pg_stat_statements.track_planning'), 'off',
	'track_planning off: the target\'s new sessions have it');
($head, $cols, $row, $report) = $phases->('track_planning off');
like($head, qr/: execution only \(planning is measured with pg_stat_statements.track_planning on there;/, 'track_planning off: execution only, and why');
like($row, qr/^ +- +\d+\.\d{4} +\d+  SELECT c FROM sbtest\d WHERE id = \$1$/, 'track_planning off: no planning time') or diag $report;

$node->stop;
$remote->stop;
done_testing();
