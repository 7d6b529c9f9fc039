# Arrays, lists and loops of the script language against a target (the
# libpq driver): a second server ("remote") that asks for a password
# (scram-sha-256 over TCP) and has no pgbenchkit.  A new-order-like script
# (5 to 15 lines drawn in a \while loop, one IN-list lookup, one multi-row
# INSERT, a row-wise IN-list read back with \garray, each line found with
# array_position) runs with 'simple', 'extended' and 'prepared', and in a
# pipeline: every transaction finds its lines, which are the target's
# rows.  The target's log (every Parse, with the backend's pid) shows
# 'prepared' preparing one statement per length of a list, once per
# connection, named P<script>_<command>_<k>, its elements numbered $n
# after the statement's own variables; 'extended' preparing nothing named;
# 'simple' writing the elements as literals.  A list of arrays of
# different lengths, an empty list and a loop that never ends (stopped by
# the run's duration) end as they do in the server.
#
# Needs the server's bin directory first in PATH and pgbenchkit installed
# into that server.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $password = 'Arr4y-s3cret';

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
	CREATE TABLE arr_item (i_id int PRIMARY KEY, i_name text);
	INSERT INTO arr_item SELECT i, 'item-' || i FROM generate_series(1, 1000) i;
	CREATE TABLE arr_lines (proto text, client int, tx int, line int, item int, qty int, name text);
	CREATE TABLE arr_checks (proto text, client int, tx int, n int, found int, names_ok int, n_rows int);
	GRANT ALL ON arr_item, arr_lines, arr_checks TO bench_remote;
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

sub run_bench
{
	my ($args) = @_;
	my ($ret, $out, $err) = $node->psql('postgres', "SELECT status, transactions FROM bench.run($args, "
		  . "prewarm => false, progress => '0', target => 'remote')");
	return ($ret, $out, $err);
}

# what the transactions of PROTO found: transactions, all found, names right
sub checks_of
{
	my ($proto) = @_;
	return $remote->safe_psql('postgres', qq{
		SELECT count(*), bool_and(found = n AND n_rows = n), bool_and(names_ok = n),
		       min(n) >= 5 AND max(n) <= 15,
		       sum(n) = (SELECT count(*) FROM arr_lines WHERE proto = '$proto')
		  FROM arr_checks WHERE proto = '$proto'});
}

# the script of sql/script_arrays.sql; PIPE puts the insert in a pipeline
sub new_order
{
	my ($pipe) = @_;
	my $insert =
	  q{INSERT INTO arr_lines (proto, client, tx, line, item, qty, name) VALUES :(proto, client_id, tx, line, item, qty, name)[*];};
	$insert = "\\startpipeline\n$insert\n\\endpipeline" if $pipe;
	return q{
\set tx :tx + 1
\unset item
\unset qty
\unset line
\set n random(5, 15)
\set k 1
\while :k <= :n
\set item[:k] (:k - 1) * 60 + random(1, 60)
\set qty[:k] random(1, 10)
\set line[:k] :k
\set k :k + 1
\endwhile
SELECT i_id, i_name FROM arr_item WHERE i_id IN (:item[*]) ORDER BY i_name DESC \garray
\unset name
\set k 1
\while :k <= :n
\set pos array_position(:i_id, :item[:k])
\set name[:k] :i_name[:pos]
\set k :k + 1
\endwhile
} . $insert . q{
SELECT item AS l_item, qty AS l_qty FROM arr_lines
 WHERE (proto, client, tx, item) IN (:(proto, client_id, tx, item)[*])
 ORDER BY qty, item \garray
\set found 0
\set k 1
\while :k <= array_length(:l_item)
\set pos array_position(:item, :l_item[:k])
\if :pos IS NOT NULL
\if :qty[:pos] = :l_qty[:k]
\set found :found + 1
\endif
\endif
\set k :k + 1
\endwhile
SELECT count(*) AS names_ok FROM arr_lines l JOIN arr_item i ON i.i_id = l.item AND i.i_name = l.name
 WHERE proto = :'proto' AND client = :client_id AND tx = :tx \gset
\set rows array_length(:l_item)
INSERT INTO arr_checks VALUES (:'proto', :client_id, :tx, :n, :found, :names_ok, :rows);
};
}

