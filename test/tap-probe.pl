# Probe run by scripts/test.sh before the TAP tests of a PostgreSQL version
# other than 15: the Perl test modules come from PostgreSQL 15, this checks
# they can drive that version's initdb/pg_ctl/postgres/pgbench.  Not a test of
# pgbenchkit (it lives outside t/ for that reason).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('probe');
$node->init;
$node->start;
is($node->safe_psql('postgres', 'SELECT 1'), '1', 'server answers');
$node->command_ok([ 'pgbench', '-i', '-s', '1', '-h', $node->host, '-p', $node->port, 'postgres' ],
	'pgbench -i works');
$node->stop;
done_testing();
