# bench.tpcc_check on a target: a second cluster without pgbenchkit, whose
# role authenticates with a SCRAM password.  bench.init('tpcc',
# warehouses => 1, target => ...) loads it; then every condition passes,
# each over the rows the target itself counts; a change made on the target
# breaks the conditions it should, with the right counts; the schema is
# found by the target role's search_path or named; the target's own errors
# (a missing column, a schema without the tables) come back with their
# SQLSTATE; and the password is in no message and no log line.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

use Cwd qw(abs_path);
use File::Basename qw(dirname);
use lib dirname(abs_path(__FILE__)) . '/lib';
use BenchTarget qw(driver_and_target add_targets);

my $password = 'Tc7-s3cr3t-pw';

# ------------------------------------------------------------------ servers
my ($node, $remote) = driver_and_target($password, 'tc');
add_targets($node, $remote, $password, tc => 'tc');
is($remote->safe_psql('tc', "SELECT count(*) FROM pg_extension WHERE extname = 'pgbenchkit'"), '0',
	'the target has no pgbenchkit');

# ------------------------------------------------------------------ helpers

# SQL on the target's database tc as bench_remote, the tables' owner
sub on_target
{
	my ($sql) = @_;
	return $remote->safe_psql('tc', "SET ROLE bench_remote; $sql");
}

# bench.tpcc_check's rows for ARGS, as "condition passed checked violations"
# lines; (exit status, output, error)
sub check
{
	my ($args) = @_;
	my ($rc, $out, $err) = $node->psql('bk',
		"SELECT condition, passed, checked, violations FROM bench.tpcc_check($args) ORDER BY condition",
		extra_params => ['-F', ' ']);
	return ($rc, $out, $err);
}

# the lines of the conditions that did not pass, "condition violations"
sub failing
{
	my ($args) = @_;
	my ($rc, $out, $err) = check($args);
	die "tpcc_check($args) failed: $err" if $rc != 0;
	return join(', ', map { my @f = split / /; "$f[0]: $f[3]" } grep { (split / /)[1] ne 't' } split /\n/, $out);
}

# ------------------------------------------------------------------ the load
is($node->safe_psql('bk', q{
	SET client_min_messages = warning;
	SELECT dataset_id > 0 FROM bench.init('tpcc', warehouses => 1, target => 'tc')}),
	't', "bench.init('tpcc', warehouses => 1, target => 'tc') loads the target");

# what the target counts itself, for each condition's `checked`
my $counts = on_target(q{
	SELECT concat_ws(' ', (SELECT count(*) FROM warehouse), (SELECT count(*) FROM district),
	                      (SELECT count(*) FROM orders), (SELECT count(*) FROM order_line),
	                      (SELECT count(*) FROM customer))});
my ($w, $d, $o, $ol, $c) = split / /, $counts;
is("$w $d $o $c", '1 10 30000 30000', 'the target has the initial population of one warehouse');
my %expected = (1 => $w, 2 => $d, 3 => $d, 4 => $d, 5 => $o, 6 => $o, 7 => $ol, 8 => $w, 9 => $d,
	10 => $c, 11 => $d, 12 => $c);
my $want = join("\n", map { "$_ t $expected{$_} 0" } 1 .. 12);

my ($rc, $out, $err) = check("target => 'tc'");
is($rc, 0, 'bench.tpcc_check on the target succeeds') or diag $err;
is($out, $want, 'all twelve conditions pass on the target, each over the rows the target counts');
($rc, $out, $err) = check("target => 'tc', schema => 'public'");
is($out, $want, 'the same with the schema named');

# ------------------------------------------------------------------ broken on purpose
on_target('UPDATE warehouse SET w_ytd = w_ytd + 1');
is(failing("target => 'tc'"), '1: 1, 8: 1', "a warehouse's W_YTD changed on the target: 1 and 8 fail, one violation each");
on_target('UPDATE warehouse SET w_ytd = w_ytd - 1');
on_target(q{DELETE FROM new_order WHERE no_d_id = 2 AND no_o_id = 2500});
is(failing("target => 'tc'"), '3: 1, 5: 1, 11: 1', 'a new order deleted in the middle of a district: 3, 5 and 11 fail');
on_target(q{INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (2500, 2, 1)});
is(failing("target => 'tc'"), '', 'repaired: everything passes again');

