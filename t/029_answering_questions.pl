# The three worked examples of docs/answering-questions.md, scaled down:
# local clusters as the targets, seconds instead of minutes.
#
#  1. Three configurations side by side: two targets of this server's
#     version ("small" and "large", shared_buffers 16MB and 128MB, each with
#     a price) and this server, pgbench's dataset on each; a sweep over the
#     three, the order rotating from repetition to repetition (read back
#     from the runs' start times); bench.compare_many and its Markdown
#     table against small; bench.chart_runs of the three; the cost per
#     million transactions of each against the prices set by hand.
#  2. The capacity of one of them under a p99 objective (bench.capacity on
#     large): the answer consistent with its steps, its cost at capacity,
#     and the chart.
#  3. PostgreSQL 15 against 18, step by step: the Insert Benchmark's steps
#     on a target of each version, and bench.relative_table of the two
#     suites, whose ratios are the steps' throughputs divided.
#
# Needs the server's bin directory first in PATH, pgbenchkit installed into
# that server, and for example 3 the binaries of PostgreSQL 15 and 18
# (PGBENCHKIT_PG15_BIN, PGBENCHKIT_PG18_BIN; scripts/test.sh sets them).
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $password = 'Answ3r-s3cret';

# a server that asks for a password, pgbench's tables made there by its role
sub make_remote
{
	my ($name, $conf, $install_path, $pgbench_scale) = @_;
	my $node = PostgreSQL::Test::Cluster->new($name, $install_path ? (install_path => $install_path) : ());
	$node->init(allows_streaming => 0);
	$node->append_conf('postgresql.conf', qq{
listen_addresses = '127.0.0.1'
password_encryption = 'scram-sha-256'
$conf
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
	});
	if ($pgbench_scale)
	{
		local $ENV{PGPASSWORD} = $password;
		my ($out, $err) = ('', '');
		my $ok = IPC::Run::run(['pgbench', '-i', '-q', '-s', $pgbench_scale, '-h', '127.0.0.1',
			'-p', $node->port, '-U', 'bench_remote', 'postgres'], '>', \$out, '2>', \$err);
		ok($ok, "pgbench -i made the dataset on $name") or diag($err);
	}
	return $node;
}

my $small = make_remote('small', 'shared_buffers = 16MB', undef, 1);
my $large = make_remote('large', 'shared_buffers = 128MB', undef, 1);

my $node = PostgreSQL::Test::Cluster->new('driver');
$node->init;
$node->append_conf('postgresql.conf', "max_worker_processes = 32\n");
$node->start;
$node->safe_psql('postgres', qq{
	SET client_min_messages = warning;
	CREATE EXTENSION pgbenchkit CASCADE;
	SET log_statement = 'none';
	SELECT name FROM bench.add_target('small', 'host=127.0.0.1 port=@{[$small->port]} dbname=postgres',
	                                  password => '$password', "user" => 'bench_remote');
	SELECT name FROM bench.add_target('large', 'host=127.0.0.1 port=@{[$large->port]} dbname=postgres',
	                                  password => '$password', "user" => 'bench_remote');
	RESET log_statement;
	ALTER SERVER small OPTIONS (ADD price_per_hour '0.192', ADD currency 'USD');
	ALTER SERVER large OPTIONS (ADD price_per_hour '0.768', ADD currency 'USD');
	SELECT dataset_id FROM bench.init('tpcb', scale => 1);
});

sub sql { return $node->safe_psql('postgres', $_[0]); }

# an SVG document parsed as XML (by Python's parser: not every server
# build can parse XML), its root an svg element
sub svg_parses
{
	my ($svg) = @_;
	my ($out, $err) = ('', '');
	IPC::Run::run([ 'python3', '-c',
		'import sys, xml.etree.ElementTree as ET; print(ET.fromstring(sys.stdin.buffer.read()).tag)' ],
		'<', \$svg, '>', \$out, '2>', \$err);
	chomp $out;
	diag($err) if $err ne '';
	return $out eq '{http://www.w3.org/2000/svg}svg';
}

# ------------------------------------------------ 1. three configurations

