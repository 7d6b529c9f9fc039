# The worked example of docs/managed-services.md, run as it is written
# there: a second server plays the managed service (a role with a password,
# scram-sha-256 over TCP, no pgbenchkit), and an ordinary role on the
# driver runs the example's SQL with only the service's host, port and
# password replaced.  Each statement's result is checked.
#
# Needs the server's bin directory first in PATH and pgbenchkit installed
# into that server.
use strict;
use warnings;

use File::Basename qw(dirname);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $doc = dirname(__FILE__) . '/../docs/managed-services.md';
my $text = slurp_file($doc);
my ($example) = $text =~ /<!-- example begin -->\n```sql\n(.*?)```\n<!-- example end -->/s;
ok(defined $example, 'docs/managed-services.md has its worked example') or BAIL_OUT('no example');

my $password = 'Srv1ce-pw';
my $service = PostgreSQL::Test::Cluster->new('service');
$service->init;
$service->append_conf('postgresql.conf', qq{
listen_addresses = '127.0.0.1'
password_encryption = 'scram-sha-256'
});
my $hba = $service->data_dir . '/pg_hba.conf';
my $rules = slurp_file($hba);
open my $fh, '>', $hba or die "cannot write $hba: $!";
print $fh "host all bench 127.0.0.1/32 scram-sha-256\n", $rules;
close $fh;
$service->start;
# the service's side, as the page says it: a role with a password and pg_monitor
$service->safe_psql('postgres', qq{
	SET log_statement = 'none';
	CREATE ROLE bench LOGIN PASSWORD '$password';
	RESET log_statement;
	GRANT CREATE ON SCHEMA public TO bench;
	GRANT pg_monitor TO bench;
	CREATE EXTENSION IF NOT EXISTS pg_stat_statements;
	CREATE EXTENSION IF NOT EXISTS pg_prewarm;
});

my $node = PostgreSQL::Test::Cluster->new('driver');
$node->init;
$node->append_conf('postgresql.conf', "log_statement = 'none'");
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION pgbenchkit CASCADE;
	CREATE ROLE alice LOGIN;
	GRANT USAGE ON FOREIGN DATA WRAPPER bench_target TO alice;
	GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA bench TO alice;
});

my $port = $service->port;
$example =~ s/service\.example\.com/127.0.0.1/g;
$example =~ s/port=5432/port=$port/g;
$example =~ s/example-password/$password/g;

my ($ret, $out, $err) = $node->psql('postgres', $example,
	extra_params => ['-U', 'alice', '-v', 'ON_ERROR_STOP=1']);
is($ret, 0, 'the example runs as an ordinary role') or diag($err);
my @lines = split /\n/, $out;
is($lines[0], 'service', 'the target is added');
is($lines[1], 'tpcb|2|200022', 'pgbench\'s dataset is made on the service, scale 2');
is($lines[2], 'done|libpq|service|4|2|t|t', 'a run against the service, its round trip measured');
is(join(' ', @lines[3 .. 4]), '1|3|t 4|3|t', 'a sweep of three runs per client count');
is(join(',', @lines[5 .. $#lines]), 'cpu,host', 'the service shows all but its CPU and host');

# the service holds pgbench's tables, filled as pgbench -i --fillfactor=90 fills them
is($service->safe_psql('postgres', q{
	SELECT string_agg(c.relname || ':' || coalesce(array_to_string(c.reloptions, ','), ''), ' ' ORDER BY c.relname)
	  FROM pg_class c WHERE c.relname LIKE 'pgbench%' AND c.relkind = 'r'}),
	'pgbench_accounts:fillfactor=90 pgbench_branches:fillfactor=90 pgbench_history: pgbench_tellers:fillfactor=90',
	'with pgbench\'s fillfactor');
is($service->safe_psql('postgres', q{SELECT count(*) FROM pg_extension WHERE extname = 'pgbenchkit'}), '0',
	'and no pgbenchkit');
unlike(slurp_file($service->logfile) . slurp_file($node->logfile), qr/\Q$password\E/,
	'the password is in neither server\'s log');

$node->stop;
$service->stop;
done_testing();
