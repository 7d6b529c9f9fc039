#!/usr/bin/env perl
# Validates a META.json against the PGXN Meta Spec 1.0.0
# (https://pgxn.org/spec/, canonical text https://pgxn.org/meta/spec.txt).
#
#   perl test/pgxn-meta.pl [--root DIR] [META.json]
#
# META.json defaults to ./META.json; DIR, the root of the distribution the
# file paths of "provides" are relative to, defaults to the folder of the
# META.json.  Every violation is printed as "path: message" (path in dots,
# list items as [i]); exit status 1 if there is any, 0 with "META.json is
# valid" otherwise, 2 for a wrong command line or a file that cannot be read.
#
# Core Perl only (JSON::PP).  The rules are the spec's, as PGXN applies them
# (PGXN::Meta::Validator, and PGXN's JSON schema for v1 where it is more
# precise):
#   - required: name (Term), version (Version), abstract (String),
#     maintainer (String or List of Strings), license, provides,
#     meta-spec; optional: description, generated_by, tags, no_index,
#     prereqs, release_status, resources; any other key must start with
#     "x_" or "X_" (custom keys, whose contents are free);
#   - a String is a JSON string of at least one character; where the spec
#     expects a List a String counts as a List of one;
#   - Version: Semantic Versioning, three dot-separated integers without
#     leading zeros ("0.1.0"; "1.0" and "1.01.0" are not versions),
#     optionally followed by a special version: SemVer 1.0.0's appended
#     string ("2.0.0beta1", what spec 1.0.0 describes) or SemVer 2.0.0's
#     "-pre.release+build" (what PGXN accepts today);
#   - Version Range: the number 0 or "0" (any version), or versions each
#     with an optional operator (==, !=, <, <=, >, >=) joined by commas,
#     e.g. ">= 1.2.0, != 1.5.0, < 2.0.0";
#   - license: a License String of the spec's list, a List of them, or a
#     Map of license names to URIs;
#   - provides: a Map of extension names (Terms) to Maps with file and
#     version (required), abstract and docfile; file and docfile are
#     relative unix paths that must exist under the root;
#   - prereqs: phases configure, build, test, runtime, develop; relations
#     requires, recommends, suggests, conflicts; each a Map of names
#     (Terms) to Version Ranges;
#   - release_status: stable, testing or unstable;
#   - resources: homepage (URI), bugtracker {web (URI), mailto (email)},
#     repository {url (URI), web (URI), type (lowercase)};
#   - meta-spec: version 1.0.0 (or a 1.0.x revision, which by the spec's
#     word never changes its semantics), url (URI).
use strict;
use warnings;

use B ();
use File::Basename qw(dirname);
use Getopt::Long qw(GetOptions);
use JSON::PP ();

my $SPEC = '1.0.0';
my @errors;

sub err { push @errors, sprintf '%s: %s', (length $_[0] ? $_[0] : '(top level)'), $_[1]; return 0 }

sub usage {
	my $msg = shift;
	print STDERR "pgxn-meta.pl: $msg\n" if defined $msg;
	print STDERR "usage: perl test/pgxn-meta.pl [--root DIR] [META.json]\n";
	exit 2;
}

# ---------------------------------------------------------------- JSON types
# JSON::PP gives strings and numbers as plain scalars: tell them apart by how
# perl holds them, before anything uses them as a string (which would give a
# number a string form too).
sub jtype {
	my $v = shift;
	return 'null' unless defined $v;
	my $r = ref $v;
	return 'object' if $r eq 'HASH';
	return 'array' if $r eq 'ARRAY';
	return 'boolean' if $r && JSON::PP::is_bool($v);
	return 'other' if $r;
	my $flags = B::svref_2object(\$v)->FLAGS;
	return 'number' if ($flags & (B::SVp_IOK | B::SVp_NOK)) && !($flags & B::SVp_POK);
	return 'string';
}

my %A_TYPE = (object => 'an object', array => 'a list', string => 'a string', number => 'a number',
	boolean => 'a boolean', null => 'null', other => 'something else');

# a key of an object, for a path
sub key_path { my ($path, $key) = @_; return length $path ? "$path.$key" : $key }

