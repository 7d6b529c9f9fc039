--
-- bench._differing_settings: the names of the settings (bench.runs.settings)
-- whose values are not the same in all the runs given, a setting one run
-- recorded and another did not (it was at its default there) included, by
-- name.  Left out: server_version and server_version_num (bench.runs has
-- the version in a column of its own), and the settings that say where and
-- how a server runs or writes its logs rather than how fast it is, which
-- differ between any two servers without making a difference to a
-- benchmark: the locale and formatting ones initdb writes, ports, sockets,
-- paths, the cluster's name, logging and SSL.  What makes runs into
-- configurations (bench.compare_many) and what labels them
-- (bench.chart_runs).
--
CREATE OR REPLACE FUNCTION bench._differing_settings(run_ids bigint[])
RETURNS text[]
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $fn$
WITH rs AS (
    SELECT r.id, r.settings FROM bench.runs r WHERE r.id = ANY (run_ids)
), names AS (
    SELECT DISTINCT k.key AS name
      FROM rs, jsonb_object_keys(rs.settings) AS k (key)
     WHERE k.key NOT IN ('server_version', 'server_version_num',
                         'application_name', 'client_encoding', 'DateStyle', 'IntervalStyle',
                         'TimeZone', 'timezone_abbreviations', 'extra_float_digits', 'search_path',
                         'default_text_search_config', 'lc_messages', 'lc_monetary', 'lc_numeric',
                         'lc_time', 'port', 'listen_addresses', 'unix_socket_directories',
                         'unix_socket_group', 'unix_socket_permissions', 'cluster_name',
                         'external_pid_file', 'krb_server_keyfile', 'event_source',
                         'syslog_facility', 'syslog_ident', 'syslog_sequence_numbers',
                         'syslog_split_messages', 'update_process_title')
       AND left(k.key, 4) <> 'log_'
       AND left(k.key, 3) <> 'ssl'
)
SELECT COALESCE(array_agg(n.name ORDER BY n.name), '{}')
  FROM names n
 WHERE (SELECT count(DISTINCT COALESCE(rs.settings->>n.name, E'\x01')) FROM rs) > 1
$fn$;

COMMENT ON FUNCTION bench._differing_settings(bigint[]) IS
    'Internal (comparisons): the settings whose values differ between runs, without those that only say where a server runs or logs';
