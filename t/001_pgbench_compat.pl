# bench.init makes the same dataset as pgbench -i.
#
# For each set of options, pgbench -i loads database "pgb" and bench.init
# loads database "bk" (the one with the extension); then, relation by
# relation (tables, partitions and indexes named pgbench_%), the catalogs
# (kind, persistence, columns, options, partition bounds, constraints,
# indexes), the contents (counts, sums, fillers, a hash of every row, per
# partition too) and the sizes (within 1%) must agree.  pgbench then runs
# against the bench.init dataset, and jobs => N must load the same rows as
# jobs => 1.
#
# Needs the server's bin directory (initdb, pg_ctl, postgres, pgbench) first
# in PATH, and pgbenchkit installed into that server.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time);

my $t0 = time;

my $node = PostgreSQL::Test::Cluster->new('compat');
$node->init;
$node->append_conf('postgresql.conf', qq{
max_worker_processes = 32
# the comparisons read sizes right after the loads: no autovacuum in between
autovacuum = off
});
$node->start;

$node->safe_psql('postgres', 'CREATE DATABASE pgb');
$node->safe_psql('postgres', 'CREATE DATABASE bk');
$node->safe_psql('bk', 'CREATE EXTENSION pgbenchkit CASCADE');
$node->safe_psql('bk', 'CREATE EXTENSION pg_visibility');
$node->safe_psql($_, 'CREATE EXTENSION pageinspect') for ('pgb', 'bk');
$node->safe_psql('bk', 'CREATE EXTENSION amcheck');

# ------------------------------------------------------------------ helpers

# Rows of a query as arrays of fields (psql -A -t, fields separated by '|').
sub rows
{
	my ($db, $sql) = @_;
	my $out = $node->safe_psql($db, $sql);
	return map { [ split /\|/, $_, -1 ] } grep { $_ ne '' } split /\n/, $out;
}

# The catalog description of every relation named pgbench_% in schema
# public: { relname => "facet: value\n..." }.
sub describe
{
	my ($db) = @_;
	my %d;
	my $sql = q{
		SELECT c.relname, f.facet, replace(f.value, '|', '/')
		  FROM pg_class c
		  CROSS JOIN LATERAL (VALUES
			('kind', c.relkind::text),
			('persistence', c.relpersistence::text),
			('access method', coalesce((SELECT amname FROM pg_am WHERE oid = c.relam), '-')),
			('options', coalesce(array_to_string(c.reloptions, ','), '-')),
			('partition of', coalesce((SELECT inhparent::regclass::text FROM pg_inherits
			                            WHERE inhrelid = c.oid), '-')),
			('partition bound', coalesce(pg_get_expr(c.relpartbound, c.oid), '-')),
			('partition key', CASE WHEN c.relkind = 'p' THEN pg_get_partkeydef(c.oid) ELSE '-' END),
			('columns', coalesce((
				SELECT string_agg(format('%s %s%s%s', a.attname,
				                         format_type(a.atttypid, a.atttypmod),
				                         CASE WHEN a.attnotnull THEN ' not null' ELSE '' END,
				                         CASE WHEN a.atthasdef THEN ' default' ELSE '' END),
				                  ', ' ORDER BY a.attnum)
				  FROM pg_attribute a
				 WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped), '-')),
			('constraints', coalesce((
				SELECT string_agg(format('%s %s', co.conname, pg_get_constraintdef(co.oid)),
				                  '; ' ORDER BY co.conname)
				  FROM pg_constraint co WHERE co.conrelid = c.oid), '-')),
			('index', coalesce((
				SELECT pg_get_indexdef(i.indexrelid)
				       || CASE WHEN i.indisprimary THEN ' primary' ELSE '' END
				       || CASE WHEN i.indisvalid THEN '' ELSE ' INVALID' END
				  FROM pg_index i WHERE i.indexrelid = c.oid), '-')),
			('indexes', coalesce((
				SELECT string_agg(ic.relname, ', ' ORDER BY ic.relname)
				  FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid
				 WHERE i.indrelid = c.oid), '-')),
			('triggers', coalesce((
				SELECT string_agg(tg.tgname, ', ' ORDER BY tg.tgname)
				  FROM pg_trigger tg WHERE tg.tgrelid = c.oid AND NOT tg.tgisinternal), '-'))
		  ) AS f(facet, value)
		 WHERE c.relnamespace = 'public'::regnamespace
		   AND c.relname LIKE 'pgbench\_%'
		 ORDER BY 1, 2};
	# one text per relation, a line per facet: a difference shows as a diff
	for my $r (rows($db, $sql))
	{
		$d{ $r->[0] } .= "$r->[1]: $r->[2]\n";
	}
	return \%d;
}