sub describe {
	my $v = shift;
	my $t = jtype($v);
	return $A_TYPE{$t} unless $t eq 'string' || $t eq 'number';
	return $t eq 'number' ? "the number $v" : "\"$v\"";
}

# ---------------------------------------------------------------- primitives
sub check_string {
	my ($path, $v, $what) = @_;
	$what //= 'a string';
	my $t = jtype($v);
	return err($path, "must be $what, not " . describe($v)) unless $t eq 'string';
	return err($path, "must be $what, not an empty string") unless length $v;
	return 1;
}

sub check_object {
	my ($path, $v, $what) = @_;
	return 1 if jtype($v) eq 'object';
	return err($path, "must be an object ($what), not " . describe($v));
}

# A List of items, or a String standing for a List of one; calls $item on
# each element.
sub check_list {
	my ($path, $v, $item, %opt) = @_;
	my $t = jtype($v);
	if ($t eq 'string') {
		return $item->($path, $v);
	}
	return err($path, "must be a list (or a single string), not " . describe($v)) unless $t eq 'array';
	return err($path, 'must not be an empty list') if $opt{nonempty} && !@$v;
	my $ok = 1;
	$item->("${path}[$_]", $v->[$_]) or $ok = 0 for 0 .. $#$v;
	return $ok;
}

sub is_custom_key { return $_[0] =~ /\Ax_/i }

# Check the keys of an object: %$known maps each valid key to its check;
# @$required must be present; other keys must be custom (x_...).
sub check_keys {
	my ($path, $obj, $known, $required, $where) = @_;
	my $ok = 1;
	for my $k (@$required) {
		next if exists $obj->{$k};
		$ok = err(key_path($path, $k), 'required field missing');
	}
	for my $k (sort keys %$obj) {
		my $p = key_path($path, $k);
		if (my $check = $known->{$k}) {
			$check->($p, $obj->{$k}) or $ok = 0;
		} elsif (!is_custom_key($k)) {
			$ok = err($p, "unknown key in $where; the valid keys are "
				  . join(', ', sort keys %$known) . ', and custom keys must begin with "x_" or "X_"');
		}
	}
	return $ok;
}

# Term: at least two characters, no slash, backslash, space or control
# character.
sub check_term {
	my ($path, $v, $what) = @_;
	$what //= 'a term';
	check_string($path, $v, $what) or return 0;
	return err($path, "\"$v\" is not a valid term: it must be at least two characters long")
		if length $v < 2;
	return err($path, "\"$v\" is not a valid term: no slash, backslash, space or control characters")
		if $v =~ m{[/\\[:space:][:cntrl:]]};
	return 1;
}

# Tag: 1 to 255 characters, no slash, backslash or control characters.  The
# spec's prose also forbids spaces, but its own examples ("unit testing") and
# PGXN's validator allow them.
sub check_tag {
	my ($path, $v) = @_;
	check_string($path, $v, 'a tag (a string)') or return 0;
	return err($path, "\"$v\" is not a valid tag: it must be fewer than 256 characters long")
		if length $v >= 256;
	return err($path, "\"$v\" is not a valid tag: no slash, backslash or control characters")
		if $v =~ m{[/\\[:cntrl:]]};
	return 1;
}

