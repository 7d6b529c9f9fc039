# The clusters of a fleet's tests: nodes with wal_level = logical, each
# with pgbenchkit in database bk, started.
package BenchFleet;

use strict;
use warnings;

use Exporter 'import';
use PostgreSQL::Test::Cluster;

our @EXPORT_OK = qw(logical_nodes);

# a started cluster for each of NAMES, in their order
sub logical_nodes
{
	my @names = @_;
	my @nodes;

	for my $name (@names)
	{
		my $node = PostgreSQL::Test::Cluster->new($name);
		$node->init(allows_streaming => 'logical');
		$node->append_conf('postgresql.conf', "max_worker_processes = 16\n");
		$node->start;
		$node->safe_psql('postgres', 'CREATE DATABASE bk');
		$node->safe_psql('bk', 'SET client_min_messages = warning; CREATE EXTENSION pgbenchkit CASCADE');
		push @nodes, $node;
	}
	return @nodes;
}

1;
