# Targets against a server that asks for passwords: bench.check_target as
# an ordinary role connects with the password of its user mapping when the
# server asks for it (scram-sha-256), gets the server's version, and is
# refused when the server does not ask (trust): the role must not reach a
# server with the local server's own identity.  A wrong password fails with
# libpq's message, without the password.  A server that never answers is
# given up after connect_timeout, and the wait can be canceled.
#
# The node is both the local server and the target: role bench_remote logs
# in with scram-sha-256 over the Unix socket, every other role is trusted.
#
# Needs the server's bin directory first in PATH and pgbenchkit installed
# into that server.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IO::Socket::INET;

my $node = PostgreSQL::Test::Cluster->new('targets');
$node->init;
$node->start;

# bench_remote must give its password; the rest stays as init wrote it
my $hba = $node->data_dir . '/pg_hba.conf';
my $rules = slurp_file($hba);
open my $fh, '>', $hba or die "cannot write $hba: $!";
print $fh "local all bench_remote scram-sha-256\n", $rules;
close $fh;
$node->reload;

$node->safe_psql('postgres', q{
	CREATE EXTENSION pgbenchkit CASCADE;
	SET password_encryption = 'scram-sha-256';
	CREATE ROLE bench_remote LOGIN PASSWORD 'r3mote-pw';
	CREATE ROLE alice;
	GRANT USAGE ON FOREIGN DATA WRAPPER bench_target TO alice;
	GRANT EXECUTE ON FUNCTION bench.add_target, bench.check_target, bench.drop_target TO alice;
});

my $host = $node->host;
my $port = $node->port;
my $conninfo = "host=$host port=$port dbname=postgres";
my $version = $node->safe_psql('postgres', 'SELECT version()');

sub as_alice
{
	my ($sql) = @_;
	my ($ret, $out, $err) = $node->psql('postgres', "SET ROLE alice; $sql");
	return ($ret, $out, $err);
}

# the password of the user mapping, which the server asks for
my ($ret, $out, $err) = as_alice(qq{
	SELECT name FROM bench.add_target('remote', '$conninfo', password => 'r3mote-pw', "user" => 'bench_remote');
	SELECT bench.check_target('remote');});
is($ret, 0, 'an ordinary role checks a target whose server asks for the password') or diag($err);
is((split /\n/, $out)[-1], $version, 'bench.check_target returns the target\'s version()');
is($node->safe_psql('postgres',
	q{SELECT count(*) FROM pg_stat_activity WHERE application_name = 'pgbenchkit'}), '0',
	'the connection is closed when bench.check_target returns');

# a wrong password: libpq's message, the password not in it
($ret, $out, $err) = as_alice(qq{
	SELECT name FROM bench.add_target('wrong', '$conninfo', password => 'wr0ng-pw', "user" => 'bench_remote');
	SELECT bench.check_target('wrong');});
isnt($ret, 0, 'a wrong password is refused');
like($err, qr/could not connect to target "wrong"/, 'the error names the target');
like($err, qr/password authentication failed for user "bench_remote"/, 'the detail is libpq\'s message');
unlike($err, qr/wr0ng-pw/, 'the password is not in the error');

# a server that does not ask for the password (trust): refused after connecting
($ret, $out, $err) = as_alice(qq{
	SELECT name FROM bench.add_target('trusting', '$conninfo', password => 'r3mote-pw');
	SELECT bench.check_target('trusting');});
isnt($ret, 0, 'an ordinary role is refused a server that does not ask for the password');
like($err, qr/password is required to use target "trusting"/, 'the error says a password is required');
like($err, qr/Non-superusers cannot connect if the server does not request a password/,
	'the detail says the server did not ask for it');

# without a password in the user mapping: refused before connecting
($ret, $out, $err) = as_alice(qq{
	SELECT name FROM bench.add_target('nopassword', '$conninfo', "user" => 'bench_remote');
	SELECT bench.check_target('nopassword');});
isnt($ret, 0, 'an ordinary role without a password in its user mapping is refused');
like($err, qr/Non-superusers must provide a password in the user mapping/,
	'the detail says the user mapping needs a password');

# a superuser may connect without a password
$node->safe_psql('postgres', qq{SELECT name FROM bench.add_target('mine', '$conninfo')});
is($node->safe_psql('postgres', q{SELECT bench.check_target('mine')}), $version,
	'a superuser checks a trusted target without a password');

# a server that never answers (a socket nobody reads): given up after
# connect_timeout, and without one the wait can be canceled
my $silent = IO::Socket::INET->new(Listen => 5, LocalAddr => '127.0.0.1', LocalPort => 0, Proto => 'tcp')
	or die "cannot listen: $!";
my $silent_port = $silent->sockport;
$node->safe_psql('postgres', qq{SELECT name FROM bench.add_target('silent',
	'host=127.0.0.1 port=$silent_port dbname=postgres connect_timeout=2')});
($ret, $out, $err) = $node->psql('postgres', q{SELECT bench.check_target('silent')});
like($err, qr/No connection within connect_timeout, 2 seconds/, 'a server that never answers is given up after connect_timeout');
$node->safe_psql('postgres', q{ALTER SERVER silent OPTIONS (SET connect_timeout '0')});
($ret, $out, $err) = $node->psql('postgres', q{SET statement_timeout = '1s'; SELECT bench.check_target('silent')});
like($err, qr/canceling statement due to statement timeout/, 'the wait for a connection can be canceled');
$node->safe_psql('postgres', q{SELECT bench.drop_target('silent')});
close $silent;

# what the roles see: no password, anywhere in bench.targets
is($node->safe_psql('postgres', q{
	SELECT count(*) FROM bench.targets t, jsonb_each_text(to_jsonb(t)) e
	 WHERE e.value ~ '(r3mote-pw|wr0ng-pw)'}), '0', 'bench.targets shows no password');

($ret, $out, $err) = as_alice(q{
	SELECT bench.drop_target(name) FROM bench.targets WHERE owner = current_user;
	SELECT count(*) FROM bench.targets;});
is($ret, 0, 'the role drops its targets') or diag($err);
is((split /\n/, $out)[-1], '1', 'only the superuser\'s target is left');

$node->stop;
done_testing();