# a delivery in one district (c_delivery_cnt is its mark): 11 leaves it out
on_target('UPDATE customer SET c_delivery_cnt = 1 WHERE c_d_id = 6 AND c_id = 17');
is($node->safe_psql('bk', q{SELECT concat_ws(' ', passed, checked, violations, note)
	FROM bench.tpcc_check(target => 'tc') WHERE condition = 11}),
	"t 9 0 holds only before a district's first delivery; districts that have had one (a customer's C_DELIVERY_CNT above 0), not checked: 1",
	'after a delivery in one district, 11 is checked in the 9 others and says so');
on_target('UPDATE customer SET c_delivery_cnt = 0 WHERE c_d_id = 6 AND c_id = 17');

# ------------------------------------------------------------------ schemas and errors
on_target('CREATE SCHEMA elsewhere');
($rc, $out, $err) = check("target => 'tc', schema => 'elsewhere'");
like($err, qr/ERROR:  schema "elsewhere" of target "tc" has no TPC-C dataset/, 'a schema without the tables on the target is refused');
like($err, qr/DETAIL:  Missing: warehouse, district, customer, history, new_order, orders, order_line\./, '... naming the missing tables');
($rc, $out, $err) = check("target => 'tc', schema => 'nowhere'");
like($err, qr/ERROR:  schema "nowhere" of target "tc" does not exist/, 'a schema the target does not have is refused');

# the target role's search_path decides where the tables are found
$remote->safe_psql('postgres', 'ALTER ROLE bench_remote IN DATABASE tc SET search_path = elsewhere');
($rc, $out, $err) = check("target => 'tc'");
like($err, qr/ERROR:  no TPC-C tables in the search_path of target "tc"/, "no warehouse in the target role's search_path: refused");
($rc, $out, $err) = check("target => 'tc', schema => 'public'");
is($out, $want, '... and with the schema named, checked');
# a copy of the tables, without keys, in a schema whose name needs quotes
# (as another tool may make them), first in the search_path
on_target(join('; ', 'CREATE SCHEMA "Other Tool"',
	map { qq{CREATE TABLE "Other Tool".$_ AS SELECT * FROM public.$_} }
	  qw(warehouse district customer history new_order orders order_line)));
$remote->safe_psql('postgres', qq{ALTER ROLE bench_remote IN DATABASE tc SET search_path = "Other Tool", public});
on_target('DELETE FROM "Other Tool".order_line WHERE ol_d_id = 1 AND ol_o_id = 1');
is(failing("target => 'tc'"), '4: 1, 6: 1', "the copy the target role's search_path finds first is the one checked");
is(failing("target => 'tc', schema => 'Other Tool'"), '4: 1, 6: 1', '... as when named');
is(failing("target => 'tc', schema => 'public'"), '', '... and the other one is intact');
$remote->safe_psql('postgres', 'ALTER ROLE bench_remote IN DATABASE tc RESET search_path');

# an error of the target comes back with its SQLSTATE
on_target('ALTER TABLE customer RENAME COLUMN c_delivery_cnt TO c_deliveries');
($rc, $out, $err) = $node->psql('bk', q{
	DO $$
	BEGIN
	    PERFORM * FROM bench.tpcc_check(target => 'tc');
	EXCEPTION WHEN undefined_column THEN
	    RAISE NOTICE 'sqlstate %: %', SQLSTATE, SQLERRM;
	END
	$$});
like($err, qr/NOTICE:  sqlstate 42703: could not check TPC-C condition 11 on target "tc"/,
	"a column missing on the target: the target's 42703, naming the condition");
on_target('ALTER TABLE customer RENAME COLUMN c_deliveries TO c_delivery_cnt');

# unknown target, as bench.check_target refuses it
($rc, $out, $err) = check("target => 'nosuch'");
like($err, qr/ERROR:  target "nosuch" does not exist/, 'an unknown target is refused');

# ------------------------------------------------------------------ no secret anywhere
unlike(slurp_file($node->logfile), qr/\Q$password\E/, "the driver's log has no password");
unlike(slurp_file($remote->logfile), qr/\Q$password\E/, "the target's log has no password");

$node->stop;
$remote->stop;
done_testing();
