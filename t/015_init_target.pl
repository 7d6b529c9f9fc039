# bench.init into a target makes the dataset pgbench -i makes there.
#
# Two nodes: the driver, with pgbenchkit, where an ordinary role (alice)
# calls bench.init; and the target, without pgbenchkit, where alice's user
# mapping logs in as bench_remote with a password (scram-sha-256; every
# other role is trusted).  For each set of options, with both ways of
# generating the rows (COPY from the driver, or INSERT ... SELECT on the
# target), bench.init loads database "bench" of the target and pgbench -i
# (with the same options and steps) loads database "ref" there; relation by
# relation the catalogs (kind, persistence, columns, options, partitioning,
# constraints, indexes) and the contents (a hash of every row) must agree.
# Then: only the dataset is on the target; what a role may not do there,
# and tables that are in the way, are refused before anything changes; a
# cancel or a termination in the middle of a load leaves the target as it
# was, nothing of ours running there, and the dataset 'aborted'; the
# password is nowhere (logs, pg_stat_activity, bench.datasets, messages).
#
# Needs the server's bin directory (initdb, pg_ctl, postgres, pgbench)
# first in PATH and pgbenchkit installed into that server.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time usleep);

my $password = 'Tg7-s3cr3t-pw';
my $wrong_password = 'Wr0ng-s3cr3t-pw';

# ------------------------------------------------------------------ the target
my $remote = PostgreSQL::Test::Cluster->new('target');
$remote->init;
$remote->start;

my $hba = $remote->data_dir . '/pg_hba.conf';
my $rules = slurp_file($hba);
open my $fh, '>', $hba or die "cannot write $hba: $!";
print $fh "local all bench_remote scram-sha-256\n", $rules;
close $fh;
$remote->reload;

# the password is given where no statement is logged (psql sends the
# statements one by one: the SET is in force for the next)
$remote->safe_psql('postgres', qq{
	SET log_statement = 'none';
	SET password_encryption = 'scram-sha-256';
	CREATE ROLE bench_remote LOGIN PASSWORD '$password';
});
$remote->safe_psql('postgres', q{
	CREATE ROLE trusted_user LOGIN;
	CREATE DATABASE bench OWNER bench_remote;
	CREATE DATABASE ref;
	CREATE DATABASE locked;
	CREATE DATABASE clash OWNER bench_remote;
});
$remote->safe_psql('locked', q{REVOKE CREATE ON SCHEMA public FROM PUBLIC});
# in ref, pgbench -i's tables belong to the superuser; bench_remote may create
$remote->safe_psql('ref', q{GRANT CREATE ON SCHEMA public TO bench_remote});
my $remote_version = $remote->safe_psql('postgres', q{SHOW server_version});

# ------------------------------------------------------------------ the driver
my $node = PostgreSQL::Test::Cluster->new('driver');
$node->init;
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION pgbenchkit CASCADE;
	CREATE ROLE alice LOGIN;
	GRANT USAGE ON FOREIGN DATA WRAPPER bench_target TO alice;
	GRANT EXECUTE ON FUNCTION bench.init, bench.add_target, bench.check_target TO alice;
});

my ($rhost, $rport) = ($remote->host, $remote->port);

# alice's targets; the passwords given where no statement is logged
$node->safe_psql('postgres', qq{
	SET log_statement = 'none';
	SET ROLE alice;
	SELECT name FROM bench.add_target('remote', 'host=$rhost port=$rport dbname=bench',
	                                  password => '$password', "user" => 'bench_remote');
	SELECT name FROM bench.add_target('ref', 'host=$rhost port=$rport dbname=ref',
	                                  password => '$password', "user" => 'bench_remote');
	SELECT name FROM bench.add_target('locked', 'host=$rhost port=$rport dbname=locked',
	                                  password => '$password', "user" => 'bench_remote');
	SELECT name FROM bench.add_target('clash', 'host=$rhost port=$rport dbname=clash',
	                                  password => '$password', "user" => 'bench_remote');
	SELECT name FROM bench.add_target('trusting', 'host=$rhost port=$rport dbname=bench',
	                                  password => '$password', "user" => 'trusted_user');
	SELECT name FROM bench.add_target('wrong', 'host=$rhost port=$rport dbname=bench',
	                                  password => '$wrong_password', "user" => 'bench_remote');
});