# Main fork size, total size and empty pages at the end of the main fork
# of every relation named pgbench_%: { relname => [ size, total, empty ] }.
#
# From PostgreSQL 16 on, COPY into a partitioned table (what pgbench -i
# does when partitioned) extends each partition by many pages at a time and
# can leave the last batch of them empty; VACUUM keeps them (too few to
# truncate).  Those never-used pages are counted apart: the sizes compared
# are the sizes without them.
sub sizes
{
	my ($db) = @_;
	my %s;
	for my $r (rows($db, q{
		SELECT relname, relkind, pg_relation_size(oid), pg_total_relation_size(oid)
		  FROM pg_class
		 WHERE relnamespace = 'public'::regnamespace AND relname LIKE 'pgbench\_%'}))
	{
		my ($rel, $kind, $size, $total) = @$r;
		my $empty = 0;
		if ($kind eq 'r')
		{
			$empty = $node->safe_psql($db, qq{
				SELECT pg_relation_size('$rel') / current_setting('block_size')::int
				       - coalesce(max((ctid::text::point)[0])::bigint + 1, 0)
				  FROM $rel});
		}
		$s{$rel} = [ $size, $total, $empty ];
	}
	return \%s;
}

# What the four tables hold: { check => value }.  The row hash is the sum of
# a 64-bit hash of each row's text, blank-padded fillers included.
sub contents
{
	my ($db) = @_;
	my %c;
	my ($r) = rows($db, q{
		SELECT count(*), sum(aid), sum(bid), sum(abalance), min(aid), max(aid),
		       count(*) FILTER (WHERE filler = repeat(' ', 84) AND octet_length(filler) = 84),
		       sum(hashtextextended(a::text, 0)::numeric),
		       sum(hashtextextended(a.tableoid::regclass::text || a.ctid::text || a.aid, 0)::numeric)
		  FROM pgbench_accounts a});
	@c{
		'accounts rows', 'accounts sum(aid)', 'accounts sum(bid)',
		'accounts sum(abalance)', 'accounts min(aid)', 'accounts max(aid)',
		'accounts with a filler of 84 blanks', 'accounts row hash',
		'accounts placement (table, page and slot of each id)'
	} = @$r;
	($r) = rows($db, q{
		SELECT count(*), sum(bid), sum(bbalance), count(*) FILTER (WHERE filler IS NULL),
		       sum(hashtextextended(b::text, 0)::numeric)
		  FROM pgbench_branches b});
	@c{
		'branches rows', 'branches sum(bid)', 'branches sum(bbalance)',
		'branches with a NULL filler', 'branches row hash'
	} = @$r;
	($r) = rows($db, q{
		SELECT count(*), sum(tid), sum(bid), sum(tbalance), count(*) FILTER (WHERE filler IS NULL),
		       sum(hashtextextended(t::text, 0)::numeric)
		  FROM pgbench_tellers t});
	@c{
		'tellers rows', 'tellers sum(tid)', 'tellers sum(bid)', 'tellers sum(tbalance)',
		'tellers with a NULL filler', 'tellers row hash'
	} = @$r;
	($r) = rows($db, 'SELECT count(*) FROM pgbench_history');
	$c{'history rows'} = $r->[0];
	return \%c;
}

