--
-- bench.targets: the targets, and what the current role may do with them.
-- No secret is ever shown: the server's options hold none (the validator
-- refuses them there) and of the user mapping only its user is read.
--
CREATE OR REPLACE VIEW bench.targets AS
SELECT s.srvname::text AS name,
       o.options->>'host' AS host,
       o.options->>'port' AS port,
       o.options->>'dbname' AS dbname,
       o.options->>'sslmode' AS sslmode,
       o.options->>'sslrootcert' AS sslrootcert,
       o.options,
       pg_catalog.pg_get_userbyid(s.srvowner) AS owner,
       m.umid IS NOT NULL AS has_user_mapping,
       m.remote_user,
       pg_catalog.has_server_privilege(s.oid, 'USAGE') AS usage,
       (o.options->>'price_per_hour')::numeric AS price_per_hour,
       o.options->>'currency' AS currency
  FROM pg_catalog.pg_foreign_server s
       JOIN pg_catalog.pg_foreign_data_wrapper w ON w.oid = s.srvfdw AND w.fdwname = 'bench_target'
       CROSS JOIN LATERAL (
           SELECT coalesce(pg_catalog.jsonb_object_agg(t.option_name, t.option_value), '{}'::jsonb) AS options
             FROM pg_catalog.pg_options_to_table(s.srvoptions) t
            WHERE t.option_name !~ '(password|secret)') o
       LEFT JOIN LATERAL (
           SELECT um.umid,
                  (SELECT t.option_value FROM pg_catalog.pg_options_to_table(um.umoptions) t
                    WHERE t.option_name = 'user') AS remote_user
             FROM pg_catalog.pg_user_mappings um
            WHERE um.srvid = s.oid
              AND um.umuser IN (0, (SELECT r.oid FROM pg_catalog.pg_roles r WHERE r.rolname = current_user))
            ORDER BY um.umuser DESC
            LIMIT 1) m ON true;

COMMENT ON VIEW bench.targets IS
    'The targets (servers of the wrapper bench_target): their options but secrets, owner, whether the current role has a user mapping and USAGE, and their price per hour and its currency';

GRANT SELECT ON bench.targets TO PUBLIC;
