# The objects of the extension pgbenchkit in a database, one line each, as
# far as their definition goes: members, functions (result, arguments, an
# md5 of their definition, privileges, comment), relations (kind,
# privileges, row level security, options, comment, a view's definition),
# columns in order with types, defaults and comments, constraints,
# indexes, policies, triggers, schema bench's privileges, and what
# pg_dump keeps (pg_extension_config_dump).  Two databases whose lines
# are the same have the same extension: an upgraded one and a fresh one
# (t/013_upgrade.pl, t/026_upgrade_pieces.pl).
package ExtensionCatalog;

use strict;
use warnings;

use Exporter 'import';
use Test::More;

our @EXPORT_OK = qw(describe_extension same_extension);

my $describe = q{
WITH ext AS (SELECT oid FROM pg_extension WHERE extname = 'pgbenchkit'),
members AS (
    SELECT d.classid, d.objid FROM pg_depend d, ext
     WHERE d.refclassid = 'pg_extension'::regclass AND d.refobjid = ext.oid AND d.deptype = 'e'),
rels AS (
    SELECT c.* FROM pg_class c JOIN members m ON m.classid = 'pg_class'::regclass AND m.objid = c.oid
    UNION
    SELECT c.* FROM pg_type t JOIN members m ON m.classid = 'pg_type'::regclass AND m.objid = t.oid
      JOIN pg_class c ON c.oid = t.typrelid)
SELECT line FROM (
    SELECT 'member ' || pg_describe_object(classid, objid, 0) FROM members
    UNION ALL
    SELECT 'function ' || p.oid::regprocedure || ' returns ' || pg_get_function_result(p.oid)
           || ' args ' || pg_get_function_arguments(p.oid)
           || ' definition md5 ' || md5(CASE WHEN p.prokind = 'a' THEN '' ELSE pg_get_functiondef(p.oid) END)
           || ' acl ' || coalesce(p.proacl::text, '-')
           || ' comment ' || coalesce(obj_description(p.oid, 'pg_proc'), '-')
      FROM pg_proc p JOIN members m ON m.classid = 'pg_proc'::regclass AND m.objid = p.oid
    UNION ALL
    SELECT 'relation ' || c.oid::regclass || ' kind ' || c.relkind::text || ' persistence ' || c.relpersistence::text
           || ' acl ' || coalesce(c.relacl::text, '-')
           || ' row security ' || c.relrowsecurity::text || ' forced ' || c.relforcerowsecurity::text
           || ' options ' || coalesce(c.reloptions::text, '-')
           || ' comment ' || coalesce(obj_description(c.oid, 'pg_class'), '-')
           || CASE WHEN c.relkind = 'v' THEN ' view md5 ' || md5(pg_get_viewdef(c.oid)) ELSE '' END
      FROM rels c
    UNION ALL
    SELECT 'column ' || c.oid::regclass || ' #' || rank() OVER (PARTITION BY c.oid ORDER BY a.attnum)
           || ' ' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
           || CASE WHEN a.attnotnull THEN ' not null' ELSE '' END
           || coalesce(' default ' || pg_get_expr(ad.adbin, ad.adrelid), '')
           || coalesce(' comment ' || col_description(c.oid, a.attnum), '')
      FROM rels c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      LEFT JOIN pg_attrdef ad ON ad.adrelid = c.oid AND ad.adnum = a.attnum
    UNION ALL
    SELECT 'constraint ' || c.oid::regclass || ' ' || k.conname || ' ' || pg_get_constraintdef(k.oid)
      FROM rels c JOIN pg_constraint k ON k.conrelid = c.oid
    UNION ALL
    SELECT 'index ' || pg_get_indexdef(i.indexrelid)
      FROM rels c JOIN pg_index i ON i.indrelid = c.oid
    UNION ALL
    SELECT 'policy ' || c.oid::regclass || ' ' || p.polname || ' for ' || p.polcmd::text
           || ' permissive ' || p.polpermissive::text || ' to ' || p.polroles::regrole[]::text
           || ' using ' || coalesce(pg_get_expr(p.polqual, p.polrelid), '-')
           || ' check ' || coalesce(pg_get_expr(p.polwithcheck, p.polrelid), '-')
      FROM rels c JOIN pg_policy p ON p.polrelid = c.oid
    UNION ALL
    SELECT 'trigger ' || pg_get_triggerdef(g.oid)
      FROM rels c JOIN pg_trigger g ON g.tgrelid = c.oid AND NOT g.tgisinternal
    UNION ALL
    SELECT 'schema ' || n.nspname || ' acl ' || coalesce(n.nspacl::text, '-')
      FROM pg_namespace n WHERE n.nspname = 'bench'
    UNION ALL
    SELECT 'dumped ' || cfg.rel::regclass || ' ' || coalesce(nullif(cfg.cond, ''), 'all rows')
      FROM pg_extension e,
           unnest(e.extconfig, e.extcondition) AS cfg(rel, cond)
     WHERE e.extname = 'pgbenchkit'
) x(line) ORDER BY line COLLATE "C"};

# the lines of DB on NODE, sorted
sub describe_extension
{
	my ($node, $db) = @_;
	return split /\n/, $node->safe_psql($db, $describe);
}

# one assertion: the extension in database A is the one in database B,
# with the lines only one of them has as diagnostics
sub same_extension
{
	my ($node, $db_a, $db_b, $name) = @_;
	my @a = describe_extension($node, $db_a);
	my @b = describe_extension($node, $db_b);
	my %in_a = map { $_ => 1 } @a;
	my %in_b = map { $_ => 1 } @b;
	my @only_a = grep { !$in_b{$_} } @a;
	my @only_b = grep { !$in_a{$_} } @b;
	return ok(@a > 0 && !@only_a && !@only_b, $name)
	  || diag join("\n", (map { "only in $db_a: $_" } @only_a),
		(map { "only in $db_b: $_" } @only_b));
}

1;