# Each btree, page by page (its metapage, and every item's page, slot, heap
# pointer and key), and what pg_class says of every relation.
sub index_layout
{
	my ($db) = @_;
	my %l;
	for my $r (rows($db, q{
		SELECT c.relname, m.root || '/' || m.level || '/' || m.fastroot,
		       (SELECT sum(hashtext(p || ' ' || i.itemoffset || ' ' || i.ctid || ' ' || coalesce(i.data, ''))::numeric)
		          FROM generate_series(1, pg_relation_size(c.oid) / 8192 - 1) p,
		               LATERAL bt_page_items(c.relname, p::int) i)
		  FROM pg_class c, LATERAL bt_metap(c.relname) m
		 WHERE c.relkind = 'i' AND c.relname LIKE 'pgbench\_%'
		   AND c.relnamespace = 'public'::regnamespace}))
	{
		$l{"$r->[0] metapage (root/level/fast root)"} = $r->[1];
		$l{"$r->[0] items"} = $r->[2];
	}
	# (pages of tables are compared by compare_sizes: pgbench 16+ leaves
	# empty pages at the end of partitions, which its pg_class counts)
	for my $r (rows($db, q{
		SELECT relname, CASE WHEN relkind = 'i' THEN relpages || ' pages, ' END
		       || reltuples || ' rows, ' || relallvisible || ' all-visible'
		  FROM pg_class WHERE relname LIKE 'pgbench\_%' AND relnamespace = 'public'::regnamespace}))
	{
		$l{"$r->[0] pg_class"} = $r->[1];
	}
	return \%l;
}

# What each partition of pgbench_accounts holds: { partition => "count ..." }.
sub partition_contents
{
	my ($db) = @_;
	my %p;
	for my $r (rows($db, q{
		SELECT tableoid::regclass::text, count(*), min(aid), max(aid), sum(aid),
		       sum(hashtextextended(a::text, 0)::numeric)
		  FROM pgbench_accounts a GROUP BY 1 ORDER BY 1}))
	{
		my $name = shift @$r;
		$p{$name} = "rows $r->[0], min(aid) $r->[1], max(aid) $r->[2], sum(aid) $r->[3], row hash $r->[4]";
	}
	return \%p;
}

sub compare_hashes
{
	my ($label, $what, $want, $got) = @_;
	is( join(', ', sort keys %$got),
		join(', ', sort keys %$want),
		"$label: the same $what");
	for my $k (sort keys %$want)
	{
		next unless exists $got->{$k};
		is($got->{$k}, $want->{$k}, "$label: $k");
	}
	return;
}

# Sizes within 1% of each other (both zero counts as equal), not counting
# empty pages at the end of a table (see sizes).
sub compare_sizes
{
	my ($label, $want, $got) = @_;
	my $block = $node->safe_psql('postgres', q{SELECT current_setting('block_size')});
	for my $rel (sort keys %$want)
	{
		next unless exists $got->{$rel};
		for my $i (0, 1)
		{
			my $what = $i ? 'pg_total_relation_size' : 'pg_relation_size';
			my ($sa, $sb) = ($want->{$rel}[$i], $got->{$rel}[$i]);
			my ($ea, $eb) = ($want->{$rel}[2], $got->{$rel}[2]);
			note sprintf("%s: %s %s: pgbench %d, bench.init %d (empty pages at the end: %d, %d)",
				$label, $rel, $what, $sa, $sb, $ea, $eb);
			my ($ua, $ub) = ($sa - $ea * $block, $sb - $eb * $block);
			my $max = $ua > $ub ? $ua : $ub;
			my $ratio =
				$max == 0 ? 1
			  : ($ua == 0 || $ub == 0) ? 0
			  : ($ua < $ub ? $ua / $ub : $ub / $ua);
			my $empty = $ea || $eb ? ", empty pages at the end $ea and $eb not counted" : '';
			ok($ratio >= 0.99,
				"$label: $rel: $what within 1% (pgbench $sa, bench.init $sb$empty)");
		}
	}
	return;
}