my %lengths;
foreach my $proto ('prepared', 'extended', 'simple', 'pipeline')
{
	my $protocol = $proto eq 'pipeline' ? 'prepared' : $proto;
	my $script = new_order($proto eq 'pipeline');
	my $mark = log_mark();
	my ($ret, $out, $err) = run_bench(qq{script => \$s\$$script\$s\$ , protocol => '$protocol',
		clients => 2, jobs => 2, transactions => 30, random_seed => 5,
		variables => '{"tx": 0, "proto": "$proto"}'});
	is($out, 'done|60', "$proto: 2 clients x 30 transactions") or diag($err);
	is(checks_of($proto), '60|t|t|t|t',
		"$proto: every transaction found its 5 to 15 lines, with their quantities and names, and they are the rows");

	my @parses = parses_since($mark);
	my $lengths = $remote->safe_psql('postgres', qq{
		SELECT string_agg(n::text, ',' ORDER BY client, n) FROM
		  (SELECT DISTINCT client, n FROM arr_checks WHERE proto = '$proto') d});
	$lengths{$proto} = $lengths;
	if ($protocol eq 'prepared')
	{
		# the lookup: one statement per length and connection
		my (%per_conn, %bad);
		foreach my $p (grep { $_->[1] =~ /^P0_\d+_\d+$/ && $_->[2] =~ /^SELECT i_id, i_name FROM arr_item / } @parses)
		{
			my ($pid, $name, $text) = @$p;
			my $n = () = $text =~ /\$\d+/g;
			$per_conn{$pid}{$n}++;
			my $want = join(', ', map { "\$$_" } 1 .. $n);
			$bad{$name} = $text unless $text eq "SELECT i_id, i_name FROM arr_item WHERE i_id IN ($want) ORDER BY i_name DESC";
		}
		is(scalar(keys %bad), 0, "$proto: the lookup's texts have one parameter per item, in order")
		  or diag(explain \%bad);
		my @pids = sort keys %per_conn;
		is(scalar(@pids), 2, "$proto: the lookup prepared on both connections");
		my @per = map { my $pid = $_; join(',', sort { $a <=> $b } keys %{ $per_conn{$pid} }) } @pids;
		my @dups = grep { $_ > 1 } map { values %{ $per_conn{$_} } } @pids;
		is(scalar(@dups), 0, "$proto: each length prepared once per connection");
		my %client_lengths;
		foreach my $row (split /\n/, $remote->safe_psql('postgres', qq{
			SELECT client, string_agg(n::text, ',' ORDER BY n) FROM
			  (SELECT DISTINCT client, n FROM arr_checks WHERE proto = '$proto') d GROUP BY client}))
		{
			my ($c, $l) = split /\|/, $row;
			$client_lengths{$c} = $l;
		}
		is(join(' ', sort @per), join(' ', sort values %client_lengths),
			"$proto: as many statements as each client drew lengths");

		# the row list of the insert: the elements numbered, rows of seven
		my @inserts = grep { $_->[1] =~ /^P0_/ && $_->[2] =~ /^INSERT INTO arr_lines/ } @parses;
		my $rows_ok = grep {
			my $t = $_->[2];
			my @rows = $t =~ /\((\$\d+(?:, \$\d+)*)\)/g;
			my $i = 0;
			my $ok = @rows >= 5;
			foreach my $r (@rows)
			{
				$ok &&= $r eq join(', ', map { '$' . ($i + $_) } 1 .. 7);
				$i += 7;
			}
			$ok;
		} @inserts;
		ok(@inserts > 0 && $rows_ok == @inserts, "$proto: the multi-row insert's texts are rows of seven parameters");
	}
	elsif ($proto eq 'extended')
	{
		is(scalar(grep { $_->[1] =~ /^P/ } @parses), 0, 'extended: no statement prepared by name');
		is(scalar(grep { $_->[1] eq '<unnamed>' && $_->[2] =~ /^SELECT i_id, i_name FROM arr_item WHERE i_id IN \(\$1, \$2, \$3, \$4, \$5/ } @parses),
			60, 'extended: each lookup parsed unnamed, with its parameters');
	}
	else
	{
		my $log = slurp_file($remote->logfile, $mark);
		my $n = () = $log =~ /statement: SELECT i_id, i_name FROM arr_item WHERE i_id IN \('\d+', '\d+', '\d+', '\d+', '\d+'/g;
		is($n, 60, 'simple: each lookup with its elements written as literals');
		is(scalar(grep { $_->[1] =~ /^P/ } @parses), 0, 'simple: nothing prepared');
	}
}
is($lengths{extended}, $lengths{prepared}, 'the same lengths drawn in every protocol from the same seed');
is($remote->safe_psql('postgres', q{
	SELECT count(DISTINCT items) FROM
	  (SELECT proto, array_agg(item ORDER BY client, tx, line) AS items FROM arr_lines GROUP BY proto) a}),
	'1', 'the same items drawn in every protocol');

# ---------------------------------------------------------------- errors
my ($ret, $out, $err) = run_bench(q{script => $s$\set a[1] 1
\set b[1] 1
\set b[2] 2
SELECT :(a, b)[*];$s$, protocol => 'prepared', transactions => 1});
like($err, qr/array variables "a" and "b" of a list differ in length: 1 and 2 \(script "\(script\)", line 4\)/,
	'arrays of different lengths fail the run');
is($node->safe_psql('postgres', q{SELECT status, sqlstate FROM bench.runs ORDER BY id DESC LIMIT 1}),
	'failed|2202E', 'with 2202E');
($ret, $out, $err) = run_bench(q{script => $s$SELECT 1 AS a WHERE false \garray
\startpipeline
SELECT :a[*];
\endpipeline$s$, protocol => 'extended', transactions => 1});
like($err, qr/array variable "a" of a list is empty/, 'an empty list fails the run, in a pipeline too');
($ret, $out, $err) = run_bench(q{script => $s$\set a[1] 1
SELECT :a;$s$, protocol => 'extended', transactions => 1});
like($err, qr/array variable "a" used as a single value/, 'an array as a parameter fails the run');

# a loop of meta-commands alone ends with the run
($ret, $out, $err) = run_bench(q{script => $s$\while true
\endwhile
SELECT 1;$s$, duration => '1 s'});
is($out, 'done|0', 'a loop that never ends stops at the end of the run, its transaction not counted')
  or diag($err);

$node->stop;
$remote->stop;
done_testing();
