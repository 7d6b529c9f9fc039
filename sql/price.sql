--
-- Price-performance: the price per hour of this server (the settings
-- pgbenchkit.price_per_hour and pgbenchkit.currency) and of a target (its
-- options of the same names), kept with each run when it starts; the
-- cost per million transactions and the transactions per unit of the
-- currency in bench.report and bench.report_json, bench.suite_summary,
-- bench.export_runs and bench.compare (refused across currencies).
--
CREATE EXTENSION IF NOT EXISTS pgbenchkit CASCADE;
LOAD 'pgbenchkit';
\set VERBOSITY default
\set SHOW_CONTEXT never

-- errors as rows: SQLSTATE, message, detail, hint
CREATE FUNCTION pg_temp.error_of(query text,
    OUT state text, OUT message text, OUT detail text, OUT hint text)
LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE query;
    state := 'none';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT,
                            detail = PG_EXCEPTION_DETAIL, hint = PG_EXCEPTION_HINT;
END
$$;

-- ------------------------------------------------------------ the settings
-- a decimal number of zero or more, three upper-case letters; empty: unknown
SHOW pgbenchkit.price_per_hour;
SHOW pgbenchkit.currency;
SELECT v, (pg_temp.error_of(format('SET pgbenchkit.price_per_hour = %L', v))).*
  FROM unnest(ARRAY['-1', '-0.5', 'NaN', 'Infinity', '-Infinity', 'abc', '1e3', '1.', '.', ' 1',
                    '0.52 USD', repeat('9', 25)]) AS v;
SELECT v, (pg_temp.error_of(format('SET pgbenchkit.currency = %L', v))).*
  FROM unnest(ARRAY['usd', 'US', 'USDX', 'U5D', 'ÉUR']) AS v;
SELECT v, (pg_temp.error_of(format('SET pgbenchkit.price_per_hour = %L', v))).state
  FROM unnest(ARRAY['0', '0.0', '.5', '12', '0.52', '1234567890.123456789', '']) AS v;
RESET pgbenchkit.price_per_hour;

-- a price without its currency, or a currency without a price: the run
-- is refused before anything starts
SELECT COALESCE(max(id), 0) AS before_refused FROM bench.runs \gset
SET pgbenchkit.price_per_hour = '0.52';
SELECT (pg_temp.error_of($$SELECT bench.run(script => 'SELECT 1;', transactions => 5)$$)).*;
RESET pgbenchkit.price_per_hour;
SET pgbenchkit.currency = 'USD';
SELECT (pg_temp.error_of($$SELECT bench.run(script => 'SELECT 1;', transactions => 5)$$)).*;
RESET pgbenchkit.currency;
SELECT count(*) AS runs_started FROM bench.runs WHERE id > :before_refused;

-- ------------------------------------------------------------ runs at a price
-- a run at 0.52 USD per hour keeps that price
SET pgbenchkit.price_per_hour = '0.52';
SET pgbenchkit.currency = 'USD';
SET client_min_messages = warning;
SELECT id AS p1 FROM bench.run(script => 'SELECT 1;', clients => 2, transactions => 300,
                               progress => '0', sample_interval => '0', tag => 'price 1') \gset
RESET client_min_messages;
SELECT status, price_per_hour, currency FROM bench.runs WHERE id = :p1;

-- its report: price, cost per million transactions = price * 1e6 / (tps *
-- 3600), transactions per USD = tps * 3600 / price, from the run's own tps
SELECT j->'price'->'price_per_hour' AS price_per_hour, j->'price'->>'currency' AS currency,
       (j->'price'->>'cost_per_million_transactions')::numeric
           = round((0.52 * 1000000 / (r.tps * 3600))::numeric, 6) AS cost_is_price_over_tps,
       (j->'price'->>'transactions_per_currency_unit')::numeric
           = round((r.tps * 3600 / 0.52)::numeric) AS transactions_per_usd_is_tps_over_price,
       bench._cost_per_million(0.52, r.tps) = 0.52 * 1000000 / (r.tps * 3600) AS helper
  FROM bench.runs r, bench.report_json(r.id) j WHERE r.id = :p1;