# ------------------------------------------------------------------ helpers

# psql as alice: (status, stdout, stderr)
sub as_alice
{
	my ($sql) = @_;
	return $node->psql('postgres', "SET ROLE alice; $sql");
}

sub sql { return $node->safe_psql('postgres', $_[0]); }

# Poll QUERY on NODE (database DB) until it returns EXPECTED or SECONDS
# pass; true if it did.
sub poll
{
	my ($n, $db, $query, $expected, $seconds) = @_;
	my $deadline = time + $seconds;
	my $last = '';
	while (time < $deadline)
	{
		my ($ret, $out, $err) = $n->psql($db, $query);
		$last = "$out$err";
		return 1 if $ret == 0 && $out eq $expected;
		usleep(100_000);
	}
	diag "polling timed out after $seconds s: $query\nexpected: $expected\nlast: $last";
	return 0;
}

# The catalog description of every relation named pgbench_% in schema
# public of database DB of the target: { relname => "facet: value\n..." }.
sub describe
{
	my ($db) = @_;
	my %d;
	my $out = $remote->safe_psql($db, q{
		SELECT c.relname, f.facet, replace(f.value, '|', '/')
		  FROM pg_class c
		  CROSS JOIN LATERAL (VALUES
			('kind', c.relkind::text),
			('persistence', c.relpersistence::text),
			('options', coalesce(array_to_string(c.reloptions, ','), '-')),
			('partition of', coalesce((SELECT inhparent::regclass::text FROM pg_inherits
			                            WHERE inhrelid = c.oid), '-')),
			('partition bound', coalesce(pg_get_expr(c.relpartbound, c.oid), '-')),
			('partition key', CASE WHEN c.relkind = 'p' THEN pg_get_partkeydef(c.oid) ELSE '-' END),
			('columns', coalesce((
				SELECT string_agg(format('%s %s%s', a.attname, format_type(a.atttypid, a.atttypmod),
				                         CASE WHEN a.attnotnull THEN ' not null' ELSE '' END),
				                  ', ' ORDER BY a.attnum)
				  FROM pg_attribute a
				 WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped), '-')),
			('constraints', coalesce((
				SELECT string_agg(format('%s %s', co.conname, pg_get_constraintdef(co.oid)),
				                  '; ' ORDER BY co.conname)
				  FROM pg_constraint co WHERE co.conrelid = c.oid), '-')),
			('index', coalesce((SELECT pg_get_indexdef(i.indexrelid)
			                           || CASE WHEN i.indisprimary THEN ' primary' ELSE '' END
			                      FROM pg_index i WHERE i.indexrelid = c.oid), '-')),
			('rows', CASE WHEN c.relkind IN ('r', 'p') THEN 'counted' ELSE '-' END)
		  ) AS f(facet, value)
		 WHERE c.relnamespace = 'public'::regnamespace
		   AND c.relname LIKE 'pgbench\_%'
		 ORDER BY 1, 2});
	for my $line (split /\n/, $out)
	{
		my ($rel, $facet, $value) = split /\|/, $line, -1;
		$d{$rel} .= "$facet: $value\n";
	}
	# every table's rows, in order: a hash of their text, and their count
	for my $rel (grep { $d{$_} =~ /^rows: counted$/m } keys %d)
	{
		my $rows = $remote->safe_psql($db, qq{
			SELECT count(*) || ' ' || coalesce(md5(string_agg(t::text, E'\\n' ORDER BY t::text)), '-')
			  FROM public.$rel t});
		$d{$rel} =~ s/^rows: counted$/rows: $rows/m;
	}
	return \%d;
}