# pgbench -i with OPTS into pgb, bench.init with ARGS into bk, and compare.
sub compare_with_pgbench
{
	my (%p) = @_;
	my $label = $p{label};
	my $scale = $p{scale};
	my $naccounts = 100000 * $scale;
	my $t = time;

	$node->command_ok(
		[ 'pgbench', '-i', '-q', '-s', $scale, @{ $p{pgbench} }, 'pgb' ],
		"$label: pgbench -i -s $scale @{$p{pgbench}}");

	my $args = join(', ', "'tpcb'", "scale => $scale", @{ $p{init} }, 'force => true');
	my ($id, $rows) = @{ (rows('bk', "SELECT dataset_id, rows_loaded FROM bench.init($args)"))[0] };
	is($rows, $naccounts + 11 * $scale, "$label: bench.init($args) reports its rows");
	is( $node->safe_psql('bk', qq{
			SELECT status || ' ' || (tables = ARRAY['pgbench_history'::regclass, 'pgbench_tellers'::regclass,
			                                       'pgbench_accounts'::regclass, 'pgbench_branches'::regclass])
			  FROM bench.datasets WHERE id = $id}),
		'ready true',
		"$label: the dataset is ready and bench.datasets lists its tables");

	compare_hashes($label, 'relations', describe('pgb'), describe('bk'));
	compare_hashes($label, 'contents', contents('pgb'), contents('bk'));
	compare_sizes($label, sizes('pgb'), sizes('bk'));
	compare_hashes($label, 'index pages and statistics', index_layout('pgb'), index_layout('bk'));

	# every btree passes amcheck's strictest test: structure, order, and
	# every heap row found in it by a descent from the root
	is( $node->safe_psql('bk', q{
			SELECT count(bt_index_parent_check(c.oid, true, true))
			  FROM pg_class c WHERE c.relkind = 'i' AND c.relname LIKE 'pgbench\_%'
			   AND c.relnamespace = 'public'::regnamespace}),
		$node->safe_psql('bk', q{
			SELECT count(*) FROM pg_class c WHERE c.relkind = 'i' AND c.relname LIKE 'pgbench\_%'
			   AND c.relnamespace = 'public'::regnamespace}),
		"$label: amcheck finds every index sound");

	if ($p{partitions})
	{
		my $parts = partition_contents('bk');
		is(scalar(keys %$parts), $p{partitions}, "$label: every partition has rows");
		compare_hashes($label, 'partitions with rows', partition_contents('pgb'), $parts);

		# A lookup by aid is pruned to the partition where the aid belongs:
		# finding it there proves the loader put it in the right one.
		my %aids = map { $_ => 1 } (1, 2, 3, 1000, 99_999, 100_000, 100_001,
			int($naccounts / 2), int($naccounts / 2) + 1, $naccounts - 1, $naccounts);
		my $part_size = int(($naccounts + $p{partitions} - 1) / $p{partitions});
		for my $k (1 .. $p{partitions} - 1)
		{
			$aids{ $k * $part_size } = 1;
			$aids{ $k * $part_size + 1 } = 1;
		}
		my @aids = sort { $a <=> $b } keys %aids;
		my $found = $node->safe_psql('bk',
			join("\nUNION ALL\n",
				map { "SELECT count(*) FROM pgbench_accounts WHERE aid = $_" } @aids));
		is($found, join("\n", map { 1 } @aids),
			"$label: each of aids @aids is found exactly once by a pruned lookup");
		my $plan = $node->safe_psql('bk',
			"EXPLAIN (COSTS OFF) SELECT * FROM pgbench_accounts WHERE aid = $naccounts");
		my %scanned = map { $_ => 1 } $plan =~ /pgbench_accounts_(\d+)/g;
		is(scalar(keys %scanned), 1, "$label: (such a lookup scans one partition)")
		  or diag $plan;

		if ($p{hash})
		{
			is( $node->safe_psql('bk', qq{
					SELECT count(*) FROM pgbench_accounts a
					  JOIN pg_class c ON c.oid = a.tableoid
					 WHERE NOT satisfies_hash_partition('pgbench_accounts'::regclass,
					           $p{partitions}, substring(c.relname FROM '_(\\d+)\$')::int - 1, a.aid)}),
				'0', "$label: every row satisfies the hash bound of its partition");
		}
	}
	note sprintf("%s: %.1f s", $label, time - $t);
	return;
}