SELECT l = format('price: 0.52 USD per hour; %s USD per million transactions; %s transactions per USD',
                  to_char(round((0.52 * 1000000 / (r.tps * 3600))::numeric, 6), 'FM999999999990.0000'),
                  round((r.tps * 3600 / 0.52)::numeric)) AS report_line
  FROM bench.runs r, regexp_split_to_table(bench.report(r.id), E'\n') l
 WHERE r.id = :p1 AND l LIKE 'price:%';

-- the price changed (and its currency): the first run keeps its own
SET pgbenchkit.price_per_hour = '1.04';
SET pgbenchkit.currency = 'EUR';
SET client_min_messages = warning;
SELECT id AS p2 FROM bench.run(script => 'SELECT 1;', clients => 2, transactions => 300,
                               progress => '0', sample_interval => '0', tag => 'price 2') \gset
-- no price: unknown
RESET pgbenchkit.price_per_hour;
RESET pgbenchkit.currency;
SELECT id AS p3 FROM bench.run(script => 'SELECT 1;', clients => 2, transactions => 300,
                               progress => '0', sample_interval => '0', tag => 'price 3') \gset
-- half the first price, in its currency; and a free server
SET pgbenchkit.price_per_hour = '0.26';
SET pgbenchkit.currency = 'USD';
SELECT id AS p4 FROM bench.run(script => 'SELECT 1;', clients => 2, transactions => 300,
                               progress => '0', sample_interval => '0', tag => 'price 4') \gset
SET pgbenchkit.price_per_hour = '0';
SELECT id AS p5 FROM bench.run(script => 'SELECT 1;', clients => 1, transactions => 100,
                               progress => '0', sample_interval => '0', tag => 'price 5') \gset
RESET client_min_messages;
RESET pgbenchkit.price_per_hour;
RESET pgbenchkit.currency;
SELECT tag, status, price_per_hour, currency FROM bench.runs WHERE id IN (:p1, :p2, :p3, :p4, :p5) ORDER BY id;
SELECT r.tag, j->'price' AS price
  FROM bench.runs r, bench.report_json(r.id) j WHERE r.id IN (:p3) ORDER BY r.id;
SELECT r.tag, j->'price'->>'cost_per_million_transactions' AS cost,
       j->'price'->>'transactions_per_currency_unit' AS per_unit
  FROM bench.runs r, bench.report_json(r.id) j WHERE r.id IN (:p5) ORDER BY r.id;
SELECT r.tag, l
  FROM bench.runs r, regexp_split_to_table(bench.report(r.id), E'\n') l
 WHERE r.id IN (:p3, :p5) AND l LIKE 'price:%' ORDER BY r.id;
SELECT l = format('price: 1.04 EUR per hour; %s EUR per million transactions; %s transactions per EUR',
                  to_char(round((1.04 * 1000000 / (r.tps * 3600))::numeric, 6), 'FM999999999990.0000'),
                  round((r.tps * 3600 / 1.04)::numeric)) AS report_line
  FROM bench.runs r, regexp_split_to_table(bench.report(r.id), E'\n') l
 WHERE r.id = :p2 AND l LIKE 'price:%';

-- bench.export_runs: the price and the cost per million transactions
SELECT e.tag, e.price_per_hour, e.currency,
       e.cost_per_million IS NOT DISTINCT FROM e.price_per_hour * 1000000 / (e.tps * 3600) AS cost
  FROM bench.export_runs e WHERE e.id IN (:p1, :p2, :p3, :p5) ORDER BY e.id;

-- bench.export and bench.import carry the price
SELECT bench.import(bench.export(:p1)) AS p1_copy \gset
SELECT price_per_hour, currency FROM bench.runs WHERE id = :p1_copy;
-- a document whose price is negative, or without its currency, is refused
SELECT state, message, hint FROM pg_temp.error_of(format('SELECT bench.import(%L::jsonb)',
       jsonb_set(bench.export(:p2), '{runs,0,price_per_hour}', '-1')));