# URI: a scheme and an authority (https://host/...), as PGXN checks it.
sub check_uri {
	my ($path, $v) = @_;
	check_string($path, $v, 'a URI') or return 0;
	return 1 if $v =~ m{\A[A-Za-z][A-Za-z0-9+.\-]*://[^/?#\s]+[^\s]*\z};
	return err($path, "\"$v\" is not a valid URI (expected scheme://host/...)");
}

sub check_email {
	my ($path, $v) = @_;
	check_string($path, $v, 'an email address') or return 0;
	return 1 if $v =~ /\A[^@\s]+@[^@\s]+\z/;
	return err($path, "\"$v\" is not a valid email address");
}

my $NUM = qr/(?:0|[1-9][0-9]*)/;
my $PRE_ID = qr/(?:0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*)/;
my $BUILD_ID = qr/[0-9A-Za-z-]+/;
my $SEMVER = qr/
	$NUM\.$NUM\.$NUM
	(?:
		[A-Za-z][0-9A-Za-z-]*                                          # SemVer 1.0.0: 2.0.0beta1
	  | (?:-$PRE_ID(?:\.$PRE_ID)*)?(?:\+$BUILD_ID(?:\.$BUILD_ID)*)?      # SemVer 2.0.0: 2.0.0-beta.1+b7
	)
/x;

sub is_semver { my $v = shift; return $v =~ /\A$SEMVER\z/ }

sub version_error {
	my $v = shift;
	return "\"$v\" is not a valid semantic version: it needs three parts, MAJOR.MINOR.PATCH (\"$v.0\"?)"
		if $v =~ /\A[0-9]+(?:\.[0-9]+)?\z/;
	return "\"$v\" is not a valid semantic version: no leading zeros in MAJOR.MINOR.PATCH"
		if $v =~ /\A[0-9]+\.[0-9]+\.[0-9]+/ && $v !~ /\A$NUM\.$NUM\.$NUM/;
	return "\"$v\" is not a valid semantic version (MAJOR.MINOR.PATCH, e.g. 1.2.0 or 1.2.0-beta1)";
}

sub check_version {
	my ($path, $v) = @_;
	check_string($path, $v, 'a version string (e.g. "1.2.0")') or return 0;
	return 1 if is_semver($v);
	return err($path, version_error($v));
}

# Version Range: 0, "0", "1.2.0", ">= 1.2.0, != 1.5.0, < 2.0.0".
sub check_version_range {
	my ($path, $v) = @_;
	my $t = jtype($v);
	if ($t eq 'number') {
		return 1 if $v == 0;
		return err($path, "must be a version range string (e.g. \"$v.0.0\") or the number 0, not the number $v");
	}
	return err($path, 'must be a version range (a string, or the number 0), not ' . describe($v))
		unless $t eq 'string';
	return err($path, 'must not be an empty string') unless length $v;
	my $ok = 1;
	for my $part (split /,\s*/, $v, -1) {
		next if $part eq '0';
		if ($part eq '') {
			$ok = err($path, "\"$v\": empty version in the range");
			next;
		}
		my ($op, $ver) = $part =~ /\A(?:([^\s0-9]+)\s*)?(.*)\z/s;
		if (defined $op && $op !~ /\A(?:==|!=|<=?|>=?)\z/) {
			$ok = err($path, "\"$v\": \"$op\" is not a version range operator (==, !=, <, <=, >, >=)");
			next;
		}
		next if is_semver($ver);
		$ok = err($path, "\"$v\": " . version_error($ver));
	}
	return $ok;
}

# A path relative to the distribution root, in unix conventions, naming a
# file that exists there.
my $ROOT;
sub check_file {
	my ($path, $v) = @_;
	check_string($path, $v, 'a relative file path') or return 0;
	return err($path, "\"$v\" must be a path relative to the distribution root, not an absolute one") if $v =~ m{\A/};
	return err($path, "\"$v\" must use unix conventions (/), not backslashes") if $v =~ /\\/;
	return err($path, "\"$v\" must stay inside the distribution (no ..)") if grep { $_ eq '..' } split m{/}, $v;
	return err($path, "\"$v\" does not exist in the distribution (looked in $ROOT)") unless -e "$ROOT/$v";
	return err($path, "\"$v\" is not a file") unless -f "$ROOT/$v";
	return 1;
}

sub check_rel_path {
	my ($path, $v) = @_;
	check_string($path, $v, 'a relative path') or return 0;
	return err($path, "\"$v\" must be a relative path in unix conventions") if $v =~ m{\A/|\\};
	return 1;
}

# ---------------------------------------------------------------- fields
my %LICENSES = map { $_ => 1 } qw(
	agpl_3 apache_1_1 apache_2_0 artistic_1 artistic_2 bsd freebsd gfdl_1_2
	gfdl_1_3 gpl_1 gpl_2 gpl_3 lgpl_2_1 lgpl_3_0 mit mozilla_1_0 mozilla_1_1
	openssl perl_5 postgresql qpl_1_0 ssleay sun zlib
	open_source restricted unrestricted unknown
);

sub check_license_string {
	my ($path, $v) = @_;
	check_string($path, $v, 'a license string') or return 0;
	return 1 if $LICENSES{$v};
	return err($path, "\"$v\" is not a license string of the spec (one of "
		. join(', ', sort keys %LICENSES) . '), use an object {"name": "URI"} for another license');
}

sub check_license {
	my ($path, $v) = @_;
	if (jtype($v) eq 'object') {
		return err($path, 'must name at least one license') unless %$v;
		my $ok = 1;
		check_uri(key_path($path, $_), $v->{$_}) or $ok = 0 for sort keys %$v;
		return $ok;
	}
	return check_list($path, $v, \&check_license_string, nonempty => 1);
}

sub check_maintainer {
	my ($path, $v) = @_;
	return check_list($path, $v, sub { check_string($_[0], $_[1], 'a string ("name <email>")') }, nonempty => 1);
}

sub check_extension {
	my ($path, $v) = @_;
	check_object($path, $v, 'with file, version, abstract, docfile') or return 0;
	return check_keys($path, $v, {
			file => \&check_file,
			version => \&check_version,
			abstract => \&check_string,
			docfile => \&check_file,
		}, [qw(file version)], 'an extension of provides');
}

sub check_provides {
	my ($path, $v) = @_;
	check_object($path, $v, 'extension names to their file and version') or return 0;
	return err($path, 'must list at least one extension') unless %$v;
	my $ok = 1;
	for my $name (sort keys %$v) {
		my $p = key_path($path, $name);
		check_term($p, $name, 'an extension name (a term)') or $ok = 0;
		check_extension($p, $v->{$name}) or $ok = 0;
	}
	return $ok;
}

sub check_meta_spec {
	my ($path, $v) = @_;
	check_object($path, $v, 'with version and url') or return 0;
	return check_keys($path, $v, {
			version => sub {
				my ($p, $x) = @_;
				check_string($p, $x, 'a version string') or return 0;
				return 1 if $x =~ /\A1\.0\.[0-9]+\z/;
				return err($p, "\"$x\" is not a version of the PGXN Meta Spec this validator knows (1.0.0)");
			},
			url => \&check_uri,
		}, ['version'], 'meta-spec');
}

sub check_no_index {
	my ($path, $v) = @_;
	check_object($path, $v, 'with file and/or directory lists') or return 0;
	return check_keys($path, $v, {
			file => sub { check_list($_[0], $_[1], \&check_rel_path) },
			directory => sub { check_list($_[0], $_[1], \&check_rel_path) },
		}, [], 'no_index');
}

my @PHASES = qw(configure build test runtime develop);
my @RELATIONS = qw(requires recommends suggests conflicts);

sub check_relation {
	my ($path, $v) = @_;
	check_object($path, $v, 'names to version ranges') or return 0;
	my $ok = 1;
	for my $name (sort keys %$v) {
		my $p = key_path($path, $name);
		check_term($p, $name, 'a prerequisite name (a term)') or $ok = 0;
		check_version_range($p, $v->{$name}) or $ok = 0;
	}
	return $ok;
}

sub check_phase {
	my ($path, $v) = @_;
	check_object($path, $v, 'relations (' . join(', ', @RELATIONS) . ') to prerequisites') or return 0;
	my $ok = 1;
	for my $rel (sort keys %$v) {
		my $p = key_path($path, $rel);
		if (grep { $_ eq $rel } @RELATIONS) {
			check_relation($p, $v->{$rel}) or $ok = 0;
		} elsif (!is_custom_key($rel)) {
			$ok = err($p, "unknown prerequisite relationship; must be one of " . join(', ', @RELATIONS));
		}
	}
	return $ok;
}

sub check_prereqs {
	my ($path, $v) = @_;
	check_object($path, $v, 'phases (' . join(', ', @PHASES) . ') to relations') or return 0;
	my $ok = 1;
	for my $phase (sort keys %$v) {
		my $p = key_path($path, $phase);
		if (grep { $_ eq $phase } @PHASES) {
			check_phase($p, $v->{$phase}) or $ok = 0;
		} elsif (!is_custom_key($phase)) {
			$ok = err($p, "unknown prerequisite phase; must be one of " . join(', ', @PHASES));
		}
	}
	return $ok;
}

sub check_release_status {
	my ($path, $v) = @_;
	check_string($path, $v) or return 0;
	return 1 if $v =~ /\A(?:stable|testing|unstable)\z/;
	return err($path, "\"$v\" is not a release status; must be one of stable, testing, unstable");
}

sub check_bugtracker {
	my ($path, $v) = @_;
	check_object($path, $v, 'with web and/or mailto') or return 0;
	my $ok = check_keys($path, $v, { web => \&check_uri, mailto => \&check_email }, [], 'resources.bugtracker');
	return err($path, 'must have web or mailto') unless exists $v->{web} || exists $v->{mailto};
	return $ok;
}

sub check_repository {
	my ($path, $v) = @_;
	check_object($path, $v, 'with url, web and type') or return 0;
	my $ok = check_keys($path, $v, {
			url => \&check_uri,
			web => \&check_uri,
			type => sub {
				my ($p, $x) = @_;
				check_string($p, $x, 'the name of a version control system') or return 0;
				return 1 if $x !~ /\p{Upper}/;
				return err($p, "\"$x\" must be lowercase (git, svn, hg...)");
			},
		}, [], 'resources.repository');
	return err($path, 'must have web, or url with type') unless exists $v->{web} || exists $v->{url};
	return err(key_path($path, 'type'), 'required when url is given (git, svn, hg...)')
		if exists $v->{url} && !exists $v->{type};
	return $ok;
}

sub check_resources {
	my ($path, $v) = @_;
	check_object($path, $v, 'with homepage, bugtracker, repository') or return 0;
	my $ok = check_keys($path, $v, {
			homepage => \&check_uri,
			bugtracker => \&check_bugtracker,
			repository => \&check_repository,
		}, [], 'resources');
	return err($path, 'must have homepage, bugtracker or repository')
		unless grep { exists $v->{$_} } qw(homepage bugtracker repository);
	return $ok;
}

my %TOP = (
	name => sub { check_term($_[0], $_[1], 'a distribution name (a term)') },
	version => \&check_version,
	abstract => \&check_string,
	maintainer => \&check_maintainer,
	license => \&check_license,
	provides => \&check_provides,
	'meta-spec' => \&check_meta_spec,
	description => \&check_string,
	generated_by => \&check_string,
	tags => sub { check_list($_[0], $_[1], \&check_tag) },
	no_index => \&check_no_index,
	prereqs => \&check_prereqs,
	release_status => \&check_release_status,
	resources => \&check_resources,
);
my @REQUIRED = qw(name version abstract maintainer license provides meta-spec);

# ---------------------------------------------------------------- main
my $root;
GetOptions('root=s' => \$root, 'help|h' => sub { usage() }) or usage();
usage('one META.json at most') if @ARGV > 1;
my $file = $ARGV[0] // 'META.json';
usage("$file: no such file") unless -f $file;
$root //= dirname($file);
usage("--root $root: no such folder") unless -d $root;
$ROOT = $root;

my $text = do {
	open my $fh, '<:raw', $file or usage("$file: cannot read: $!");
	local $/;
	<$fh>;
};
my $meta = eval { JSON::PP->new->utf8->decode($text) };
if (!defined $meta && $@) {
	(my $why = $@) =~ s/\s+at \S+ line \d+\.?\s*\z//;
	print "$file: not valid JSON: $why\n";
	exit 1;
}

if (jtype($meta) ne 'object') {
	err('', 'the metadata must be a JSON object, not ' . describe($meta));
} else {
	check_keys('', $meta, \%TOP, \@REQUIRED, 'the metadata');
}

if (@errors) {
	print "$_\n" for @errors;
	printf "%s: %d violation%s of the PGXN Meta Spec %s\n", $file, scalar @errors, @errors == 1 ? '' : 's', $SPEC;
	exit 1;
}
print "META.json is valid (PGXN Meta Spec $SPEC): $file, files checked under $root\n";
exit 0;
