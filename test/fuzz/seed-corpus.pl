#!/usr/bin/perl
# Make the seed corpus of the fuzzing targets (test/fuzz/corpus/) from the
# project's own scripts:
#	- pgbench's builtin scripts as the extension installs them
#	  (control/install/*.sql, the $script$ ... $script$ strings);
#	- the scripts of the tests: the string literals of sql/*.sql
#	  ('...', E'...', $$...$$) and of t/*.pl (q{...}, '...', heredocs)
#	  that hold a meta-command or a statement;
#	- for the expression target, every expression of a \set, \if or \elif
#	  of those, and each line of t/010_expressions.pl's lists.
# Each input is a file named by the SHA-1 of its content, as libFuzzer
# names them.  Run from the repository's root: test/fuzz/seed-corpus.pl
use strict;
use warnings;
use Digest::SHA qw(sha1_hex);
use File::Path qw(make_path remove_tree);

my $out = 'test/fuzz/corpus';
my (%script, %expr);

sub slurp { local (@ARGV, $/) = @_; return <> }

sub script_like
{
	my ($s) = @_;
	return $s =~ /\\(set|unset|sleep|if|elif|else|endif|while|endwhile|gset|aset|garray|startpipeline|endpipeline|syncpipeline)\b/
	  || $s =~ /^\s*(select|insert|update|delete|begin|end|commit|rollback|with|create|drop|vacuum)\b.*;/ims;
}

sub add_script
{
	my ($s) = @_;
	return unless defined $s && length $s && length $s < 4096 && script_like($s);
	$script{$s} = 1;
	while ($s =~ /^\s*\\(?:set\s+[^\s\[]+(?:\[[^\]]*\])?|if|elif|while)\s+(.+?)\s*$/mg)
	{
		$expr{$1} = 1;
	}
}

for my $f (glob('control/install/*.sql'))
{
	my $t = slurp($f);
	add_script($1) while $t =~ /\$script\$(.*?)\$script\$/sg;
}

for my $f (glob('sql/*.sql'))
{
	my $t = slurp($f);
	while ($t =~ /\$\$(.*?)\$\$/sg) { add_script($1) }
	while ($t =~ /(?<![A-Za-z0-9_])([Ee]?)'((?:[^']|'')*)'/sg)
	{
		my ($e, $s) = ($1, $2);
		$s =~ s/''/'/g;
		if ($e)
		{
			my %esc = (n => "\n", t => "\t", r => "\r", '\\' => '\\', "'" => "'");
			$s =~ s/\\(.)/exists $esc{$1} ? $esc{$1} : $1/ge;
		}
		add_script($s);
	}
}

for my $f (glob('t/*.pl'))
{
	my $t = slurp($f);
	# heredocs
	while ($t =~ /<<['"]?(\w+)['"]?[^\n]*\n(.*?)^\1$/msg)
	{
		my ($tag, $body) = ($1, $2);
		add_script($body);
		if ($f =~ /010_expressions/ && $tag =~ /^(EXPRS|ERRORS)$/)
		{
			$expr{$_} = 1 for grep { length } split /\n/, $body;
		}
	}
	# q{...} with nested braces, q[...]
	while ($t =~ /\bq(\{((?:[^{}]++|(?1))*)\})/sg) { add_script($2) }
	while ($t =~ /\bq\[(.*?)\]/sg) { add_script($1) }
	while ($t =~ /(?<![A-Za-z0-9_])'((?:[^'\\]|\\.)*)'/sg)
	{
		my $s = $1;
		$s =~ s/\\([\\'])/$1/g;
		add_script($s);
	}
}

for my $kind (['script', \%script], ['expr', \%expr])
{
	my ($name, $set) = @$kind;
	remove_tree("$out/$name");
	make_path("$out/$name");
	for my $s (sort keys %$set)
	{
		open my $fh, '>:raw', "$out/$name/" . sha1_hex($s) or die "$!";
		print $fh $s;
		close $fh;
	}
	printf "%s: %d inputs\n", $name, scalar keys %$set;
}