SELECT state, message, hint FROM pg_temp.error_of(format('SELECT bench.import(%L::jsonb)',
       jsonb_set(bench.export(:p2), '{runs,0,currency}', 'null')));

-- ------------------------------------------------------------ bench.compare
-- the same currency: the cost per million transactions, lower is better,
-- each side's from its run's price and tps; the prices differ
SELECT section, metric, a_value, b_value, verdict
  FROM bench.compare(:p1, :p4) WHERE section = 'parameter' AND metric IN ('price_per_hour', 'currency');
SELECT c.metric,
       abs(split_part(c.a_value, ' ', 1)::float8 - 0.52 * 1000000 / (a.tps * 3600))
           <= 0.0005 * split_part(c.a_value, ' ', 1)::float8 AS a_is_cost_of_p1,
       abs(split_part(c.b_value, ' ', 1)::float8 - 0.26 * 1000000 / (b.tps * 3600))
           <= 0.0005 * split_part(c.b_value, ' ', 1)::float8 AS b_is_cost_of_p4,
       abs(c.ratio - (0.26 / b.tps) / (0.52 / a.tps)) < 1e-9 AS ratio
  FROM bench.compare(:p1, :p4) c, bench.runs a, bench.runs b
 WHERE a.id = :p1 AND b.id = :p4 AND c.metric = 'cost_per_million';
-- the same run at the same price: within noise
SELECT metric, a_value = b_value AS same, verdict
  FROM bench.compare(:p1, :p1_copy) WHERE metric = 'cost_per_million';
-- one side without a price: its cost is unknown, no verdict
SELECT metric, a_value IS NOT NULL AS has_a, b_value IS NULL AS no_b, verdict
  FROM bench.compare(:p1, :p3) WHERE metric = 'cost_per_million';
-- no price on either side: no cost row
SELECT bench.import(bench.export(:p3)) AS p3_copy \gset
SELECT count(*) FILTER (WHERE metric = 'cost_per_million') AS cost_rows,
       count(*) FILTER (WHERE metric = 'tps') AS tps_rows
  FROM bench.compare(:p3, :p3_copy);
-- different currencies: the comparison of costs is refused; cost => false
-- compares the rest, and the parameters show both prices
SELECT * FROM pg_temp.error_of(format('SELECT * FROM bench.compare(%s, %s)', :p1, :p2));
SELECT section, metric, a_value, b_value, verdict
  FROM bench.compare(:p1, :p2, cost => false) WHERE section = 'parameter' AND metric IN ('price_per_hour', 'currency');
SELECT count(*) FILTER (WHERE metric = 'cost_per_million') AS cost_rows,
       count(*) FILTER (WHERE metric = 'tps' AND a_value IS NOT NULL AND b_value IS NOT NULL) AS tps_rows
  FROM bench.compare(:p1, :p2, cost => false);
SELECT * FROM pg_temp.error_of(format('SELECT * FROM bench.compare(%s, %s, cost => NULL)', :p1, :p4));

-- ------------------------------------------------------------ suites
-- a suite's runs take the price their worker has: the role's setting here,
-- as a schedule's executions take it
DO $$ BEGIN
    EXECUTE format('ALTER ROLE %I SET pgbenchkit.price_per_hour = %L', current_user, '0.75');
    EXECUTE format('ALTER ROLE %I SET pgbenchkit.currency = %L', current_user, 'GBP');
END $$;
SET client_min_messages = warning;
SELECT DISTINCT suite_id AS s1
  FROM bench.sweep(script => 'SELECT 1;', clients => '{1,2}', repeat => 3, transactions => 100,
                   progress => '0', sample_interval => '0', tag => 'priced sweep') \gset