my $suite = sql(q{
	SET pgbenchkit.price_per_hour = '0.384';
	SET pgbenchkit.currency = 'USD';
	SET client_min_messages = warning;
	SELECT DISTINCT suite_id FROM bench.sweep('tpcb', clients => '{1,2}', repeat => 3, duration => '1 s',
	                                           progress => '0', prewarm => false,
	                                           targets => '{small,large,local}', tag => 'sizes')});
like($suite, qr/^\d+$/, "the sweep over small, large and local ran as suite $suite");
is(sql("SELECT status || ' ' || runs_planned FROM bench.suites WHERE id = $suite"), 'done 18',
	'it is done: 2 client counts x 3 repeats x 3 targets');
my $order = sql(qq{SELECT string_agg(COALESCE(target, 'local'), ',' ORDER BY started_at)
	FROM bench.runs WHERE suite_id = $suite AND clients = 1});
is($order, 'small,large,local,large,local,small,local,small,large',
	'each repetition runs every target in turn, the order rotating (read back from the start times)');
is(sql(qq{SELECT string_agg(DISTINCT COALESCE(target, 'local') || '=' || price_per_hour || ' ' || currency, ', ')
	FROM bench.runs WHERE suite_id = $suite}),
	'large=0.768 USD, local=0.384 USD, small=0.192 USD',
	'each run kept the price of its server: the targets\' options, this server\'s setting of the session');

# the summary's cost per million transactions against the prices set by hand
my $bad_cost = sql(qq{
	SELECT count(*) FROM bench.suite_summary m
	 WHERE m.suite_id = $suite
	   AND abs(m.cost_per_million_median
	           - (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY
	                       CASE COALESCE(r.target, 'local') WHEN 'small' THEN 0.192 WHEN 'large' THEN 0.768
	                            ELSE 0.384 END * 1000000 / (r.tps * 3600))
	                FROM bench.runs r
	               WHERE r.suite_id = m.suite_id AND r.clients = m.clients
	                 AND COALESCE(r.target, 'local') = m.target))
	       > 1e-9 * m.cost_per_million_median});
is($bad_cost, '0', 'the summary\'s cost per million transactions is the median of price x 10^6 / (tps x 3600)');

# compare_many: one line per configuration, one column per client count
my @table = split /\n/, sql(q{SELECT * FROM bench.compare_many_table(tag => 'sizes', base => 'small')});
note(join "\n", @table);
like($table[0], qr/1 client.*2 clients/, 'the Markdown table has a column per client count');
is(scalar(grep { /^\| (small|large|local)\b/ } @table), 3, 'and a line per configuration');
my $rows = sql(q{SELECT count(*) || ' ' || count(*) FILTER (WHERE COALESCE(target, 'local') = 'small' AND relative = 1)
	FROM bench.compare_many(tag => 'sizes', base => 'small')});
is($rows, '6 2', 'compare_many has 3 configurations x 2 columns, the base at 1');
my $bad_rel = sql(q{
	SELECT count(*) FROM bench.compare_many(tag => 'sizes', base => 'small') c
	 WHERE abs(c.relative - c.tps_median / c.base_tps_median) > 1e-9});
is($bad_rel, '0', 'each cell is its median over the base\'s median');

# chart_runs: the three runs of clients 2, repetition 1
my $ids = sql(qq{SELECT string_agg(id::text, ',' ORDER BY started_at)
	FROM (SELECT id, started_at FROM bench.runs WHERE suite_id = $suite AND clients = 2
	       ORDER BY started_at LIMIT 3) x});
my $svg = sql("SELECT bench.chart_runs('{$ids}')");
like($svg, qr/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/, 'chart_runs draws an SVG document');
ok(svg_parses($svg), 'which parses as XML');
like($svg, qr/small/, 'its legend names the targets') and like($svg, qr/large/, 'both of them');

# ------------------------------------------------ 2. capacity under an objective

my $cap = sql(q{
	SET client_min_messages = warning;
	SELECT suite_id || '|' || status || '|' || COALESCE(capacity_tps::text, '') || '|' || limited_by || '|'
	       || COALESCE(currency, '') || '|' || COALESCE(cost_per_million::text, '')
	  FROM bench.capacity('tpcb', slo => 'p99 <= 50 ms', clients => 4, target => 'large',
	                      duration => '2 s', max_runs => 12, progress => '0', prewarm => false)});