# The two descriptions must be the same, relation by relation.
sub same_relations
{
	my ($label, $got, $want) = @_;
	is(join(', ', sort keys %$got), join(', ', sort keys %$want),
		"$label: the same relations as pgbench -i makes");
	my @diff = grep { ($got->{$_} // '') ne ($want->{$_} // '') } sort keys %$want;
	ok(!@diff, "$label: each relation the same as pgbench -i's (catalogs and rows)")
	  or diag(join("\n", map { "$_:\nbench.init:\n" . ($got->{$_} // "(missing)\n") . "pgbench -i:\n$want->{$_}" } @diff));
	return;
}

# ------------------------------------------------------------------ a role with a target
is((split /\n/, (as_alice(q{SELECT bench.check_target('remote')}))[1])[-1],
	$remote->safe_psql('postgres', 'SELECT version()'),
	'alice reaches the target with the password of her user mapping');

# ------------------------------------------------------------------ the dataset pgbench -i makes
my @variants = (
	{
		label => 'COPY, fillfactor 90, foreign keys',
		init => q{fillfactor => 90, foreign_keys => true},
		pgbench => [ '-F', '90', '-I', 'dtgvpf' ],
		generate => 'client',
	},
	{
		label => 'server-side, 3 range partitions, fillfactor 80',
		init => q{generate => 'server', partitions => 3, fillfactor => 80},
		pgbench => [ '-F', '80', '--partitions', '3', '-I', 'dtGvp' ],
		generate => 'server',
	},
	{
		label => 'COPY, 4 hash partitions, unlogged, foreign keys',
		init => q{generate => 'client', partitions => 4, partition_method => 'hash',
		          unlogged => true, foreign_keys => true},
		pgbench => [ '--partitions', '4', '--partition-method', 'hash', '--unlogged-tables',
			'-I', 'dtgvpf' ],
		generate => 'client',
	},
	{
		label => 'server-side, unlogged, foreign keys',
		init => q{generate => 'server', unlogged => true, foreign_keys => true},
		pgbench => [ '--unlogged-tables', '-I', 'dtGvpf' ],
		generate => 'server',
	},
);

my $first = 1;
my $last_id;
for my $v (@variants)
{
	my $label = $v->{label};
	# the first load finds no tables there; the next ones replace them
	my $force = $first ? '' : ', force => true';
	my ($ret, $out, $err) = as_alice(qq{
		SELECT dataset_id || ' ' || rows_loaded
		  FROM bench.init('tpcb', scale => 2, target => 'remote'$force, $v->{init})});
	is($ret, 0, "$label: bench.init loads the target") or diag($err);
	my ($id, $rows) = split / /, (split /\n/, $out)[-1];
	is($rows, 200022, "$label: it reports the rows of the three filled tables");
	like($err, qr/NOTICE:  target "remote": PostgreSQL \Q$remote_version\E, database "bench", schema "public", user "bench_remote"/,
		"$label: a NOTICE says where it loads");
	like($err, qr/NOTICE:  creating tables\.\.\..*NOTICE:  generating data \($v->{generate}-side\)\.\.\..*NOTICE:  vacuuming\.\.\..*NOTICE:  creating primary keys\.\.\..*NOTICE:  done in [0-9.]+ s/s,
		"$label: NOTICEs say pgbench's steps, in its order");
	if ($first)
	{
		unlike($err, qr/dropping old tables/, "$label: there was nothing to drop");
	}
	else
	{
		like($err, qr/NOTICE:  dropping old tables\.\.\./, "$label: the old tables are dropped first");
	}
	is(sql(qq{
		SELECT status, target, schema_name, tables IS NULL, server_version, options->>'generate',
		       options->'target_tables', sqlstate IS NULL, error IS NULL
		  FROM bench.datasets WHERE id = $id}),
		"ready|remote|public|t|$remote_version|$v->{generate}|"
		  . '["public.pgbench_history", "public.pgbench_tellers", "public.pgbench_accounts", "public.pgbench_branches"]|t|t',
		"$label: bench.datasets records the target, its version and its tables, none here");
	if (defined $last_id)
	{
		is(sql(qq{SELECT status FROM bench.datasets WHERE id = $last_id}), 'replaced',
			"$label: the dataset it replaced there is marked replaced");
	}

	$remote->command_ok([ 'pgbench', '-i', '-q', '-s', '2', @{ $v->{pgbench} }, '-h', $rhost, '-p', $rport, 'ref' ],
		"$label: pgbench -i -s 2 @{$v->{pgbench}} loads another database of the target");
	same_relations($label, describe('bench'), describe('ref'));
	$first = 0;
	$last_id = $id;
}

# ------------------------------------------------------------------ nothing but the dataset
is($remote->safe_psql('bench', q{
	SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
	 WHERE n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')
	   AND c.relname NOT LIKE 'pgbench\_%'}), '0',
	'only relations named pgbench_% were made on the target');
is($remote->safe_psql('bench', q{
	SELECT count(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
	 WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')}), '0',
	'no function was made on the target');
is($remote->safe_psql('bench', q{SELECT string_agg(extname, ',' ORDER BY extname) FROM pg_extension}),
	'plpgsql', 'no extension was created on the target');
is($remote->safe_psql('bench', q{
	SELECT string_agg(nspname, ',' ORDER BY nspname) FROM pg_namespace
	 WHERE nspname NOT LIKE 'pg\_%' AND nspname <> 'information_schema'}),
	'public', 'no schema was made on the target');
is($remote->safe_psql('postgres', q{
	SELECT count(*) FROM pg_stat_activity WHERE application_name = 'pgbenchkit init'}), '0',
	'no connection of bench.init is left on the target');

# ------------------------------------------------------------------ refused before anything changes
my $before = describe('bench');
my $ndatasets = sql(q{SELECT count(*) FROM bench.datasets});
my ($ret, $out, $err);

($ret, $out, $err) = as_alice(q{SELECT * FROM bench.init('tpcb', scale => 2, target => 'remote')});
like($err, qr/ERROR:  table "public\.pgbench_accounts" already exists on target "remote"/,
	'without force, tables of the dataset on the target are refused');
like($err, qr/HINT:  Call bench.init with force => true/, 'the hint says how to replace them');

($ret, $out, $err) = as_alice(q{SELECT * FROM bench.init('tpcb', target => 'ref', force => true)});
like($err, qr/ERROR:  must be owner of table "public\.pgbench_accounts" of target "ref" to replace it/,
	'with force, tables another user owns there are refused');

($ret, $out, $err) = as_alice(q{SELECT * FROM bench.init('tpcb', target => 'locked')});
like($err, qr/ERROR:  permission denied to create tables in schema "public" of target "locked"/,
	'a schema the remote user may not create in is refused');

$remote->safe_psql('clash', q{CREATE TABLE pgbench_accounts_2 (x int)});
($ret, $out, $err) = as_alice(q{SELECT * FROM bench.init('tpcb', target => 'clash', partitions => 3)});
like($err, qr/ERROR:  table "public\.pgbench_accounts_2" already exists on target "clash"/,
	'a table with the name of a partition to make is refused');
like($err, qr/DETAIL:  It would clash with a partition of the new pgbench_accounts/,
	'the detail says why');

($ret, $out, $err) = as_alice(q{SELECT * FROM bench.init('tpcb', target => 'trusting')});
like($err, qr/ERROR:  password is required to use target "trusting"/,
	'a target that does not ask for the password is refused to an ordinary role');

($ret, $out, $err) = as_alice(q{SELECT * FROM bench.init('tpcb', target => 'wrong')});
like($err, qr/ERROR:  could not connect to target "wrong"/, 'a wrong password fails to connect');
unlike($err, qr/\Q$wrong_password\E/, 'the wrong password is not in the error');

is(sql(q{SELECT count(*) FROM bench.datasets}), $ndatasets, 'none of these recorded a dataset');
is($remote->safe_psql('locked', q{SELECT count(*) FROM pg_class WHERE relnamespace = 'public'::regnamespace}),
	'0', 'nothing was made in the locked database');
is($remote->safe_psql('clash', q{SELECT string_agg(relname, ',') FROM pg_class WHERE relnamespace = 'public'::regnamespace}),
	'pgbench_accounts_2', 'nothing but the table in the way is in the clashing database');
same_relations('after the refusals', describe('bench'), $before);

# ------------------------------------------------------------------ cancel and termination

# how many statements of ours the target's log says it canceled
sub canceled_drops
{
	my @c = slurp_file($remote->logfile) =~
	  /ERROR:  canceling statement due to user request\n[^\n]*STATEMENT:  drop table public\.pgbench_/g;
	return scalar @c;
}

# A session on the target holds a lock on pgbench_history: bench.init with
# force waits there on its DROP, in the middle of its load.
sub stopped_mid_load
{
	my ($label, $stop, $sqlstate, $message) = @_;
	my $canceled = canceled_drops();
	my $lock = $remote->background_psql('bench', on_error_stop => 1);
	$lock->query_safe('BEGIN');
	$lock->query_safe('LOCK pgbench_history IN ACCESS SHARE MODE');

	my $bg = $node->background_psql('postgres', on_error_stop => 0);
	$bg->query_safe('SET ROLE alice');
	my $pid = $bg->query_safe('SELECT pg_backend_pid()');
	$bg->query_until(qr/starting\n/,
		"\\echo starting\nSELECT dataset_id FROM bench.init('tpcb', scale => 2, target => 'remote', force => true);\n");

	ok(poll($remote, 'postgres', q{
			SELECT count(*) FROM pg_stat_activity
			 WHERE application_name = 'pgbenchkit init' AND state = 'active' AND wait_event_type = 'Lock'
			   AND query LIKE 'drop table %'}, '1', 60),
		"$label: bench.init waits on the target, as user 'pgbenchkit init'");
	my $id = sql(q{SELECT max(id) FROM bench.datasets});
	is(sql(qq{SELECT status || ' ' || target FROM bench.datasets WHERE id = $id}), 'loading remote',
		"$label: its dataset is loading");
	# (looked for here, not in SQL, which the logs would show)
	my $activity = q{SELECT application_name, query FROM pg_stat_activity};
	unlike($remote->safe_psql('postgres', $activity), qr/\Q$password\E/,
		"$label: the password is not in the target's pg_stat_activity");
	unlike(sql($activity), qr/\Q$password\E/, "$label: nor in the driver's");

	$stop->($pid);
	my ($done) = $bg->query(q{SELECT 'call ended'});
	my $err = $bg->{stderr};
	$bg->quit;
	like($err, $message, "$label: the call ends with an error");

	ok(poll($node, 'postgres', qq{SELECT status || ' ' || sqlstate FROM bench.datasets WHERE id = $id},
			"aborted $sqlstate", 30),
		"$label: the dataset is aborted ($sqlstate)");
	ok(poll($remote, 'postgres', q{SELECT count(*) FROM pg_stat_activity WHERE application_name = 'pgbenchkit init'},
			'0', 30),
		"$label: nothing of bench.init is left running on the target");
	is(canceled_drops(), $canceled + 1, "$label: the target canceled its statement");
	$lock->query_safe('COMMIT');
	$lock->quit;
	same_relations("$label: the target", describe('bench'), $before);
	is(sql(qq{SELECT status FROM bench.datasets WHERE id = $last_id}), 'ready',
		"$label: the dataset there is still ready");
	return;
}

stopped_mid_load('a canceled call',
	sub { sql(qq{SELECT pg_cancel_backend($_[0])}) },
	'57014', qr/ERROR:  canceling statement due to user request/);
stopped_mid_load('a terminated worker',
	sub { sql(q{SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE backend_type = 'pgbenchkit init'}) },
	'57P01', qr/ERROR:  the init worker was terminated/);

# ------------------------------------------------------------------ the password, nowhere
unlike(sql(q{SELECT d::text FROM bench.datasets d}), qr/\Q$password\E|\Q$wrong_password\E/,
	'the password is not in bench.datasets');
unlike(slurp_file($node->logfile), qr/\Q$password\E|\Q$wrong_password\E/, 'the password is not in the driver\'s log');
unlike(slurp_file($remote->logfile), qr/\Q$password\E|\Q$wrong_password\E/, 'the password is not in the target\'s log');

$node->stop;
$remote->stop;
done_testing();
