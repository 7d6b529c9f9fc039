# Identifier variables, :{name}, against a target (the libpq driver): a
# second server ("remote") that asks for a password (scram-sha-256 over
# TCP) and has no pgbenchkit.  A script that draws one of four tables per
# transaction runs over 'prepared' and 'extended', in and out of a
# pipeline, with a connection per run and per transaction: the rows land
# in the tables they name, and the target's log (every Parse, Bind and
# Execute, with the backend's pid) shows 'prepared' preparing each text
# once per connection, named P<script>_<command>_<k>, and 'extended'
# preparing nothing named.  A value that is not an identifier, and a table
# that is not there, fail the run.
#
# Needs the server's bin directory first in PATH and pgbenchkit installed
# into that server.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $password = 'Id3nt-s3cret';

my $remote = PostgreSQL::Test::Cluster->new('remote');
$remote->init(allows_streaming => 0);
$remote->append_conf('postgresql.conf', qq{
listen_addresses = '127.0.0.1'
password_encryption = 'scram-sha-256'
log_line_prefix = '%m [%p] '
});
my $hba = $remote->data_dir . '/pg_hba.conf';
my $rules = slurp_file($hba);
open my $fh, '>', $hba or die "cannot write $hba: $!";
print $fh "host all bench_remote 127.0.0.1/32 scram-sha-256\n", $rules;
close $fh;
$remote->start;
$remote->safe_psql('postgres', qq{
	CREATE ROLE bench_remote LOGIN PASSWORD '$password';
	-- every Parse, Bind and Execute of the target's role in the log
	ALTER ROLE bench_remote SET log_min_duration_statement = 0;
	GRANT CREATE ON SCHEMA public TO bench_remote;
	CREATE TABLE t1 (proto text, n int, k int);
	CREATE TABLE t2 (LIKE t1);
	CREATE TABLE t3 (LIKE t1);
	CREATE TABLE t4 (LIKE t1);
	GRANT ALL ON t1, t2, t3, t4 TO bench_remote;
	CREATE VIEW t_all AS
	  SELECT 1 AS tab, * FROM t1 UNION ALL SELECT 2, * FROM t2
	  UNION ALL SELECT 3, * FROM t3 UNION ALL SELECT 4, * FROM t4;
});
my $rport = $remote->port;

my $node = PostgreSQL::Test::Cluster->new('driver');
$node->init;
$node->start;
$node->safe_psql('postgres', qq{
	CREATE EXTENSION pgbenchkit CASCADE;
	SELECT name FROM bench.add_target('remote', 'host=127.0.0.1 port=$rport dbname=postgres',
	                                  password => '$password', "user" => 'bench_remote');
});

# the target's log from here on: what runs after this adds to it
sub log_mark
{
	return -s $remote->logfile;
}

# the Parse messages of the target's log since MARK: [pid, name, text]
sub parses_since
{
	my ($mark) = @_;
	my $log = slurp_file($remote->logfile, $mark);
	my @parses;
	while ($log =~ /\[(\d+)\] LOG:  duration: [0-9.]+ ms  parse (\S+): ([^\n]*)/g)
	{
		push @parses, [ $1, $2, $3 ];
	}
	return @parses;
}

# the Execute messages of prepared statements named NAME_RE since MARK
# (log_statement = all, which the test clusters have, logs them)
sub executes_since
{
	my ($mark, $name_re) = @_;
	my $log = slurp_file($remote->logfile, $mark);
	my $n = () = $log =~ /LOG:  (?:duration: [0-9.]+ ms  )?execute $name_re: /g;
	return $n;
}

sub run_bench
{
	my ($args) = @_;
	my ($ret, $out, $err) = $node->psql('postgres', "SELECT status, transactions FROM bench.run($args, "
		  . "prewarm => false, progress => '0', target => 'remote')");
	return ($ret, $out, $err);
}

sub tables_of
{
	my ($proto) = @_;
	return $remote->safe_psql('postgres', qq{
		SELECT count(*), count(DISTINCT tab), bool_and(n = tab AND k = 10 * tab)
		  FROM t_all WHERE proto = '$proto'});
}

my $script = q{
\set t random(1, 4)
\set k :t * 10
INSERT INTO t:{t} (proto, n, k) VALUES (:proto, :t, :k);
};

# ---------------------------------------------------------------- prepared
my $mark = log_mark();
my ($ret, $out, $err) = run_bench(qq{script => \$s\$$script\$s\$ , protocol => 'prepared',
	clients => 2, jobs => 2, transactions => 200, random_seed => 7,
	variables => '{"proto": "prepared"}'});
is($out, 'done|400', 'prepared: 2 clients x 200 transactions') or diag($err);
is(tables_of('prepared'), '400|4|t', 'prepared: 400 rows over the four tables, each in the table it names');

my @parses = grep { $_->[1] =~ /^P0_2_/ } parses_since($mark);
my %per_conn;
my %text_of;
my $dup = 0;
my $bad_text = 0;
foreach my $p (@parses)
{
	my ($pid, $name, $text) = @$p;
	$dup++ if $per_conn{$pid}{$name}++;
	$bad_text++ unless $text =~ /^INSERT INTO t([1-4]) \(proto, n, k\) VALUES \(\$1, \$2, \$3\)$/;
	$text_of{"$pid/$name"} //= $text;
	$bad_text++ if $text_of{"$pid/$name"} ne $text;
}
is(scalar(keys %per_conn), 2, 'prepared: the variants were prepared on both connections');
is(join(',', map { scalar(keys %{ $per_conn{$_} }) } sort keys %per_conn), '4,4',
	'prepared: four variants on each connection, one per table');