RESET client_min_messages;
DO $$ BEGIN
    EXECUTE format('ALTER ROLE %I RESET pgbenchkit.price_per_hour', current_user);
    EXECUTE format('ALTER ROLE %I RESET pgbenchkit.currency', current_user);
END $$;
SELECT r.clients, r.price_per_hour, r.currency, count(*) AS runs
  FROM bench.runs r WHERE r.suite_id = :s1 GROUP BY 1, 2, 3 ORDER BY 1;
-- the median of the runs' costs, per client count
SELECT s.clients, s.runs_done, s.currency,
       abs(s.cost_per_million_median - (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY 0.75 * 1000000 / (r.tps * 3600))
                                          FROM bench.runs r WHERE r.suite_id = s.suite_id AND r.clients = s.clients))
           < 1e-9 * s.cost_per_million_median AS median_of_costs
  FROM bench.suite_summary s WHERE s.suite_id = :s1 ORDER BY s.position;
-- a run of it without a price: no median (it would speak for some runs only)
UPDATE bench.runs SET price_per_hour = NULL, currency = NULL
 WHERE id = (SELECT min(id) FROM bench.runs WHERE suite_id = :s1 AND clients = 2);
SELECT clients, currency, cost_per_million_median IS NOT NULL AS has_cost
  FROM bench.suite_summary WHERE suite_id = :s1 ORDER BY position;
-- one in another currency: none either
UPDATE bench.runs SET price_per_hour = 0.75, currency = 'USD'
 WHERE id = (SELECT min(id) FROM bench.runs WHERE suite_id = :s1 AND clients = 1);
SELECT clients, currency, cost_per_million_median IS NOT NULL AS has_cost
  FROM bench.suite_summary WHERE suite_id = :s1 ORDER BY position;

-- a SET of the caller's session reaches a suite's runs: its worker takes
-- the caller's price settings with it
SET pgbenchkit.price_per_hour = '0.40';
SET pgbenchkit.currency = 'CHF';
SET client_min_messages = warning;
SELECT DISTINCT suite_id AS s2
  FROM bench.sweep(script => 'SELECT 1;', clients => '{1}', repeat => 2, transactions => 50,
                   progress => '0', sample_interval => '0') \gset
RESET client_min_messages;
SELECT price_per_hour, currency, count(*) AS runs FROM bench.runs WHERE suite_id = :s2 GROUP BY 1, 2;
-- and a capacity search's: its answer's cost is that of a million
-- transactions at the capacity found
SET client_min_messages = warning;
SELECT currency, abs(cost_per_million - 0.40 * 1000000 / (capacity_tps * 3600)) < 1e-9 * cost_per_million
       AS cost_at_capacity
  FROM bench.capacity(script => 'SELECT 1;', slo => 'p99 <= 10 s', start_rate => 10, max_runs => 2,
                      duration => '1 s', progress => '0', sample_interval => '0');
RESET client_min_messages;
RESET pgbenchkit.price_per_hour;
RESET pgbenchkit.currency;

-- ------------------------------------------------------------ targets
-- the options price_per_hour and currency of a target's server: shown by
-- bench.targets, never passed to libpq (the target still connects)
SELECT format('host=%s port=%s dbname=%s', split_part(current_setting('unix_socket_directories'), ',', 1),
              current_setting('port'), current_database()) AS self_conninfo \gset
SELECT name, price_per_hour, currency, options ? 'price_per_hour' AS in_options
  FROM bench.add_target('priced', :'self_conninfo', price_per_hour => 2.5, currency => 'USD');
SELECT bench.check_target('priced') = version() AS connects;
SET client_min_messages = warning;
SELECT id AS t1 FROM bench.run(script => 'SELECT 1;', clients => 2, transactions => 200, target => 'priced',
                               progress => '0', sample_interval => '0') \gset
RESET client_min_messages;
-- the run keeps the target's price (not this server's settings)
SET pgbenchkit.price_per_hour = '9';
SET pgbenchkit.currency = 'CHF';
SET client_min_messages = warning;
SELECT id AS t2 FROM bench.run(script => 'SELECT 1;', clients => 2, transactions => 200, target => 'priced',
                               progress => '0', sample_interval => '0') \gset