# pgbench against the bench.init dataset: no failed transaction, some done.
sub run_pgbench
{
	my ($label, @opts) = @_;
	my ($stdout, $stderr) = run_command(
		[ 'pgbench', '-h', $node->host, '-p', $node->port, @opts, 'bk' ]);
	note "pgbench @opts:\n$stdout\n$stderr";
	like($stdout, qr/number of failed transactions: 0\b/, "$label: no failed transaction");
	my ($n) = $stdout =~ /number of transactions actually processed: (\d+)/;
	ok(defined $n && $n > 0, "$label: transactions processed (" . ($n // 'none') . ')');
	return;
}

# ------------------------------------------------------------------ pgbench -i vs bench.init

compare_with_pgbench(label => 'scale 5', scale => 5, pgbench => [], init => []);

run_pgbench('pgbench tpcb-like on bench.init scale 5', '-n', '-T', '3', '-c', '2');
run_pgbench('pgbench select-only on bench.init scale 5', '-n', '-S', '-T', '3', '-c', '2');

compare_with_pgbench(
	label => 'range partitions',
	scale => 2,
	partitions => 3,
	pgbench => [ '--partitions=3', '--partition-method=range' ],
	init => [ 'partitions => 3', q{partition_method => 'range'} ]);
compare_with_pgbench(
	label => 'hash partitions',
	scale => 2,
	partitions => 4,
	hash => 1,
	pgbench => [ '--partitions=4', '--partition-method=hash' ],
	init => [ 'partitions => 4', q{partition_method => 'hash'} ]);

run_pgbench('pgbench tpcb-like on hash partitions', '-n', '-T', '2', '-c', '2');

compare_with_pgbench(
	label => 'fillfactor 80',
	scale => 2,
	pgbench => ['--fillfactor=80'],
	init => ['fillfactor => 80']);
compare_with_pgbench(
	label => 'unlogged',
	scale => 2,
	pgbench => ['--unlogged-tables'],
	init => ['unlogged => true']);
# pgbench up to 17 makes all four tables (and the partitioned parent)
# unlogged here; pgbench 18 only the partitions, since PostgreSQL 18 has no
# unlogged partitioned tables.  The comparison is with the pgbench of the
# server under test.
compare_with_pgbench(
	label => 'unlogged, range partitions',
	scale => 2,
	partitions => 2,
	pgbench => [ '--unlogged-tables', '--partitions=2' ],
	init => [ 'unlogged => true', 'partitions => 2' ]);
compare_with_pgbench(
	label => 'foreign keys',
	scale => 2,
	pgbench => [ '-I', 'dtgvpf' ],
	init => ['foreign_keys => true']);

run_pgbench('pgbench tpcb-like with foreign keys', '-n', '-T', '2', '-c', '2');

# ------------------------------------------------------------------ jobs

# jobs => N splits pgbench_accounts among N loaders: the rows must be the
# same as with one.
sub load_and_read
{
	my ($args) = @_;
	$node->safe_psql('bk', "SELECT bench.init('tpcb', $args, force => true)");
	my $c = contents('bk');
	my $p = partition_contents('bk');
	return ($c, $p);
}

my ($c1, $p1) = load_and_read('scale => 3, jobs => 1');
my ($c2, $p2) = load_and_read('scale => 3, jobs => 2');
compare_hashes('jobs => 2 vs jobs => 1', 'contents', $c1, $c2);
is($c2->{'accounts rows'}, 300000, 'jobs => 2: 300000 accounts');

# Two loaders lay out the pages exactly as one does (the placement of every
# row is in the contents compared above): 4919 pages at scale 3, all of them
# all-visible and all-frozen.
is($node->safe_psql('bk', q{
	SELECT relpages, relallvisible, (SELECT count(*) FROM pg_visibility_map('pgbench_accounts')
	                                  WHERE all_visible AND all_frozen)
	  FROM pg_class WHERE oid = 'pgbench_accounts'::regclass}),
	'4919|4919|4919', 'jobs => 2: 4919 pages, all-visible and all-frozen');
is($node->safe_psql('bk', q{
	SELECT (SELECT count(*) FROM pg_check_visible('pgbench_accounts'))
	     + (SELECT count(*) FROM pg_check_frozen('pgbench_accounts'))}),
	'0', 'jobs => 2: the visibility map agrees with every row');

($c1, $p1) = load_and_read(q{scale => 2, partitions => 4, partition_method => 'hash', jobs => 1});
($c2, $p2) = load_and_read(q{scale => 2, partitions => 4, partition_method => 'hash', jobs => 3});
compare_hashes('hash partitions, jobs => 3 vs jobs => 1', 'contents', $c1, $c2);
compare_hashes('hash partitions, jobs => 3 vs jobs => 1', 'partitions with rows', $p1, $p2);

($c1, $p1) = load_and_read(q{scale => 3, partitions => 2, jobs => 1});
($c2, $p2) = load_and_read(q{scale => 3, partitions => 2, jobs => 4});
compare_hashes('range partitions, jobs => 4 vs jobs => 1', 'contents', $c1, $c2);
compare_hashes('range partitions, jobs => 4 vs jobs => 1', 'partitions with rows', $p1, $p2);

is( $node->safe_psql('bk', q{
		SELECT string_agg(status || ' ' || (options->>'jobs'), ', ' ORDER BY id)
		  FROM bench.datasets WHERE id > (SELECT max(id) - 6 FROM bench.datasets)}),
	'replaced 1, replaced 2, replaced 1, replaced 3, replaced 1, ready 4',
	'bench.datasets records the jobs of each load, the last one ready');
is( $node->safe_psql('bk', q{SELECT count(*) FROM bench.datasets WHERE status = 'ready'}),
	'1', 'exactly one dataset is ready');
is( $node->safe_psql('bk', q{SELECT count(*) FROM pg_class WHERE relname LIKE 'bench\_load\_%'}),
	'0', 'no staging table is left');
is( $node->safe_psql('bk', q{
		SELECT count(*) FROM pg_stat_activity
		 WHERE backend_type IN ('pgbenchkit init', 'pgbenchkit loader')}),
	'0', 'no pgbenchkit worker is left running');

# ------------------------------------------------------------------ WAL

# The loaders log whole pages; with wal_compression off and lz4 in the
# server they compress them, so the WAL of a load is a fraction of the data.
# Without lz4 (or before 15) the WAL is about the size of the data.
{
	my ($lz4) = $node->psql('bk', 'SET wal_compression = lz4');
	my $lsn = $node->safe_psql('bk', 'SELECT pg_current_wal_lsn()');
	$node->safe_psql('bk', q{SELECT bench.init('tpcb', scale => 3, force => true)});
	my $wal_over_data = $node->safe_psql('bk', qq{
		SELECT round((pg_current_wal_lsn() - '$lsn') / pg_relation_size('pgbench_accounts'), 2)});
	like($wal_over_data, qr/^\d+\.\d\d$/, 'WAL of a load measured');
	note "WAL of a scale 3 load / size of pgbench_accounts: $wal_over_data";
	if ($lz4 == 0)
	{
		cmp_ok($wal_over_data, '<', 0.5, 'wal_compression off, lz4 available: the load logs compressed pages');
	}
	else
	{
		cmp_ok($wal_over_data, '>', 0.9, 'no lz4: the load logs every page whole');
	}
}

$node->stop;
note sprintf('total: %.1f s', time - $t0);
done_testing();