my ($cap_suite, $status, $capacity, $limited, $currency, $cost) = split /\|/, $cap, -1;
is($status, 'done', "the capacity search on large is done (suite $cap_suite)");
like($limited, qr/^(server|clients|budget|lowest rate)$/, "it says what limited it: $limited");
my $consistent = sql(qq{
	SELECT c.capacity_tps IS NOT DISTINCT FROM
	       (SELECT max(x.rate) FROM bench.capacity_steps($cap_suite) x
	         WHERE x.verdict = 'pass'
	           AND x.rate < COALESCE((SELECT min(y.rate) FROM bench.capacity_steps($cap_suite) y
	                                   WHERE y.verdict = 'fail'), 'Infinity'))
	  FROM bench.capacity_results c WHERE c.suite_id = $cap_suite});
is($consistent, 't', 'the capacity is the highest passing rate below the lowest failing one');
if ($capacity ne '')
{
	is($currency, 'USD', 'the answer has the currency of large\'s price');
	cmp_ok(abs($cost - 0.768 * 1e6 / ($capacity * 3600)), '<', 1e-9 * $cost,
		"its cost per million transactions at the capacity ($cost USD) is 0.768 x 10^6 / ($capacity x 3600)");
}
else
{
	is($limited, 'lowest rate', 'no capacity: the objective broke at the lowest rate');
}
ok(svg_parses(sql("SELECT bench.chart_capacity($cap_suite)")), 'the capacity chart parses as XML');

# ------------------------------------------------ 3. PostgreSQL 15 against 18

SKIP:
{
	my %bin = (15 => $ENV{PGBENCHKIT_PG15_BIN}, 18 => $ENV{PGBENCHKIT_PG18_BIN});
	skip 'the binaries of PostgreSQL 15 and 18 are not given (PGBENCHKIT_PG15_BIN, PGBENCHKIT_PG18_BIN)', 7
	  unless $bin{15} && $bin{18} && -x "$bin{15}/postgres" && -x "$bin{18}/postgres";
	my %suite;
	foreach my $ver (15, 18)
	{
		(my $install = $bin{$ver}) =~ s{/bin/?$}{};
		my $target = make_remote("pg$ver", "shared_preload_libraries = ''", $install, 0);
		like($target->safe_psql('postgres', 'SHOW server_version'), qr/^$ver\./, "target pg$ver runs PostgreSQL $ver");
		sql(qq{SET log_statement = 'none';
			SELECT name FROM bench.add_target('pg$ver', 'host=127.0.0.1 port=@{[$target->port]} dbname=postgres',
			                                  password => '$password', "user" => 'bench_remote')});
		$suite{$ver} = sql(qq{
			SET client_min_messages = warning;
			SELECT DISTINCT suite_id FROM bench.ibench(rows => 2000, steps => '{l.i0,l.x,l.i1,qr100,qp100}',
			                                           duration => '2 s', target => 'pg$ver', tag => 'pg$ver')});
		is(sql("SELECT status FROM bench.suites WHERE id = $suite{$ver}"), 'done', "the Insert Benchmark ran on pg$ver");
	}
	my @rel = split /\n/, sql("SELECT * FROM bench.relative_table($suite{15}, ARRAY[$suite{18}])");
	note(join "\n", @rel);
	like($rel[0], qr/\| l\.i0 \| l\.x \| l\.i1 \| qr100 \| qp100 \|$/, 'relative_table has a column per step');
	my $s18 = $suite{18};
	like($rel[3], qr/^\| pg18 \(suite $s18\) \| 18\.\d+ \|/, 'and names each suite\'s version: the target\'s');
	my @cells = map { [ split /\s*\|\s*/ ] } grep { /^\| pg1[58] / } @rel;
	# each pg18 cell: its step's throughput over pg15's, to two decimals
	my @want = split /\|/, sql(qq{
		SELECT string_agg(to_char(b.throughput / a.throughput, 'FM990.00'), '|' ORDER BY a.step_no)
		  FROM bench.ibench_steps a JOIN bench.ibench_steps b ON b.step = a.step
		 WHERE a.suite_id = $suite{15} AND b.suite_id = $suite{18}});
	is_deeply([ @{ $cells[1] }[ 3 .. 7 ] ], \@want,
		'pg18\'s line has each step\'s throughput over pg15\'s: ' . join(' ', @want));
}

done_testing();
