# Targets over TLS, as managed services want them: a target server with a
# certificate signed by a certificate authority of its own (the "cloud's
# CA bundle"), reached with sslmode 'verify-full' and sslrootcert; a
# certificate for another name refused by verify-full; sslmode 'require'
# against a server without TLS refused with libpq's message; and a run
# over TLS that ends 'done'.
#
# Needs the server's bin directory first in PATH, pgbenchkit installed into
# that server, and openssl.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

# a build without TLS (the PostgreSQL 18 of PyPI's wheel, for one) has
# nothing to test here
{
	my $probe = PostgreSQL::Test::Cluster->new('probe');
	$probe->init;
	$probe->start;
	my $lib = $probe->safe_psql('postgres', 'SHOW ssl_library');
	$probe->stop;
	plan skip_all => 'this PostgreSQL was built without TLS' if $lib eq '';
}

my $dir = PostgreSQL::Test::Utils::tempdir;
sub openssl
{
	my @cmd = ('openssl', @_);
	my ($out, $err) = ('', '');
	IPC::Run::run(\@cmd, '>', \$out, '2>', \$err) or die "openssl @_ failed: $err";
}

# a certificate authority, and the server's certificate for localhost
openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=bench test CA',
	'-keyout', "$dir/ca.key", '-out', "$dir/ca.crt");
openssl('req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost',
	'-keyout', "$dir/server.key", '-out', "$dir/server.csr");
open my $ext, '>', "$dir/san.ext" or die;
print $ext "subjectAltName = DNS:localhost\n";
close $ext;
openssl('x509', '-req', '-in', "$dir/server.csr", '-CA', "$dir/ca.crt", '-CAkey', "$dir/ca.key",
	'-CAcreateserial', '-days', '2', '-extfile', "$dir/san.ext", '-out', "$dir/server.crt");

my $password = 'Tls-s3cret';
my $tls = PostgreSQL::Test::Cluster->new('tls');
$tls->init;
foreach my $f (qw(server.crt server.key ca.crt))
{
	copy_to_data($tls, $f);
}
$tls->append_conf('postgresql.conf', qq{
listen_addresses = '127.0.0.1'
ssl = on
ssl_cert_file = 'server.crt'
ssl_key_file = 'server.key'
password_encryption = 'scram-sha-256'
});
prepend_hba($tls, "hostssl all bench 127.0.0.1/32 scram-sha-256\n");
$tls->start;
$tls->safe_psql('postgres', qq{SET log_statement = 'none'; CREATE ROLE bench LOGIN PASSWORD '$password'});
{
	local $ENV{PGPASSWORD} = $password;
	my ($out, $err) = ('', '');
	IPC::Run::run(['pgbench', '-i', '-q', '-s', '1', '-h', '127.0.0.1', '-p', $tls->port,
		'-U', 'postgres', 'postgres'], '>', \$out, '2>', \$err) or die "pgbench -i: $err";
	$tls->safe_psql('postgres', 'GRANT ALL ON ALL TABLES IN SCHEMA public TO bench');
}

my $plain = PostgreSQL::Test::Cluster->new('plain');
$plain->init;
$plain->append_conf('postgresql.conf', "listen_addresses = '127.0.0.1'\nssl = off\n");
prepend_hba($plain, "host all bench 127.0.0.1/32 scram-sha-256\n");
$plain->start;
$plain->safe_psql('postgres', qq{SET log_statement = 'none'; CREATE ROLE bench LOGIN PASSWORD '$password'});

my $node = PostgreSQL::Test::Cluster->new('driver');
$node->init;
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION pgbenchkit CASCADE;
	CREATE ROLE alice LOGIN;
	ALTER ROLE alice SET log_statement = 'none';
	GRANT USAGE ON FOREIGN DATA WRAPPER bench_target TO alice;
	GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA bench TO alice;
});
# the CA bundle, where the driver's server can read it
my $ca = $node->data_dir . '/cloud-ca.pem';
copy_file("$dir/ca.crt", $ca);

sub as_alice
{
	return $node->psql('postgres', $_[0], extra_params => ['-U', 'alice']);
}

my $tport = $tls->port;
my $pport = $plain->port;
my ($ret, $out, $err) = as_alice(qq{
	SELECT name FROM bench.add_target('cloud', 'host=localhost hostaddr=127.0.0.1 port=$tport dbname=postgres sslmode=verify-full sslrootcert=$ca',
	                                  password => '$password', "user" => 'bench');
	SELECT name FROM bench.add_target('wrongname', 'host=127.0.0.1 port=$tport dbname=postgres sslmode=verify-full sslrootcert=$ca',
	                                  password => '$password', "user" => 'bench');
	SELECT name FROM bench.add_target('nossl', 'host=127.0.0.1 port=$pport dbname=postgres sslmode=require',
	                                  password => '$password', "user" => 'bench');});
is($ret, 0, 'the targets are added') or diag($err);

($ret, $out, $err) = as_alice(q{SELECT bench.check_target('cloud')});
like($out, qr/^PostgreSQL/, 'verify-full with the CA bundle connects') or diag($err);
ok($tls->poll_query_until('postgres', q{SELECT count(*) = 0 FROM pg_stat_activity WHERE usename = 'bench'}),
	'and the check closed its connection');

($ret, $out, $err) = as_alice(q{SELECT bench.check_target('wrongname')});
like($err, qr/server certificate for "localhost".* does not match host name "127.0.0.1"/,
	'verify-full refuses a certificate for another name');

($ret, $out, $err) = as_alice(q{SELECT bench.check_target('nossl')});
like($err, qr/could not connect to target "nossl"/, 'sslmode require against a server without TLS is refused');
like($err, qr/server does not support SSL, but SSL was required/, 'with libpq\'s reason');
unlike($err, qr/\Q$password\E/, 'and no password');

($ret, $out, $err) = as_alice(q{SELECT * FROM bench.run('select-only', clients => 2, jobs => 1, duration => '2 s', target => 'nossl')});
like($err, qr/server does not support SSL, but SSL was required/, 'a run against it is refused the same way');

($ret, $out, $err) = as_alice(q{
	SELECT status, transactions > 0 FROM bench.run('select-only', clients => 2, jobs => 1, duration => '2 s',
	                                               progress => '0', target => 'cloud')});
is($out, 'done|t', 'a run over verify-full TLS') or diag($err);

unlike(slurp_file($node->logfile) . slurp_file($tls->logfile) . slurp_file($plain->logfile),
	qr/\Q$password\E/, 'the password is in no log');

$node->stop;
$tls->stop;
$plain->stop;
done_testing();

sub copy_to_data
{
	my ($n, $f) = @_;
	copy_file("$dir/$f", $n->data_dir . "/$f");
	chmod 0600, $n->data_dir . "/$f";
}

sub copy_file
{
	my ($from, $to) = @_;
	open my $in, '<', $from or die "cannot read $from: $!";
	open my $out, '>', $to or die "cannot write $to: $!";
	while (my $line = <$in>)
	{
		print $out $line;
	}
	close $out;
}

sub prepend_hba
{
	my ($n, $rule) = @_;
	my $hba = $n->data_dir . '/pg_hba.conf';
	my $rules = slurp_file($hba);
	open my $fh, '>', $hba or die "cannot write $hba: $!";
	print $fh $rule, $rules;
	close $fh;
}
