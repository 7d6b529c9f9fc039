# pgbench's own scripts give pgbench's results.
#
# The scripts are pgbench's, pasted unchanged: the examples of pgbench's
# documentation (doc/src/sgml/ref/pgbench.sgml of PostgreSQL 17: the \gset
# and \aset example, the \set, \sleep, \setshell and \shell examples, the
# permute() and hash() examples and the built-in TPC-B-like transaction)
# and the scripts pgbench's regression suite runs with -f
# (src/bin/pgbench/t/001_pgbench_with_server.pl of PostgreSQL 17: custom
# scripts, parameters, the expression test with debug(), seeded random
# values, backslash commands, \gset and \aset, pipelines, the table of
# script errors, --exit-on-abort, an incomplete transaction block,
# serialization and deadlock retries; and from PostgreSQL 18's: nested \if
# blocks and COPY).  Where a check needs to see a variable that a
# documentation example sets, a "probe" of debug() calls is appended to
# the example, and the test says so.
#
# Each script runs twice from the same starting state, once with the real
# pgbench and once with bench.run, with the same clients (one thread per
# client), transactions, protocol, seed and variables (pgbench -D,
# variables =>).  Compared: whether each succeeds or fails (and for a
# failure, pgbench's message, as the regression suite expects it, on both
# sides), the number of transactions, the debug() lines (pgbench's stderr
# against our server log), and the contents of the tables the script
# writes, dumped in order after each side (the tables are reset between
# the sides).  Where the server differs from pgbench on purpose, as
# docs/scripts.md says (mistakes refused when the script is defined, \shell
# refused), the test asserts the documented behaviour and says so.
#
# The reference pgbench is found as t/010 finds it: PGBENCHKIT_PGBENCH, else
# the repository's PostgreSQL 18 (.deps/pg18/.../bin/pgbench), else the
# pgbench in PATH.  Its tables come from pgbench -i -s 1 in database "bk"
# (bench.run(script => ...) needs no dataset), and from bench.init('tpcb')
# in database "bki" for a named workload with dataset => 'tpcb'.
#
# Needs the server's bin directory first in PATH and pgbenchkit installed
# into that server.
use strict;
use warnings;

use Cwd qw(abs_path getcwd);
use File::Basename qw(dirname);
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

use lib dirname(abs_path(__FILE__)) . '/lib';
use BenchPgbench qw(pgbench_works reference_pgbench);

# ------------------------------------------------------------------ setup

my $node = PostgreSQL::Test::Cluster->new('pgbench_scripts');
$node->init;
$node->append_conf('postgresql.conf', qq{
max_worker_processes = 32
autovacuum = off
});
$node->start;

my $tmp = PostgreSQL::Test::Utils::tempdir;

my $pgbench = reference_pgbench();
ok(pgbench_works($pgbench), "the reference pgbench runs ($pgbench)");
my $version = `"$pgbench" --version`;
my ($pgbench_major) = $version =~ /(\d+)/;
note "reference: $pgbench: $version";

for my $db ('bk', 'bki')
{
	$node->safe_psql('postgres', "CREATE DATABASE $db");
	$node->safe_psql($db, 'CREATE EXTENSION pgbenchkit CASCADE');
}

# pgbench's tables, made by pgbench -i in "bk" and by bench.init in "bki"
{
	my ($out, $err) = ('', '');
	my $ok = IPC::Run::run([ $pgbench, '-i', '-s', '1', '-q', '-h', $node->host,
			'-p', $node->port, 'bk' ], '>', \$out, '2>', \$err);
	ok($ok, 'pgbench -i -s 1 makes the tables') or diag $err;
}
$node->safe_psql('bki', q{SELECT dataset_id FROM bench.init('tpcb', scale => 1)});

# tables of the regression suite's scripts
$node->safe_psql('bk', q{
CREATE UNLOGGED TABLE seeded_random(seed INT8 NOT NULL, rand TEXT NOT NULL, val INTEGER NOT NULL);
CREATE UNLOGGED TABLE first_client_table (value integer);
CREATE UNLOGGED TABLE xy (x integer, y integer);
CREATE TABLE counter(i int);
});

# ------------------------------------------------------------------ state

# put the pgbench tables back as pgbench -i left them (no script inserts
# accounts, tellers or branches, nor changes their other columns)
my $reset_tpcb = q{
UPDATE pgbench_accounts SET abalance = 0 WHERE abalance <> 0;
UPDATE pgbench_tellers SET tbalance = 0 WHERE tbalance <> 0;
UPDATE pgbench_branches SET bbalance = 0 WHERE bbalance <> 0;
TRUNCATE pgbench_history;
};

# the rows a TPC-B-like transaction changes, in order (mtime left out)
my @dump_tpcb = (
	q{SELECT 'accounts', aid, bid, abalance FROM pgbench_accounts WHERE abalance <> 0 ORDER BY aid},
	q{SELECT 'tellers', tid, bid, tbalance FROM pgbench_tellers WHERE tbalance <> 0 ORDER BY tid},
	q{SELECT 'branches', bid, bbalance FROM pgbench_branches WHERE bbalance <> 0 ORDER BY bid},
	q{SELECT 'history', tid, bid, aid, delta FROM pgbench_history ORDER BY 2, 3, 4, 5});

# lines of a query's result
sub query_lines
{
	my ($db, $sql) = @_;
	my $out = $node->safe_psql($db, $sql);
	return grep { $_ ne '' } split /\n/, $out;
}

# ------------------------------------------------------------------ pgbench

my $nfile = 0;

# the file of a script
sub script_file
{
	my ($script) = @_;
	my $file = "$tmp/script_" . ++$nfile . '.sql';
	open my $fh, '>', $file or die "could not write $file: $!";
	print $fh $script;
	close $fh;
	return $file;
}

