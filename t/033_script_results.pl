# A script's rollbacks and latency percentiles against a target (the libpq
# driver): a second server that asks for a password (scram-sha-256 over
# TCP) and has no pgbenchkit.  A mix of a script that always rolls back,
# one whose server-side function raises an error its \rollback_errors
# declares half of the time, and one that commits, runs over 'prepared'
# and 'extended' with two workers: the rows left on the target are exactly
# the transactions that committed, the rest are counted as rollbacks, not
# failures, and each script has its percentiles.
#
# Needs the server's bin directory first in PATH and pgbenchkit installed
# into that server.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $password = 'R0llb4ck-s3cret';

my $remote = PostgreSQL::Test::Cluster->new('remote');
$remote->init(allows_streaming => 0);
$remote->append_conf('postgresql.conf', qq{
listen_addresses = '127.0.0.1'
password_encryption = 'scram-sha-256'
});
my $hba = $remote->data_dir . '/pg_hba.conf';
my $rules = slurp_file($hba);
open my $fh, '>', $hba or die "cannot write $hba: $!";
print $fh "host all bench_remote 127.0.0.1/32 scram-sha-256\n", $rules;
close $fh;
$remote->start;
$remote->safe_psql('postgres', qq{
	CREATE ROLE bench_remote LOGIN PASSWORD '$password';
	CREATE TABLE rb (proto text, x int);
	GRANT ALL ON rb TO bench_remote;
	CREATE FUNCTION rb_raise_if(b boolean) RETURNS void LANGUAGE plpgsql AS \$\$
	BEGIN
		IF b THEN
			RAISE EXCEPTION 'item number is not valid' USING ERRCODE = 'P0001';
		END IF;
	END \$\$;
});
my $rport = $remote->port;

my $node = PostgreSQL::Test::Cluster->new('driver');
$node->init;
$node->start;
$node->safe_psql('postgres', qq{
	CREATE EXTENSION pgbenchkit CASCADE;
	SELECT name FROM bench.add_target('remote', 'host=127.0.0.1 port=$rport dbname=postgres',
	                                  password => '$password', "user" => 'bench_remote');
	SELECT name FROM bench.define_workload('rollback-mix', ARRAY[
	E'BEGIN;\\nINSERT INTO rb VALUES (:''proto'', 1);\\nROLLBACK;\\n',
	E'\\\\rollback_errors P0001\\n\\\\set r random(0, 1)\\nBEGIN;\\nINSERT INTO rb VALUES (:''proto'', 10 + :r);\\nSELECT rb_raise_if(:r = 1);\\nEND;\\n',
	E'INSERT INTO rb VALUES (:''proto'', 3);\\n'], ARRAY[1, 1, 1]);
});

foreach my $proto ('prepared', 'extended')
{
	my $id = $node->safe_psql('postgres', qq{
		SELECT id FROM bench.run('rollback-mix', clients => 4, jobs => 2, transactions => 100,
		                         protocol => '$proto', target => 'remote', progress => '0',
		                         variables => '{"proto": "$proto"}')});
	my ($status, $xacts, $failures) = split /\|/, $node->safe_psql('postgres',
		"SELECT status, transactions, failures FROM bench.runs WHERE id = $id");
	is($status, 'done', "$proto: the run is done");
	is($xacts, 400, "$proto: every transaction counted once");
	is($failures, 0, "$proto: no rollback is a failure");

	my %s;
	foreach my $row (split /\n/, $node->safe_psql('postgres', qq{
		SELECT script_no, transactions, rollbacks,
		       latency_p50_ms > 0 AND latency_p50_ms <= latency_p90_ms AND latency_p90_ms <= latency_p95_ms
		       AND latency_p95_ms <= latency_p99_ms AND latency_p99_ms <= latency_max_ms * 1.01
		  FROM bench.run_scripts WHERE run_id = $id ORDER BY script_no}))
	{
		my ($no, $n, $rb, $ordered) = split /\|/, $row;
		$s{$no} = { n => $n, rb => $rb };
		is($ordered, 't', "$proto: script $no has its percentiles in order");
	}
	is($s{1}{n} + $s{2}{n} + $s{3}{n}, 400, "$proto: the scripts' transactions add up");

	my ($rows1, $rows10, $rows11, $rows3) = split /\|/, $remote->safe_psql('postgres', qq{
		SELECT count(*) FILTER (WHERE x = 1), count(*) FILTER (WHERE x = 10),
		       count(*) FILTER (WHERE x = 11), count(*) FILTER (WHERE x = 3)
		  FROM rb WHERE proto = '$proto'});
	is($s{1}{rb}, $s{1}{n}, "$proto: the script that rolls back always does");
	is($rows1, 0, "$proto: and leaves no row");
	is($s{2}{n} - $s{2}{rb}, $rows10,
		"$proto: the declared error's script committed exactly its rows");
	is($rows11, 0, "$proto: its rolled-back transactions left none");
	ok($s{2}{rb} > 0 && $s{2}{rb} < $s{2}{n}, "$proto: some of them rolled back");
	is($s{3}{rb}, 0, "$proto: the committing script has no rollback");
	is($s{3}{n}, $rows3, "$proto: and its rows are its transactions");
}

$node->stop;
$remote->stop;
done_testing();
