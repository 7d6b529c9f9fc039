# The two servers of a test against a target: a "driver" with pgbenchkit
# in database bk, and a "target" without it, whose role bench_remote logs
# in with a SCRAM password (a managed service's way), owning the target's
# databases the test names.
package BenchTarget;

use strict;
use warnings;

use Exporter 'import';
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;

our @EXPORT_OK = qw(driver_and_target scram_target add_targets);

# (driver, target), started; PASSWORD is bench_remote's, DATABASES the
# target's databases it owns.  A hash of options may come first:
# allows_streaming => 1 makes a target a standby can stream from.
sub driver_and_target
{
	my %opts = ref $_[0] eq 'HASH' ? %{ shift @_ } : ();
	my ($password, @databases) = @_;

	my $node = PostgreSQL::Test::Cluster->new('driver');
	$node->init;
	$node->append_conf('postgresql.conf', "max_worker_processes = 16\n");
	$node->start;
	$node->safe_psql('postgres', 'CREATE DATABASE bk');
	$node->safe_psql('bk', 'SET client_min_messages = warning; CREATE EXTENSION pgbenchkit CASCADE');

	return ($node, scram_target({%opts}, $password, @databases));
}

# The target alone, started: without pgbenchkit, its role bench_remote
# logging in with the SCRAM password PASSWORD, owning DATABASES.  A hash of
# options may come first: allows_streaming => 1 as above; max_connections
# => N.
sub scram_target
{
	my %opts = ref $_[0] eq 'HASH' ? %{ shift @_ } : ();
	my ($password, @databases) = @_;

	my $remote = PostgreSQL::Test::Cluster->new('target');
	$remote->init(allows_streaming => $opts{allows_streaming} ? 1 : 0);
	# a streaming node gets 10 connections: the clients of a run need more
	my $max = $opts{max_connections} || ($opts{allows_streaming} ? 40 : undef);
	$remote->append_conf('postgresql.conf', "max_connections = $max\n") if $max;
	$remote->start;
	my $hba = $remote->data_dir . '/pg_hba.conf';
	my $rules = slurp_file($hba);
	open my $fh, '>', $hba or die "cannot write $hba: $!";
	print $fh "local all bench_remote scram-sha-256\n", $rules;
	close $fh;
	$remote->reload;
	$remote->safe_psql('postgres', qq{
		SET log_statement = 'none';
		SET password_encryption = 'scram-sha-256';
		CREATE ROLE bench_remote LOGIN PASSWORD '$password';
	});
	$remote->safe_psql('postgres', "CREATE DATABASE $_ OWNER bench_remote") foreach @databases;
	return $remote;
}

# the driver's targets NAME => DATABASE of the target, as bench_remote with
# PASSWORD (the statements stay out of the server log)
sub add_targets
{
	my ($node, $remote, $password, @targets) = @_;
	my ($host, $port) = ($remote->host, $remote->port);
	my $sql = "SET log_statement = 'none';\n";

	while (my ($name, $db) = splice(@targets, 0, 2))
	{
		$sql .= "SELECT name FROM bench.add_target('$name', 'host=$host port=$port dbname=$db', "
		  . "password => '$password', \"user\" => 'bench_remote');\n";
	}
	$node->safe_psql('bk', $sql);
	return;
}

1;