# Run a case's script(s) with pgbench: -c clients -j clients -t
# transactions -M protocol --random-seed=seed -D name=value ..., and the
# case's pgbench_args.  Returns { rc, out, err, debug => [lines],
# processed, per_script => [transactions of script 1, ...], latency }.
sub run_pgbench
{
	my ($c) = @_;
	my @scripts = $c->{scripts} ? @{ $c->{scripts} } : ($c->{script});
	my @files;
	for my $i (0 .. $#scripts)
	{
		my $f = script_file($scripts[$i]);
		$f .= '@' . $c->{weights}[$i] if $c->{weights};
		push @files, '-f', $f;
	}
	my $clients = $c->{clients} // 1;
	my @cmd = (
		$pgbench, '-n', '-t', $c->{transactions} // 1,
		'-c', $clients, '-j', $clients, '-M', $c->{protocol} // 'simple',
		'--random-seed=' . ($c->{seed} // 1),
		(map { ('-D', "$_=$c->{vars}{$_}") } sort keys %{ $c->{vars} // {} }),
		@{ $c->{pgbench_args} // [] },
		@files, '-h', $node->host, '-p', $node->port, $c->{db} // 'bk');
	my ($out, $err) = ('', '');
	IPC::Run::run(\@cmd, '>', \$out, '2>', \$err, IPC::Run::timeout(120));
	my %r = (rc => $? >> 8, out => $out, err => $err);
	$r{debug} = [ $err =~ /^(debug\(script=\d+,command=\d+\): .*)$/mg ];
	($r{processed}) = $out =~ /^number of transactions actually processed: (\d+)/m;
	$r{per_script} = [ $out =~ /^SQL script \d+: .*\n - weight: \d+.*\n - (\d+) transactions/mg ];
	($r{latency}) = $out =~ /^latency average = ([\d.]+) ms/m;
	($r{retried}) = $out =~ /^number of transactions retried: (\d+)/m;
	($r{retries}) = $out =~ /^total number of retries: (\d+)/m;
	return \%r;
}

# ------------------------------------------------------------------ bench.run

# a JSON string
sub json_string
{
	my ($s) = @_;
	$s =~ s/(["\\])/\\$1/g;
	return qq{"$s"};
}

# Run a case with bench.run: the same settings as run_pgbench, the
# script as script => (or the case's named workload), max_tries and such
# from ours_args.  Returns { rc, err (psql's stderr), started (a row in
# bench.runs), status, transactions, error, retried, retries, latency,
# per_script, debug => [lines logged meanwhile] }.
sub run_ours
{
	my ($c) = @_;
	my $db = $c->{db} // 'bk';
	my $what;
	if ($c->{workload})
	{
		$what = "workload => '$c->{workload}'";
	}
	else
	{
		die "$c->{name}: the script holds \$s\$" if $c->{script} =~ /\$s\$/;
		$what = "script => \$s\$$c->{script}\$s\$";
	}
	my $vars = '';
	if (%{ $c->{vars} // {} })
	{
		my $json = '{'
		  . join(', ', map { json_string($_) . ': ' . json_string($c->{vars}{$_}) }
			  sort keys %{ $c->{vars} })
		  . '}';
		$json =~ s/'/''/g;
		$vars = ", variables => '$json'";
	}
	my $before = $node->safe_psql($db, 'SELECT coalesce(max(id), 0) FROM bench.runs');
	my $from = -s $node->logfile;
	my ($rc, $stdout, $stderr) = $node->psql($db,
		"SELECT status FROM bench.run($what"
		  . ', clients => ' . ($c->{clients} // 1)
		  . ', transactions => ' . ($c->{transactions} // 1)
		  . ", protocol => '" . ($c->{protocol} // 'simple') . "'"
		  . ', random_seed => ' . ($c->{seed} // 1)
		  . ", prewarm => false, progress => '0'$vars"
		  . ($c->{ours_args} ? ", $c->{ours_args}" : '') . ')',
		timeout => 120,
		extra_params => $c->{verbose} ? [ '-v', 'VERBOSITY=verbose' ] : []);
	my $log = slurp_file($node->logfile, $from);
	my %r = (rc => $rc, err => $stderr,
		debug => [ $log =~ /LOG:  (debug\(script=\d+,command=\d+\): [^\n]*)/g ]);
	my $row = $node->safe_psql($db, qq{
		SELECT id, status, transactions, coalesce(error, ''), retried, retries, latency_avg_ms
		  FROM bench.runs WHERE id > $before ORDER BY id DESC LIMIT 1});
	if ($row ne '')
	{
		$r{started} = 1;
		@r{qw(id status transactions error retried retries latency)} = split /\|/, $row, 7;
		$r{per_script} = [ query_lines($db,
			"SELECT transactions FROM bench.run_scripts WHERE run_id = $r{id} ORDER BY script_no") ];
	}
	return \%r;
}

# ------------------------------------------------------------------ comparing

# Compare two lists of lines: one test, and the differing lines shown.
sub same_lines
{
	my ($ours, $theirs, $name) = @_;
	my @diff;
	my $n = @$ours > @$theirs ? scalar @$ours : scalar @$theirs;
	for my $i (0 .. $n - 1)
	{
		my ($a, $b) = ($ours->[$i] // '(none)', $theirs->[$i] // '(none)');
		push @diff, "line " . ($i + 1) . ":\n  pgbench:    $b\n  pgbenchkit: $a"
		  if $a ne $b;
	}
	ok(@diff == 0, $name)
	  or diag(scalar(@diff) . " of $n lines differ:\n"
		  . join("\n", @diff[ 0 .. ($#diff < 19 ? $#diff : 19) ]));
}

# the debug() values of several clients, as a sorted list: pgbench's
# threads write the prefix and the value in two pieces, which may
# interleave, so only the values are compared (the probes put the client
# into them)
sub debug_values
{
	my ($text) = @_;
	$text =~ s/debug\(script=\d+,command=\d+\): //g;
	return [ sort $text =~ /((?:int|double|boolean) \S+|null)/g ];
}

# the tables a case dumps
sub dump_tables
{
	my ($c) = @_;
	return [ map { query_lines($c->{db} // 'bk', $_) } @{ $c->{dump} // [] } ];
}

# put the case's tables back
sub reset_tables
{
	my ($c) = @_;
	$node->safe_psql($c->{db} // 'bk', $c->{setup}) if $c->{setup};
}

# Run a case both ways and compare.  A case:
#   name, script (or scripts, weights and workload for a named mix), db,
#   clients, transactions, protocol, seed, vars, pgbench_args, ours_args;
#   setup: SQL run before each side, dump: queries whose rows must agree;
#   expect: 'done' (both succeed: same transactions, debug lines and
#     tables), 'failed' (both fail while running), 'refused' (pgbench
#     refuses the script before running it, and so do bench.run and
#     bench.define_workload), 'refused early' (bench.run refuses before
#     any client starts what pgbench finds only when a client runs into it:
#     pgbench_rc says how pgbench ends);
#   errors: the regression suite's patterns for pgbench's message, which
#     our error must match too; pgbench_errors: patterns only pgbench's
#     output must match (its words about its client), our_errors: patterns
#     only ours must match;
#   debug: compare debug() lines (sorted values with several clients),
#     which pgbench must print;
#   verbose: our messages with their SQLSTATE;
#   check: more tests, given the two results; other_count: the numbers of
#     transactions of a failed run are compared there, not here;
#   min_pgbench: the first pgbench that runs the script as its suite
#     expects (\syncpipeline, --exit-on-abort... are 17's).
sub compare_case
{
	my ($c) = @_;
	my $name = $c->{name};
	my $expect = $c->{expect} // 'done';

	# a script of a later suite than the reference pgbench's
	if ($c->{min_pgbench} && $pgbench_major < $c->{min_pgbench})
	{
	  SKIP:
		{
			skip "$name: needs pgbench $c->{min_pgbench} or later", 1;
		}
		return;
	}

	reset_tables($c);
	my $p = run_pgbench($c);
	my $pdump = dump_tables($c);
	reset_tables($c);
	my $o = run_ours($c);
	my $odump = dump_tables($c);
	reset_tables($c);

	my $ostatus = $o->{started} ? $o->{status} : 'refused';
	my $our_msg = $o->{started} ? ($o->{error} // '') : $o->{err};

	# pgbench's side
	if ($expect eq 'done')
	{
		is($p->{rc}, 0, "$name: pgbench succeeds") or diag $p->{err};
	}
	elsif ($expect eq 'failed')
	{
		is($p->{rc}, 2, "$name: pgbench fails while running") or diag $p->{err};
	}
	elsif ($expect eq 'refused')
	{
		is($p->{rc}, 1, "$name: pgbench refuses the script") or diag $p->{err};
	}
	elsif ($expect eq 'refused early')
	{
		is($p->{rc}, $c->{pgbench_rc}, "$name: pgbench ends with status $c->{pgbench_rc}")
		  or diag $p->{err};
	}
	else
	{
		die "$name: unknown expect $expect";
	}
	like($p->{err}, $_, "$name: pgbench says $_")
	  for @{ $c->{errors} // [] }, @{ $c->{pgbench_errors} // [] };
	ok(@{ $p->{debug} } > 0, "$name: pgbench printed debug() lines") if $c->{debug};
	ok(@$pdump > 0, "$name: pgbench's run left rows to compare")
	  if $c->{dump} && !$c->{dump_may_be_empty};

	# ours
	{
		if ($expect eq 'done')
		{
			is($ostatus, 'done', "$name: bench.run succeeds") or diag $o->{err};
			is($o->{transactions}, $p->{processed},
				"$name: as many transactions (" . ($p->{processed} // 'none') . ')');
		}
		elsif ($expect eq 'failed')
		{
			is($ostatus, 'failed', "$name: the run fails") or diag $o->{err};
			# (pgbench --exit-on-abort prints no count)
			is($o->{transactions}, $p->{processed},
				"$name: as many transactions before the failure ($p->{processed})")
			  if defined $p->{processed} && !$c->{other_count};
		}
		elsif ($expect eq 'refused')
		{
			is($ostatus, 'refused', "$name: bench.run refuses the script") or diag $o->{err};
			# and so does bench.define_workload
			my ($rc, $out, $err) = $node->psql($c->{db} // 'bk',
				"SELECT name FROM bench.define_workload('refused', \$s\$$c->{script}\$s\$)");
			isnt($rc, 0, "$name: bench.define_workload refuses it") or diag $out;
			$node->safe_psql($c->{db} // 'bk',
				q{SELECT bench.drop_workload('refused', if_exists => true)})
			  if $rc == 0;
		}
		else
		{
			is($ostatus, 'refused', "$name: bench.run refuses the script before any client starts")
			  or diag $o->{err};
		}

		like($our_msg, $_, "$name: bench.run says $_ too") for @{ $c->{errors} // [] };
		like($our_msg, $_, "$name: bench.run says $_") for @{ $c->{our_errors} // [] };

		if ($c->{debug})
		{
			my ($mine, $theirs) = ($c->{clients} // 1) > 1
			  ? (debug_values(join("\n", @{ $o->{debug} })), debug_values($p->{err}))
			  : ($o->{debug}, $p->{debug});
			same_lines($mine, $theirs, "$name: the same debug() lines");
		}
		same_lines($odump, $pdump, "$name: the same table contents") if $c->{dump};
		$c->{check}->($p, $o) if $c->{check};
	}
	return ($p, $o);
}

# ------------------------------------------------------------------ the documentation

# The \gset and \aset example.  It needs :aid and :delta; as pasted, the
# account's balance must be the same, and with a probe appended, the
# variables the example says it sets.
my $doc_gset = q{UPDATE pgbench_accounts
  SET abalance = abalance + :delta
  WHERE aid = :aid
  RETURNING abalance \gset
-- compound of two queries
SELECT 1 \;
SELECT 2 AS two, 3 AS three \gset p_
SELECT 4 AS four \; SELECT 5 AS five \aset
};
compare_case({
	name => 'doc \gset and \aset example',
	script => $doc_gset, protocol => 'simple', transactions => 3,
	vars => { aid => '3', delta => '-7' },
	setup => $reset_tpcb, dump => \@dump_tpcb });
compare_case({
	name => 'doc \gset and \aset example, with a probe',
	script => $doc_gset . q{\set probe debug(:abalance)
\set probe debug(:p_two)
\set probe debug(:p_three)
\set probe debug(:four)
\set probe debug(:five)
}, protocol => 'simple', transactions => 3,
	vars => { aid => '99999', delta => '5000' },
	setup => $reset_tpcb, dump => \@dump_tpcb, debug => 1 });

# With the extended and prepared protocols pgbench sends the \; compound
# as one statement to prepare, which the server refuses: the first
# transaction's UPDATE is done, then the client fails.  bench.run refuses
# such a run before any client starts, with the server's words
# (docs/scripts.md), so the tables are not compared.
for my $protocol (qw(extended prepared))
{
	compare_case({
		name => "doc \\gset and \\aset example ($protocol)",
		script => $doc_gset, protocol => $protocol, transactions => 3,
		vars => { aid => '3', delta => '-7' },
		setup => $reset_tpcb,
		expect => 'refused early', pgbench_rc => 2,
		errors => [qr{cannot insert multiple commands into a prepared statement}] });
}

# The \set examples, with a probe (they run no SQL): :x and :y given
my $doc_set = q{\set ntellers 10 * :scale
\set aid (1021 * random(1, 100000 * :scale)) % \
           (100000 * :scale) + 1
\set divx CASE WHEN :x <> 0 THEN :y/:x ELSE NULL END
};
my $set_probe = q{\set probe debug(:ntellers)
\set probe debug(:aid)
\set probe debug(:divx)
};
for my $x ('3', '0')
{
	compare_case({
		name => "doc \\set examples (x = $x), with a probe",
		script => $doc_set . $set_probe, transactions => 5, seed => 7,
		vars => { x => $x, y => '10' }, debug => 1 });
}

# The \sleep example, and the regression suite's \sleep 2ms (which the
# suite runs under --rate and --latency-limit, here alone): each
# transaction lasts at least as long on both sides
for my $case ([ 'doc \sleep example', q{\sleep 10 ms
}, 10 ], [ 'suite 001_pgbench_sleep', q{\sleep 2ms}, 2 ])
{
	my ($name, $script, $ms) = @$case;
	compare_case({
		name => $name, script => $script, transactions => 3,
		check => sub {
			my ($p, $o) = @_;
			cmp_ok($p->{latency} // 0, '>=', $ms, "$name: pgbench's transactions last $ms ms or more");
			cmp_ok($o->{latency} // 0, '>=', $ms, "$name: so do bench.run's");
		} });
}

# The \setshell and \shell examples: pgbench runs them and fails (no such
# command, no :variable); a client in the server runs no shell command, so
# bench.run refuses them when they are defined (docs/scripts.md), with
# SQLSTATE 0A000
for my $case (
	[ '\setshell', q{\setshell variable_to_be_assigned command literal_argument :variable ::literal_starting_with_colon
} ],
	[ '\shell', q{\shell command literal_argument :variable ::literal_starting_with_colon
} ])
{
	my ($what, $script) = @$case;
	compare_case({
		name => "doc $what example", script => $script,
		expect => 'refused early', pgbench_rc => 2, verbose => 1,
		our_errors => [qr/ERROR:  0A000: .*\Q$what\E\b/] });
}

# The permute() and hash() examples, with a probe that puts the client
# into each value: three clients, each its own generator
my $client_probe = q{\set probe debug(:client_id * 10000000000 + :k)
};
compare_case({
	name => 'doc permute() example, with a probe',
	script => q{\set size 1000000
\set r random_zipfian(1, :size, 1.07)
\set k 1 + permute(:r, :size)
} . $client_probe,
	clients => 3, transactions => 4, seed => 11, debug => 1 });
compare_case({
	name => 'doc permute() example with seeds, with a probe',
	script => q{\set k1 1 + permute(:r, :size, :default_seed + 123)
\set k2 1 + permute(:r, :size, :default_seed + 321)
} . q{\set probe debug(:client_id * 10000000000 + :k1)
\set probe debug(:client_id * 10000000000 + :k2)
},
	vars => { r => '4242', size => '1000000' },
	clients => 3, transactions => 2, seed => 12, debug => 1 });
compare_case({
	name => 'doc hash() example, with a probe',
	script => q{\set size 1000000
\set r random_zipfian(1, 100 * :size, 1.07)
\set k 1 + abs(hash(:r)) % :size
} . $client_probe,
	clients => 3, transactions => 4, seed => 13, debug => 1 });

# The built-in TPC-B-like transaction, in every protocol, two clients:
# the same rows changed by the same amounts, the same history
my $tpcb = q{\set aid random(1, 100000 * :scale)
\set bid random(1, 1 * :scale)
\set tid random(1, 10 * :scale)
\set delta random(-5000, 5000)
BEGIN;
UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE tid = :tid;
UPDATE pgbench_branches SET bbalance = bbalance + :delta WHERE bid = :bid;
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);
END;
};
my $seed = 20;
for my $protocol (qw(simple extended prepared))
{
	compare_case({
		name => "doc TPC-B-like transaction ($protocol)",
		script => $tpcb, protocol => $protocol, clients => 2, transactions => 10,
		seed => $seed++, setup => $reset_tpcb, dump => \@dump_tpcb });
}

# ------------------------------------------------------------------ the regression suite

# Custom scripts 1 and 2, weights 1 and 2 (pgbench -f ...@1 -f ...@2):
# here a named workload of the two on bench.init's dataset.  The same seed
# chooses the same scripts: each script runs as many transactions.
my @custom12 = (q{-- select only
\set aid random(1, :scale * 100000)
SELECT abalance::INTEGER AS balance
  FROM pgbench_accounts
  WHERE aid=:aid;
}, q{-- special variables
BEGIN;
\set foo 1
-- cast are needed for typing under -M prepared
SELECT :foo::INT + :scale::INT * :client_id::INT AS bla;
COMMIT;
});
$node->safe_psql('bki', q{SELECT name FROM bench.define_workload('custom12', ARRAY[$s$}
	  . $custom12[0] . q{$s$, $s$} . $custom12[1] . q{$s$], '{1,2}', dataset => 'tpcb')});
compare_case({
	name => 'suite 001_pgbench_custom_script_1@1 and _2@2',
	db => 'bki', scripts => \@custom12, weights => [ 1, 2 ], workload => 'custom12',
	protocol => 'prepared', transactions => 100, seed => 31,
	check => sub {
		my ($p, $o) = @_;
		is(scalar @{ $p->{per_script} }, 2, 'custom scripts 1 and 2: pgbench reports both scripts');
		is_deeply($o->{per_script}, $p->{per_script},
			'custom scripts 1 and 2: each script runs as many transactions');
	} });

# The same named workload on pgbench -i's tables: with dataset => 'tpcb'
# a run needs bench.init's dataset (SQLSTATE 42P01), which
# script => ... (every other case here) does not
$node->safe_psql('bk', q{SELECT name FROM bench.define_workload('custom12', ARRAY[$s$}
	  . $custom12[0] . q{$s$, $s$} . $custom12[1] . q{$s$], '{1,2}', dataset => 'tpcb')});
{
	my ($rc, $out, $err) = $node->psql('bk', q{SELECT status FROM bench.run('custom12',
		transactions => 1, prewarm => false, progress => '0')}, extra_params => [ '-v', 'VERBOSITY=verbose' ]);
	isnt($rc, 0, 'custom scripts 1 and 2 with dataset tpcb: no run on pgbench -i\'s tables');
	like($err, qr/ERROR:  42P01: table "public.pgbench_accounts" was not loaded by bench.init/,
		'custom scripts 1 and 2 with dataset tpcb: bench.init\'s dataset is needed');
}

my $custom34 = q{-- select only variant
\set aid random(1, :scale * 100000)
BEGIN;
SELECT abalance::INTEGER AS balance
  FROM pgbench_accounts
  WHERE aid=:aid;
COMMIT;
};
compare_case({
	name => 'suite 001_pgbench_custom_script_3',
	script => $custom34, protocol => 'simple', transactions => 10 });
compare_case({
	name => 'suite 001_pgbench_custom_script_4',
	script => $custom34, protocol => 'extended', clients => 2, transactions => 10 });

# Parameters (the suite checks the server's log of them; here the runs)
my $param_json = q[select '{ invalid ' as value \gset
select $$'Valame Dios!' dijo Sancho; 'no le dije yo a vuestra merced que mirase bien lo que hacia?'$$ as long \gset
select column1::jsonb from (values (:value), (:long)) as q;
];
compare_case({
	name => 'suite 001_param_1 (and 3, 5)', script => $param_json, protocol => 'prepared',
	expect => 'failed', errors => [qr{invalid input syntax for type json}] });
# :two is never set: pgbench sends it as a NULL parameter, and the
# division by zero fails the run
compare_case({
	name => 'suite 001_param_2 (and 4)', script => q{select '1' as one \gset
SELECT 1 / (random() / 2)::int, :one::int, :two::int;
}, protocol => 'prepared',
	expect => 'failed', errors => [qr{division by zero}] });
compare_case({
	name => 'suite 001_param_6', script => q{select 42 as value1, '1a' as value2 \gset
select :value1::smallint, :value2::smallint;
}, protocol => 'prepared',
	expect => 'failed', errors => [qr{invalid input syntax for type smallint: "1a"}] });

# The expression test: every debug() line the same
compare_case({
	name => 'suite 001_pgbench_expressions',
	seed => 5432,
	vars => { foo => '-10.1', bla => 'false', i => '+3', n => 'null', t => 't', f => 'of', d => '1.0' },
	debug => 1,
	script => q{-- integer functions
\set i1 debug(random(10, 19))
\set i2 debug(random_exponential(100, 199, 10.0))
\set i3 debug(random_gaussian(1000, 1999, 10.0))
\set i4 debug(abs(-4))
\set i5 debug(greatest(5, 4, 3, 2))
\set i6 debug(11 + least(-5, -4, -3, -2))
\set i7 debug(int(7.3))
-- integer arithmetic and bit-wise operators
\set i8 debug(17 / (4|1) + ( 4 + (7 >> 2)))
\set i9 debug(- (3 * 4 - (-(~ 1) + -(~ 0))) / -1 + 3 % -1)
\set ia debug(10 + (0 + 0 * 0 - 0 / 1))
\set ib debug(:ia + :scale)
\set ic debug(64 % (((2 + 1 * 2 + (1 # 2) | 4 * (2 & 11)) - (1 << 2)) + 2))
-- double functions and operators
\set d1 debug(sqrt(+1.5 * 2.0) * abs(-0.8E1))
\set d2 debug(double(1 + 1) * (-75.0 / :foo))
\set pi debug(pi() * 4.9)
\set d4 debug(greatest(4, 2, -1.17) * 4.0 * Ln(Exp(1.0)))
\set d5 debug(least(-5.18, .0E0, 1.0/0) * -3.3)
-- reset variables
\set i1 0
\set d1 false
-- yet another integer function
\set id debug(random_zipfian(1, 9, 1.3))
--- pow and power
\set poweri debug(pow(-3,3))
\set powerd debug(pow(2.0,10))
\set poweriz debug(pow(0,0))
\set powerdz debug(pow(0.0,0.0))
\set powernegi debug(pow(-2,-3))
\set powernegd debug(pow(-2.0,-3.0))
\set powernegd2 debug(power(-5.0,-5.0))
\set powerov debug(pow(9223372036854775807, 2))
\set powerov2 debug(pow(10,30))
-- comparisons and logical operations
\set c0 debug(1.0 = 0.0 and 1.0 != 0.0)
\set c1 debug(0 = 1 Or 1.0 = 1)
\set c4 debug(case when 0 < 1 then 32 else 0 end)
\set c5 debug(case when true then 33 else 0 end)
\set c6 debug(case when false THEN -1 when 1 = 1 then 13 + 19 + 2.0 end )
\set c7 debug(case when (1 > 0) and (1 >= 0) and (0 < 1) and (0 <= 1) and (0 != 1) and (0 = 0) and (0 <> 1) then 35 else 0 end)
\set c8 debug(CASE \
                WHEN (1.0 > 0.0) AND (1.0 >= 0.0) AND (0.0 < 1.0) AND (0.0 <= 1.0) AND \
                     (0.0 != 1.0) AND (0.0 = 0.0) AND (0.0 <> 1.0) AND (0.0 = 0.0) \
                  THEN 36 \
                  ELSE 0 \
              END)
\set c9 debug(CASE WHEN NOT FALSE THEN 3 * 12.3333334 END)
\set ca debug(case when false then 0 when 1-1 <> 0 then 1 else 38 end)
\set cb debug(10 + mod(13 * 7 + 12, 13) - mod(-19 * 11 - 17, 19))
\set cc debug(NOT (0 > 1) AND (1 <= 1) AND NOT (0 >= 1) AND (0 < 1) AND \
    NOT (false and true) AND (false OR TRUE) AND (NOT :f) AND (NOT FALSE) AND \
    NOT (NOT TRUE))
-- NULL value and associated operators
\set n0 debug(NULL + NULL * exp(NULL))
\set n1 debug(:n0)
\set n2 debug(NOT (:n0 IS NOT NULL OR :d1 IS NULL))
\set n3 debug(:n0 IS NULL AND :d1 IS NOT NULL AND :d1 NOTNULL)
\set n4 debug(:n0 ISNULL AND NOT :n0 IS TRUE AND :n0 IS NOT FALSE)
\set n5 debug(CASE WHEN :n IS NULL THEN 46 ELSE NULL END)
-- use a variables of all types
\set n6 debug(:n IS NULL AND NOT :f AND :t)
-- conditional truth
\set cs debug(CASE WHEN 1 THEN TRUE END AND CASE WHEN 1.0 THEN TRUE END AND CASE WHEN :n THEN NULL ELSE TRUE END)
-- hash functions
\set h0 debug(hash(10, 5432))
\set h1 debug(:h0 = hash_murmur2(10, 5432))
\set h3 debug(hash_fnv1a(10, 5432))
\set h4 debug(hash(10))
\set h5 debug(hash(10) = hash(10, :default_seed))
-- lazy evaluation
\set zy 0
\set yz debug(case when :zy = 0 then -1 else (1 / :zy) end)
\set yz debug(case when :zy = 0 or (1 / :zy) < 0 then -1 else (1 / :zy) end)
\set yz debug(case when :zy > 0 and (1 / :zy) < 0 then (1 / :zy) else 1 end)
-- substitute variables of all possible types
\set v0 NULL
\set v1 TRUE
\set v2 5432
\set v3 -54.21E-2
SELECT :v0, :v1, :v2, :v3;
-- if tests
\set nope 0
\if 1 > 0
\set id debug(65)
\elif 0
\set nope 1
\else
\set nope 1
\endif
\if 1 < 0
\set nope 1
\elif 1 > 0
\set ie debug(74)
\else
\set nope 1
\endif
\if 1 < 0
\set nope 1
\elif 1 < 0
\set nope 1
\else
\set if debug(83)
\endif
\if 1 = 1
\set ig debug(86)
\elif 0
\set nope 1
\endif
\if 1 = 0
\set nope 1
\elif 1 <> 0
\set ih debug(93)
\endif
-- must be zero if false branches where skipped
\set nope debug(:nope)
-- check automatic variables
\set sc debug(:scale)
\set ci debug(:client_id)
\set rs debug(:random_seed)
-- minint constant parsing
\set min debug(-9223372036854775808)
\set max debug(-(:min + 1))
-- parametric pseudorandom permutation function
\set t debug(permute(0, 2) + permute(1, 2) = 1)
\set t debug(permute(0, 3) + permute(1, 3) + permute(2, 3) = 3)
\set t debug(permute(0, 4) + permute(1, 4) + permute(2, 4) + permute(3, 4) = 6)
\set t debug(permute(0, 5) + permute(1, 5) + permute(2, 5) + permute(3, 5) + permute(4, 5) = 10)
\set t debug(permute(0, 16) + permute(1, 16) + permute(2, 16) + permute(3, 16) + \
             permute(4, 16) + permute(5, 16) + permute(6, 16) + permute(7, 16) + \
             permute(8, 16) + permute(9, 16) + permute(10, 16) + permute(11, 16) + \
             permute(12, 16) + permute(13, 16) + permute(14, 16) + permute(15, 16) = 120)
-- random sanity checks
\set size random(2, 1000)
\set v random(0, :size - 1)
\set p permute(:v, :size)
\set t debug(0 <= :p and :p < :size and :p = permute(:v + :size, :size) and :p <> permute(:v + 1, :size))
-- actual values
\set t debug(permute(:v, 1) = 0)
\set t debug(permute(0, 2, 5431) = 0 and permute(1, 2, 5431) = 1 and \
             permute(0, 2, 5433) = 1 and permute(1, 2, 5433) = 0)
-- check permute's portability across architectures
\set size debug(:max - 10)
\set t debug(permute(:size-1, :size, 5432) = 520382784483822430 and \
             permute(:size-2, :size, 5432) = 1143715004660802862 and \
             permute(:size-3, :size, 5432) = 447293596416496998 and \
             permute(:size-4, :size, 5432) = 916527772266572956 and \
             permute(:size-5, :size, 5432) = 2763809008686028849 and \
             permute(:size-6, :size, 5432) = 8648551549198294572 and \
             permute(:size-7, :size, 5432) = 4542876852200565125)
} });

# Seeded random values, written to a table
compare_case({
	name => 'suite 001_pgbench_random_seed',
	seed => 123456789,
	setup => 'TRUNCATE seeded_random',
	dump => [q{SELECT seed, rand, val FROM seeded_random ORDER BY 1, 2, 3}],
	script => q{-- test random functions
\set ur random(1000, 1999)
\set er random_exponential(2000, 2999, 2.0)
\set gr random_gaussian(3000, 3999, 3.0)
\set zr random_zipfian(4000, 4999, 1.5)
INSERT INTO seeded_random(seed, rand, val) VALUES
  (:random_seed, 'uniform', :ur),
  (:random_seed, 'exponential', :er),
  (:random_seed, 'gaussian', :gr),
  (:random_seed, 'zipfian', :zr);
} });

# Backslash commands: pgbench runs its \setshell and \shell; bench.run
# refuses them when the script is defined (docs/scripts.md: a client in
# the server runs no shell command)
compare_case({
	name => 'suite 001_pgbench_backslash_commands',
	expect => 'refused early', pgbench_rc => 0, our_errors => [qr/setshell/],
	script => q{-- run set
\set zero 0
\set one 1.0
-- sleep
\sleep :one ms
\sleep 100 us
\sleep 0 s
\sleep :zero
-- setshell and continuation
\setshell another_one\
  echo \
    :one
\set n debug(:another_one)
-- shell
\shell echo shell-echo-output
} });

# \gset and \aset
compare_case({
	name => 'suite 001_pgbench_gset', debug => 1,
	script => q{-- test gset
-- no columns
SELECT \gset
-- one value
SELECT 0 AS i0 \gset
\set i debug(:i0)
-- two values
SELECT 1 AS i1, 2 AS i2 \gset
\set i debug(:i1)
\set i debug(:i2)
-- with prefix
SELECT 3 AS i3 \gset x_
\set i debug(:x_i3)
-- overwrite existing variable
SELECT 0 AS i4, 4 AS i4 \gset
\set i debug(:i4)
-- work on the last SQL command under \;
\; \; SELECT 0 AS i5 \; SELECT 5 AS i5 \; \; \gset
\set i debug(:i5)
} });
compare_case({
	name => 'suite 001_pgbench_gset_two_rows', expect => 'failed',
	errors => [qr{expected one row, got 2\b}],
	script => q{
SELECT 5432 AS fail UNION SELECT 5433 ORDER BY 1 \gset
} });
compare_case({
	name => 'suite 001_pgbench_aset', debug => 1,
	script => q{
-- test aset, which applies to a combined query
\; SELECT 6 AS i6 \; SELECT 7 AS i7 \; \aset
-- unless it returns more than one row, last is kept
SELECT 8 AS i6 UNION SELECT 9 ORDER BY 1 DESC \aset
\set i debug(:i6)
\set i debug(:i7)
} });
compare_case({
	name => 'suite 001_pgbench_aset_empty', expect => 'failed',
	errors => [qr{undefined variable \"i8\"}],
	script => q{
-- empty result
\; SELECT 5432 AS i8 WHERE FALSE \; \aset
\set i debug(:i8)
} });

# Pipelines that work
compare_case({
	name => 'suite 001_pgbench_pipeline', protocol => 'extended',
	script => q{
-- test startpipeline
\startpipeline
} . "select 1;\n" x 10 . q{
\endpipeline
} });
compare_case({
	name => 'suite 001_pgbench_pipeline_sync', protocol => 'extended', min_pgbench => 17,
	script => q{
-- test startpipeline
\startpipeline
select 1;
\syncpipeline
\syncpipeline
select 2;
\syncpipeline
select 3;
\endpipeline
} });
compare_case({
	name => 'suite 001_pgbench_pipeline_prep', protocol => 'prepared',
	script => q{
-- test startpipeline
\startpipeline
\endpipeline
\startpipeline
} . "select 1;\n" x 10 . q{
\endpipeline
} });
compare_case({
	name => 'suite 001_pgbench_pipeline_serializable', protocol => 'prepared',
	clients => 4, transactions => 10,
	script => q{
-- test startpipeline with serializable
\startpipeline
BEGIN ISOLATION LEVEL SERIALIZABLE;
} . "select 1;\n" x 10 . q{
END;
\endpipeline
} });

# Pipelines that pgbench's clients fail on: bench.run refuses them when
# they are defined (docs/scripts.md: nested pipelines, \gset in one, a
# pipeline not closed in the script that opens it; and, the same way, an
# \endpipeline with no pipeline started)
compare_case({
	name => 'suite 001_pgbench_pipeline_2', protocol => 'extended',
	expect => 'refused early', pgbench_rc => 2, errors => [qr{already in pipeline mode}],
	script => q{
-- startpipeline twice
\startpipeline
\startpipeline
} });
compare_case({
	name => 'suite 001_pgbench_pipeline_3', protocol => 'extended',
	expect => 'refused early', pgbench_rc => 2, errors => [qr{not in pipeline mode}],
	script => q{
-- pipeline not started
\endpipeline
} });
compare_case({
	name => 'suite 001_pgbench_pipeline_4', protocol => 'extended',
	expect => 'refused early', pgbench_rc => 2, errors => [qr{gset is not allowed in pipeline mode}],
	script => q{
\startpipeline
select 1 \gset f
\endpipeline
} });
compare_case({
	name => 'suite 001_pgbench_pipeline_5', protocol => 'extended', min_pgbench => 17,
	expect => 'refused early', pgbench_rc => 2,
	errors => [qr{reached with pipeline open}],
	pgbench_errors => [qr{end of script reached with pipeline open}],
	script => q{
-- startpipeline only with single transaction
\startpipeline
} });
compare_case({
	name => 'suite 001_pgbench_pipeline_6', protocol => 'extended', transactions => 2, min_pgbench => 17,
	expect => 'refused early', pgbench_rc => 2,
	errors => [qr{reached with pipeline open}],
	pgbench_errors => [qr{end of script reached with pipeline open}],
	script => q{
-- startpipeline only
\startpipeline
} });

# ------------------------------------------------------------------ the suite's table of errors

# Run as the suite runs them: -n -t 1 -D ... -M prepared.  Status 1 in
# pgbench (the script is refused) is a refusal here too; status 2 (a client
# fails) fails the run, except where docs/scripts.md says bench.run
# refuses the script before any client starts (%error_cases below).
my %error_defines = (
	foo => 'bla', null => 'null', true => 'true', one => '1', zero => '0.0',
	badtrue => 'trueXXX', maxint => '9223372036854775807',
	minint => '-9223372036854775808');

# the suite's table, as it is there
my @errors = (

	# [ test name, expected status, expected stderr, script ]
	# SQL
	[
		'sql syntax error',
		2,
		[
			qr{ERROR:  syntax error},
			qr{prepared statement .* does not exist}
		],
		q{-- SQL syntax error
    SELECT 1 + ;
}
	],
	[
		'sql too many args', 1,
		[qr{statement has too many arguments.*\b255\b}],
		q{-- MAX_ARGS=256 for prepared
\set i 0
SELECT LEAST(} . join(', ', (':i') x 256) . q{)}
	],

	# SHELL
	[
		'shell bad command', 2,
		[qr{\(shell\) .* meta-command failed}], q{\shell no-such-command}
	],
	[
		'shell undefined variable', 2,
		[qr{undefined variable ":nosuchvariable"}],
		q{-- undefined variable in shell
\shell echo ::foo :nosuchvariable
}
	],
	[ 'shell missing command', 1, [qr{missing command }], q{\shell} ],
	[
		'shell too many args', 1, [qr{too many arguments in command "shell"}],
		q{-- 256 arguments to \shell
\shell echo } . join(' ', ('arg') x 255)
	],

	# SET
	[
		'set syntax error', 1,
		[qr{syntax error in command "set"}], q{\set i 1 +}
	],
	[
		'set no such function', 1,
		[qr{unexpected function name}], q{\set i noSuchFunction()}
	],
	[
		'set invalid variable name', 2,
		[qr{invalid variable name}], q{\set . 1}
	],
	[ 'set division by zero', 2, [qr{division by zero}], q{\set i 1/0} ],
	[
		'set undefined variable',
		2,
		[qr{undefined variable "nosuchvariable"}],
		q{\set i :nosuchvariable}
	],
	[ 'set unexpected char', 1, [qr{unexpected character .;.}], q{\set i ;} ],
	[
		'set too many args',
		2,
		[qr{too many function arguments}],
		q{\set i least(0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16)}
	],
	[
		'set empty random range', 2,
		[qr{empty range given to random}], q{\set i random(5,3)}
	],
	[
		'set random range too large', 2,
		[qr{random range is too large}], q{\set i random(:minint, :maxint)}
	],
	[
		'set gaussian param too small',
		2,
		[qr{gaussian param.* at least 2}],
		q{\set i random_gaussian(0, 10, 1.0)}
	],
	[
		'set exponential param greater 0',
		2,
		[qr{exponential parameter must be greater }],
		q{\set i random_exponential(0, 10, 0.0)}
	],
	[
		'set zipfian param to 1',
		2,
		[qr{zipfian parameter must be in range \[1\.001, 1000\]}],
		q{\set i random_zipfian(0, 10, 1)}
	],
	[
		'set zipfian param too large',
		2,
		[qr{zipfian parameter must be in range \[1\.001, 1000\]}],
		q{\set i random_zipfian(0, 10, 1000000)}
	],
	[
		'set non numeric value', 2,
		[qr{malformed variable "foo" value: "bla"}], q{\set i :foo + 1}
	],
	[ 'set no expression', 1, [qr{syntax error}], q{\set i} ],
	[ 'set missing argument', 1, [qr{missing argument}i], q{\set} ],
	[
		'set not a bool', 2,
		[qr{cannot coerce double to boolean}], q{\set b NOT 0.0}
	],
	[
		'set not an int', 2,
		[qr{cannot coerce boolean to int}], q{\set i TRUE + 2}
	],
	[
		'set not a double', 2,
		[qr{cannot coerce boolean to double}], q{\set d ln(TRUE)}
	],
	[
		'set case error',
		1,
		[qr{syntax error in command "set"}],
		q{\set i CASE TRUE THEN 1 ELSE 0 END}
	],
	[
		'set random error', 2,
		[qr{cannot coerce boolean to int}], q{\set b random(FALSE, TRUE)}
	],
	[
		'set number of args mismatch', 1,
		[qr{unexpected number of arguments}], q{\set d ln(1.0, 2.0))}
	],
	[
		'set at least one arg', 1,
		[qr{at least one argument expected}], q{\set i greatest())}
	],

	# SET: ARITHMETIC OVERFLOW DETECTION
	[
		'set double to int overflow', 2,
		[qr{double to int overflow for 100}], q{\set i int(1E32)}
	],
	[
		'set bigint add overflow', 2,
		[qr{int add out}], q{\set i (1<<62) + (1<<62)}
	],
	[
		'set bigint sub overflow',
		2, [qr{int sub out}], q{\set i 0 - (1<<62) - (1<<62) - (1<<62)}
	],
	[
		'set bigint mul overflow', 2,
		[qr{int mul out}], q{\set i 2 * (1<<62)}
	],
	[
		'set bigint div out of range', 2,
		[qr{bigint div out of range}], q{\set i :minint / -1}
	],

	# SETSHELL
	[
		'setshell not an int', 2,
		[qr{command must return an integer}], q{\setshell i echo -n one}
	],
	[ 'setshell missing arg', 1, [qr{missing argument }], q{\setshell var} ],
	[
		'setshell no such command', 2,
		[qr{could not read result }], q{\setshell var no-such-command}
	],

	# SLEEP
	[
		'sleep undefined variable', 2,
		[qr{sleep: undefined variable}], q{\sleep :nosuchvariable}
	],
	[
		'sleep too many args', 1,
		[qr{too many arguments}], q{\sleep too many args}
	],
	[
		'sleep missing arg', 1,
		[ qr{missing argument}, qr{\\sleep} ], q{\sleep}
	],
	[
		'sleep unknown unit', 1,
		[qr{unrecognized time unit}], q{\sleep 1 week}
	],

	# MISC
	[
		'misc invalid backslash command', 1,
		[qr{invalid command .* "nosuchcommand"}], q{\nosuchcommand}
	],
	[ 'misc empty script', 1, [qr{empty command list for script}], q{} ],
	[
		'bad boolean', 2,
		[qr{malformed variable.*trueXXX}], q{\set b :badtrue or true}
	],
	[
		'invalid permute size',
		2,
		[qr{permute size parameter must be greater than zero}],
		q{\set i permute(0, 0)}
	],

	# GSET
	[
		'gset no row', 2,
		[qr{expected one row, got 0\b}], q{SELECT WHERE FALSE \gset}
	],
	[ 'gset alone', 1, [qr{gset must follow an SQL command}], q{\gset} ],
	[
		'gset no SQL', 1,
		[qr{gset must follow an SQL command}], q{\set i +1
\gset}
	],
	[
		'gset too many arguments', 1,
		[qr{too many arguments}], q{SELECT 1 \gset a b}
	],
	[
		'gset after gset', 1,
		[qr{gset must follow an SQL command}], q{SELECT 1 AS i \gset
\gset}
	],
	[
		'gset non SELECT',
		2,
		[qr{expected one row, got 0}],
		q{DROP TABLE IF EXISTS no_such_table \gset}
	],
	[
		'gset bad default name', 2,
		[qr{error storing into variable \?column\?}], q{SELECT 1 \gset}
	],
	[
		'gset bad name',
		2,
		[qr{error storing into variable bad name!}],
		q{SELECT 1 AS "bad name!" \gset}
	],);

# Where bench.run differs, and why:
#   'refused early': docs/scripts.md says bench.run refuses before any
#     client starts what pgbench's client fails on: \shell and \setshell
#     (no shell command in the server), an invalid variable name in \set
#     (refused when the script is defined), a statement that does not
#     parse (statements are checked when the clients start), and more than
#     255 variables in a statement with the prepared protocol;
#   pgbench_errors: the suite's patterns for pgbench's words about its
#     client, or for the second of its two lines; errors then holds what
#     both say;
my %error_cases = (
	'sql syntax error' => {
		expect => 'refused early',
		pgbench_errors => [qr{prepared statement .* does not exist}] },
	# pgbench refuses it when it reads the script, bench.run when the run
	# starts (a definition does not know the protocol yet)
	'sql too many args' => { expect => 'refused early' },
	'set invalid variable name' => { expect => 'refused early' },
	# pgbench: sleep: undefined variable "nosuchvariable"
	'sleep undefined variable' => {
		pgbench_errors => [qr{sleep: undefined variable}],
		errors => [ qr{undefined variable "nosuchvariable"}, qr{sleep} ] },
	# pgbench: invalid command in command "nosuchcommand"
	'misc invalid backslash command' => {
		pgbench_errors => [qr{invalid command .* "nosuchcommand"}],
		errors => [ qr{invalid command}, qr{nosuchcommand} ] },
	# pgbench: gset: invalid variable name: "?column?", then
	# error storing into variable ?column?
	'gset bad default name' => {
		pgbench_errors => [qr{error storing into variable \?column\?}],
		errors => [qr{invalid variable name: "\?column\?"}] },
	'gset bad name' => {
		pgbench_errors => [qr{error storing into variable bad name!}],
		errors => [qr{invalid variable name: "bad name!"}] });

for my $e (@errors)
{
	my ($name, $status, $res, $script, $no_prepare) = @$e;
	my %c = (
		name => "suite error '$name'", script => $script,
		protocol => $no_prepare ? 'simple' : 'prepared', vars => \%error_defines,
		expect => $status == 1 ? 'refused' : 'failed', pgbench_rc => $status,
		errors => $res);
	if ($script =~ /\\(?:set)?shell/)
	{
		# pgbench's messages are about running the command
		%c = (%c, expect => 'refused early', errors => [], pgbench_errors => $res,
			our_errors => [qr/\\(?:set)?shell/]);
	}
	my $x = $error_cases{$name} // {};
	%c = (%c, %$x);
	if ($x->{pgbench_errors} && !$x->{errors})
	{
		my %only = map { ("$_" => 1) } @{ $x->{pgbench_errors} };
		$c{errors} = [ grep { !$only{"$_"} } @$res ];
	}
	compare_case(\%c);
}

# ------------------------------------------------------------------ aborts and retries

# --exit-on-abort: the client that reads 5 fails the run (in bench.run
# any such error ends the run).  With one client the counter stops at 5 on
# both sides, after 4 transactions (without --exit-on-abort, which changes
# nothing for one client, pgbench prints its count); with the suite's two,
# both fail.
my $exit_on_abort = q{
update counter set i = i+1 returning i \gset
\if :i = 5
\set y 1/0
\endif
};
compare_case({
	name => 'suite 001_exit_on_abort, one client', script => $exit_on_abort,
	transactions => 10,
	expect => 'failed', errors => [qr{division by zero}],
	setup => 'TRUNCATE counter; INSERT INTO counter VALUES (0)',
	dump => ['SELECT i FROM counter'] });
compare_case({
	name => 'suite 001_exit_on_abort, two clients', script => $exit_on_abort, min_pgbench => 17,
	clients => 2, transactions => 10, pgbench_args => ['--exit-on-abort'],
	expect => 'failed', errors => [qr{division by zero}],
	setup => 'TRUNCATE counter; INSERT INTO counter VALUES (0)' });

# A script that ends inside a transaction block: the client stops
compare_case({
	name => 'suite 001_pgbench_incomplete_transaction_block', script => q{BEGIN;SELECT 1;},
	transactions => 10, expect => 'failed',
	our_errors => [qr{ended inside a transaction block}],
	other_count => 1,
	check => sub {
		my ($p, $o) = @_;
		like($p->{err}, qr{client 0 aborted: end of script reached without completing the last transaction},
			'incomplete transaction block: pgbench says so');
		# pgbench counts the script's first run, whose transaction never
		# ends, as processed; bench.run counts transactions that completed
		is($p->{processed}, 1, 'incomplete transaction block: pgbench counts one transaction');
		is($o->{transactions}, 0, 'incomplete transaction block: bench.run counts none');
	} });

# COPY: pgbench refuses it when it runs (PostgreSQL 18's suite); so does
# a client in the server
compare_case({
	name => 'suite 001_copy', script => q{ COPY pgbench_accounts FROM stdin }, min_pgbench => 18,
	transactions => 10, expect => 'failed',
	our_errors => [qr{COPY}],
	check => sub {
		my ($p, $o) = @_;
		like($p->{err}, qr{COPY is not supported in pgbench, aborting}, 'COPY: pgbench says so');
	} });

# Serialization failure and retry, in repeatable read (the suite's
# PGOPTIONS, here the database's setting, which both sides' sessions
# read): one transaction retried once, with the same delta
$node->safe_psql('bk', q{ALTER DATABASE bk SET default_transaction_isolation = 'repeatable read'});
my $retry_check = sub {
	my ($what) = @_;
	return sub {
		my ($p, $o) = @_;
		is($p->{retried}, 1, "$what: pgbench retried one transaction");
		is($p->{retries}, 1, "$what: pgbench retried once");
		is($o->{retried}, $p->{retried}, "$what: bench.run retried as many transactions");
		is($o->{retries}, $p->{retries}, "$what: bench.run retried as often");
	};
};
compare_case({
	name => 'suite 001_pgbench_serialization', clients => 2, seed => 77,
	pgbench_args => [ '--max-tries', '2' ], ours_args => 'max_tries => 2',
	setup => 'TRUNCATE first_client_table, xy; INSERT INTO xy VALUES (1, 2)',
	dump => [ 'SELECT x, y FROM xy ORDER BY 1, 2', 'SELECT value FROM first_client_table ORDER BY 1' ],
	check => $retry_check->('serialization'),
	script => q{
-- What's happening:
-- The first client starts the transaction with the isolation level Repeatable
-- Read:
--
-- BEGIN;
-- UPDATE xy SET y = ... WHERE x = 1;
--
-- The second client starts a similar transaction with the same isolation level:
--
-- BEGIN;
-- UPDATE xy SET y = ... WHERE x = 1;
-- <waiting for the first client>
--
-- The first client commits its transaction, and the second client gets a
-- serialization error.

\set delta random(-5000, 5000)

-- The second client will stop here
SELECT pg_advisory_lock(0);

-- Start transaction with concurrent update
BEGIN;
UPDATE xy SET y = y + :delta WHERE x = 1 AND pg_advisory_lock(1) IS NOT NULL;

-- Wait for the second client
DO $$
DECLARE
  exists boolean;
  waiters integer;
BEGIN
  -- The second client always comes in second, and the number of rows in the
  -- table first_client_table reflect this. Here the first client inserts a row,
  -- so the second client will see a non-empty table when repeating the
  -- transaction after the serialization error.
  SELECT EXISTS (SELECT * FROM first_client_table) INTO STRICT exists;
  IF NOT exists THEN
	-- Let the second client begin
	PERFORM pg_advisory_unlock(0);
	-- And wait until the second client tries to get the same lock
	LOOP
	  SELECT COUNT(*) INTO STRICT waiters FROM pg_locks WHERE
	  locktype = 'advisory' AND objsubid = 1 AND
	  ((classid::bigint << 32) | objid::bigint = 1::bigint) AND NOT granted;
	  IF waiters = 1 THEN
		INSERT INTO first_client_table VALUES (1);

		-- Exit loop
		EXIT;
	  END IF;
	END LOOP;
  END IF;
END$$;

COMMIT;
SELECT pg_advisory_unlock_all();
} });
$node->safe_psql('bk', q{ALTER DATABASE bk RESET default_transaction_isolation});

# Deadlock and retry, in read committed
compare_case({
	name => 'suite 001_pgbench_deadlock', clients => 2, seed => 78,
	pgbench_args => [ '--max-tries', '2' ], ours_args => 'max_tries => 2',
	setup => 'TRUNCATE first_client_table',
	dump => ['SELECT value FROM first_client_table ORDER BY 1'],
	check => $retry_check->('deadlock'),
	script => q{
-- What's happening:
-- The first client gets the lock 2.
-- The second client gets the lock 3 and tries to get the lock 2.
-- The first client tries to get the lock 3 and one of them gets a deadlock
-- error.
--
-- A client that does not get a deadlock error must hold a lock at the
-- transaction start. Thus in the end it releases all of its locks before the
-- client with the deadlock error starts a retry (we do not want any errors
-- again).

-- Since the client with the deadlock error has not released the blocking locks,
-- let's do this here.
SELECT pg_advisory_unlock_all();

-- The second client and the client with the deadlock error stop here
SELECT pg_advisory_lock(0);
SELECT pg_advisory_lock(1);

-- The second client and the client with the deadlock error always come after
-- the first and the number of rows in the table first_client_table reflects
-- this. Here the first client inserts a row, so in the future the table is
-- always non-empty.
DO $$
DECLARE
  exists boolean;
BEGIN
  SELECT EXISTS (SELECT * FROM first_client_table) INTO STRICT exists;
  IF exists THEN
	-- We are the second client or the client with the deadlock error

	-- The first client will take care by itself of this lock (see below)
	PERFORM pg_advisory_unlock(0);

	PERFORM pg_advisory_lock(3);

	-- The second client can get a deadlock here
	PERFORM pg_advisory_lock(2);
  ELSE
	-- We are the first client

	-- This code should not be used in a new transaction after an error
	INSERT INTO first_client_table VALUES (1);

	PERFORM pg_advisory_lock(2);
  END IF;
END$$;

DO $$
DECLARE
  num_rows integer;
  waiters integer;
BEGIN
  -- Check if we are the first client
  SELECT COUNT(*) FROM first_client_table INTO STRICT num_rows;
  IF num_rows = 1 THEN
	-- This code should not be used in a new transaction after an error
	INSERT INTO first_client_table VALUES (2);

	-- Let the second client begin
	PERFORM pg_advisory_unlock(0);
	PERFORM pg_advisory_unlock(1);

	-- Make sure the second client is ready for deadlock
	LOOP
	  SELECT COUNT(*) INTO STRICT waiters FROM pg_locks WHERE
	  locktype = 'advisory' AND
	  objsubid = 1 AND
	  ((classid::bigint << 32) | objid::bigint = 2::bigint) AND
	  NOT granted;

	  IF waiters = 1 THEN
	    -- Exit loop
		EXIT;
	  END IF;
	END LOOP;

	PERFORM pg_advisory_lock(0);
    -- And the second client took care by itself of the lock 1
  END IF;
END$$;

-- The first client can get a deadlock here
SELECT pg_advisory_lock(3);

SELECT pg_advisory_unlock_all();
} });

# ------------------------------------------------------------------ more of the suite

# Nested \if blocks (PostgreSQL 18's suite): every wrong branch divides by
# zero
compare_case({
	name => 'suite pgbench_nested_if', pgbench_args => ['--exit-on-abort'], min_pgbench => 18,
	script => q(
			\if false
				SELECT 1 / 0;
				\if true
					SELECT 1 / 0;
				\elif true
					SELECT 1 / 0;
				\else
					SELECT 1 / 0;
				\endif
				SELECT 1 / 0;
			\elif false
				\if true
					SELECT 1 / 0;
				\elif true
					SELECT 1 / 0;
				\else
					SELECT 1 / 0;
				\endif
			\else
				\if false
					SELECT 1 / 0;
				\elif false
					SELECT 1 / 0;
				\else
					SELECT 'correct';
				\endif
			\endif
			\if true
				SELECT 'correct';
			\else
				\if true
					SELECT 1 / 0;
				\elif true
					SELECT 1 / 0;
				\else
					SELECT 1 / 0;
				\endif
			\endif
		) });

# Concurrent OID generation: five clients create and drop a temporary
# enum of 1000 labels
my $labels = join ',', map { "'l$_'" } 1 .. 1000;
compare_case({
	name => 'suite 001_pgbench_concurrent_insert', protocol => 'prepared',
	clients => 5, transactions => 25,
	script => "CREATE TYPE pg_temp.e AS ENUM ($labels); DROP TYPE pg_temp.e;" });

$node->stop;
done_testing();