is($dup, 0, 'prepared: no variant prepared twice on a connection');
is($bad_text, 0, 'prepared: each variant is the statement with its table put in, :names as $n');
is(join(',', sort { $a cmp $b } map { $_->[1] } @parses),
	'P0_2_0,P0_2_0,P0_2_1,P0_2_1,P0_2_2,P0_2_2,P0_2_3,P0_2_3',
	'prepared: named P<script>_<command>_<k>');
is(executes_since($mark, 'P0_2_\d'), 400, 'prepared: the 400 inserts executed by name');

# ---------------------------------------------------------------- extended
$mark = log_mark();
($ret, $out, $err) = run_bench(qq{script => \$s\$$script\$s\$ , protocol => 'extended',
	clients => 2, jobs => 2, transactions => 200, random_seed => 7,
	variables => '{"proto": "extended"}'});
is($out, 'done|400', 'extended: 2 clients x 200 transactions') or diag($err);
is(tables_of('extended'), '400|4|t', 'extended: 400 rows over the four tables, each in the table it names');
is($remote->safe_psql('postgres', q{
	SELECT count(*) FROM (SELECT tab, count(*) FROM t_all WHERE proto = 'prepared' GROUP BY 1
	                      EXCEPT SELECT tab, count(*) FROM t_all WHERE proto = 'extended' GROUP BY 1) d}),
	'0', 'extended: the same tables drawn as with prepared, from the same seed');
@parses = parses_since($mark);
is(scalar(grep { $_->[1] =~ /^P/ } @parses), 0, 'extended: no statement prepared by name');
is(scalar(grep { $_->[1] eq '<unnamed>' && $_->[2] =~ /^INSERT INTO t[1-4] / } @parses), 400,
	'extended: each insert parsed unnamed, with its table');

# ---------------------------------------------------------------- a pipeline
# two commands of a pipeline, each with its variants, their Parse in the
# pipeline before their execution
$mark = log_mark();
my $pipeline = q{
\set t random(1, 4)
\set k :t * 10
\startpipeline
INSERT INTO t:{t} (proto, n, k) VALUES ('pipeline', :t, :k);
INSERT INTO t:{t} (proto, n, k) VALUES ('pipeline', :t, :k);
\endpipeline
};
($ret, $out, $err) = run_bench(qq{script => \$s\$$pipeline\$s\$ , protocol => 'prepared',
	clients => 1, transactions => 100, random_seed => 3});
is($out, 'done|100', 'a pipeline: 100 transactions') or diag($err);
is(tables_of('pipeline'), '200|4|t', 'a pipeline: 200 rows over the four tables');
@parses = grep { $_->[1] =~ /^P0_/ } parses_since($mark);
is(join(',', sort { $a cmp $b } map { $_->[1] } @parses),
	'P0_3_0,P0_3_1,P0_3_2,P0_3_3,P0_4_0,P0_4_1,P0_4_2,P0_4_3',
	'a pipeline: each command\'s four variants prepared once');

# ---------------------------------------------------------------- a connection per transaction
# the variants go with the connection: each new one prepares what it runs
$mark = log_mark();
($ret, $out, $err) = run_bench(qq{script => \$s\$$script\$s\$ , protocol => 'prepared',
	clients => 1, transactions => 6, random_seed => 7, connect => 'per_transaction',
	variables => '{"proto": "per_transaction"}'});
is($out, 'done|6', 'per transaction: 6 transactions') or diag($err);
@parses = grep { $_->[1] =~ /^P0_2_/ } parses_since($mark);
is(scalar(@parses), 6, 'per transaction: a Parse on each connection');
is(join(',', map { $_->[1] } @parses), join(',', ('P0_2_0') x 6), 'each the first variant of its connection');

# ---------------------------------------------------------------- errors
($ret, $out, $err) = run_bench(q{script => $s$SELECT 't 1' AS v \gset
INSERT INTO t:{v} VALUES ('bad');$s$, protocol => 'prepared', transactions => 1});
like($err, qr/invalid value for identifier variable "v": "t 1" \(script "\(script\)", line 2\)/,
	'a value with a space fails the run');
is($node->safe_psql('postgres', q{SELECT status, sqlstate FROM bench.runs ORDER BY id DESC LIMIT 1}),
	'failed|22023', 'with 22023');
($ret, $out, $err) = run_bench(q{script => $s$\set v 1.5
\startpipeline
INSERT INTO t:{v} VALUES ('bad');
\endpipeline$s$, protocol => 'extended', transactions => 1});
like($err, qr/invalid value for identifier variable "v": "1.5"/, 'a double fails the run, in a pipeline too');
($ret, $out, $err) = run_bench(q{script => $s$INSERT INTO t:{nothing} VALUES ('bad');$s$,
	protocol => 'extended', transactions => 1});
like($err, qr/undefined variable "nothing"/, 'a variable never set fails the run');
foreach my $pipe (0, 1)
{
	my $s = $pipe ? "\\startpipeline\nINSERT INTO t:{v} VALUES ('bad');\n\\endpipeline"
	  : "INSERT INTO t:{v} VALUES ('bad');";
	($ret, $out, $err) = run_bench(qq{script => \$s\$\\set v 9\n$s\$s\$, protocol => 'prepared', transactions => 1});
	like($err, qr/relation "t9" does not exist/,
		'a table not there fails the Parse and the run' . ($pipe ? ', in a pipeline' : ''));
}
is($remote->safe_psql('postgres', q{SELECT count(*) FROM t_all WHERE proto = 'bad'}), '0',
	'nothing of the failed runs reached the tables');

$node->stop;
$remote->stop;
done_testing();