RESET client_min_messages;
RESET pgbenchkit.price_per_hour;
RESET pgbenchkit.currency;
-- the target's price changed: its runs keep theirs
ALTER SERVER priced OPTIONS (SET price_per_hour '3', SET currency 'EUR');
SELECT price_per_hour, currency FROM bench.targets WHERE name = 'priced';
SELECT status, driver, target, transactions, price_per_hour, currency FROM bench.runs WHERE id IN (:t1, :t2) ORDER BY id;
SELECT (j->'price'->>'cost_per_million_transactions')::numeric
           = round((2.5 * 1000000 / (r.tps * 3600))::numeric, 6) AS cost_at_its_price
  FROM bench.runs r, bench.report_json(r.id) j WHERE r.id = :t1;
-- a target without a price: the report says where to set it
SELECT name FROM bench.add_target('unpriced', :'self_conninfo');
SET client_min_messages = warning;
SELECT id AS t3 FROM bench.run(script => 'SELECT 1;', transactions => 10, target => 'unpriced',
                               progress => '0', sample_interval => '0') \gset
RESET client_min_messages;
SELECT price_per_hour, currency FROM bench.runs WHERE id = :t3;
SELECT l FROM regexp_split_to_table(bench.report(:t3), E'\n') l WHERE l LIKE 'price:%';

-- bad prices and currencies of a target, each refused by the wrapper's
-- validator: a bad value 22023 (as a bad sslmode), an option in the wrong
-- place HV00D (as any option there)
SELECT v, (pg_temp.error_of(format('CREATE SERVER bad FOREIGN DATA WRAPPER bench_target OPTIONS (%s)', v))).*
  FROM unnest(ARRAY['price_per_hour ''-1'', currency ''USD''',
                    'price_per_hour ''NaN'', currency ''USD''',
                    'price_per_hour ''Infinity'', currency ''USD''',
                    'price_per_hour ''cheap'', currency ''USD''',
                    'price_per_hour ''1'', currency ''usd''',
                    'price_per_hour ''1'', currency ''EURO''',
                    'price_per_hour ''1''',
                    'currency ''USD''']) AS v;
SELECT (pg_temp.error_of($$ALTER SERVER unpriced OPTIONS (ADD price_per_hour '1')$$)).*;
SELECT (pg_temp.error_of($$ALTER SERVER priced OPTIONS (DROP currency)$$)).*;
SELECT (pg_temp.error_of($$ALTER SERVER priced OPTIONS (SET price_per_hour '-3')$$)).*;
SELECT (pg_temp.error_of($$ALTER USER MAPPING FOR CURRENT_USER SERVER priced OPTIONS (ADD price_per_hour '1')$$)).*;
SELECT (pg_temp.error_of($$SELECT bench.add_target('bad', 'host=localhost', price_per_hour => -1, currency => 'USD')$$)).*;
SELECT (pg_temp.error_of($$SELECT bench.add_target('bad', 'host=localhost', price_per_hour => 'NaN', currency => 'USD')$$)).*;
SELECT (pg_temp.error_of($$SELECT bench.add_target('bad', 'host=localhost', price_per_hour => 1)$$)).*;
SELECT (pg_temp.error_of($$SELECT bench.add_target('bad', 'host=localhost', currency => 'USD')$$)).*;
SELECT (pg_temp.error_of($$SELECT bench.add_target('bad', 'host=localhost price_per_hour=1')$$)).state;
SELECT count(*) AS bad_servers FROM pg_foreign_server WHERE srvname = 'bad';
-- both dropped together: no price
ALTER SERVER priced OPTIONS (DROP price_per_hour, DROP currency);
SELECT price_per_hour, currency FROM bench.targets WHERE name = 'priced';

SET client_min_messages = warning;
SELECT bench.drop_target('priced');
SELECT bench.drop_target('unpriced');
RESET client_min_messages;
