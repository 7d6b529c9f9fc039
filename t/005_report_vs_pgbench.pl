# bench.report read side by side with pgbench's own output for the same
# settings: the lines pgbench prints at the end of a run that do not depend
# on timing must be the same, word for word; those that do must have the
# same form.  And a run's server section agrees with what the test reads
# itself.
#
# Needs the server's bin directory (with pgbench) first in PATH and
# pgbenchkit installed into that server.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;

my $node = PostgreSQL::Test::Cluster->new('report');
$node->init;
$node->append_conf('postgresql.conf', qq{
max_worker_processes = 32
autovacuum = off
});
$node->start;
$node->safe_psql('postgres', 'CREATE DATABASE bk');
$node->safe_psql('bk', 'CREATE EXTENSION pgbenchkit CASCADE');
$node->safe_psql('bk', q{SELECT dataset_id FROM bench.init('tpcb', scale => 2)});

sub sql { return $node->safe_psql('bk', $_[0]); }

# the summary lines of an output, as key => value (text after ': ' or ' = ')
sub summary
{
	my ($text) = @_;
	my %h;
	for my $line (split /\n/, $text)
	{
		last if $line eq '';
		$h{$1} = $2 if $line =~ /^([a-z][a-z ]+?)(?:: | = )(.*)$/;
	}
	return %h;
}

# the same settings: 2 clients, one thread each (a client worker is its own
# process), 20 transactions per client, each query mode
for my $mode (qw(prepared extended simple))
{
	my ($pgb_out, $pgb_err) = ('', '');
	IPC::Run::run(
		[ 'pgbench', '-n', '-c', '2', '-j', '2', '-t', '20', '-M', $mode,
		  '-h', $node->host, '-p', $node->port, 'bk' ],
		'>', \$pgb_out, '2>', \$pgb_err)
	  or die "pgbench failed: $pgb_err";
	my $id = sql(qq{SELECT id FROM bench.run('tpcb', clients => 2, transactions => 20,
	                protocol => '$mode', progress => '0')});
	my $report = sql("SELECT bench.report($id)");
	my %p = summary($pgb_out);
	my %r = summary($report);

	for my $key ('transaction type', 'scaling factor', 'query mode', 'number of clients',
		'number of threads', 'maximum number of tries', 'number of transactions per client',
		'number of transactions actually processed', 'number of failed transactions')
	{
		SKIP:
		{
			skip "this pgbench does not print '$key'", 1 unless defined $p{$key};
			is($r{$key}, $p{$key}, "$mode: '$key' reads as pgbench's");
		}
	}
	for my $key ('latency average', 'tps')
	{
		my $form = $p{$key};
		$form =~ s/[0-9]+\.[0-9]+/N/g;
		my $ours = $r{$key} // '';
		$ours =~ s/[0-9]+\.[0-9]+/N/g;
		is($ours, $form, "$mode: '$key' has pgbench's form ($p{$key})");
	}
	my @order_p = grep { exists $r{$_} } map { /^([a-z][a-z ]+?)(?:: | = )/ ? $1 : () } split /\n/, $pgb_out;
	my @order_r = grep { exists $p{$_} } map { /^([a-z][a-z ]+?)(?:: | = )/ ? $1 : () } split /\n/, (split /\n\n/, $report)[0];
	is_deeply(\@order_r, \@order_p, "$mode: the shared lines come in pgbench's order");
}

# the server section agrees with what the test reads around the run
my $id = sql(q{SELECT bench.start('tpcb', clients => 2, duration => '3 s', sample_interval => '500 ms')});
sleep 1;
sql('CHECKPOINT');
sql("SELECT status FROM bench.wait($id)");
my $report = sql("SELECT bench.report($id)");
like($report, qr/\n  checkpoints during the run: \d+ timed, [1-9]\d* requested\n/,
	'a checkpoint forced during the run is in its report');
like($report, qr/\n  not available: statements \(pg_stat_statements is not installed in this database\)\n/,
	'without pg_stat_statements the report says so');
my $tx = sql("SELECT transactions + warmup_transactions + failures FROM bench.runs WHERE id = $id");
like($report, qr/\n  samples: [0-9.]+ s and $tx transactions from before/,
	"the server section counts the run's $tx transactions");
like($report, qr/\n  CPU: server processes [0-9.]+ s, [0-9.]+ ms per transaction; host busy/,
	'a superuser gets the CPU time per transaction');

$node->stop;
done_testing();
