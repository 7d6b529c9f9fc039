--
-- bench.ibench_script: the script of one step of the Insert Benchmark
-- (iibench.py for PostgreSQL) in the kit's script language, for its
-- options: one execution is one of the benchmark's batches.  The tables
-- are pi:{t}, t = :client_id % :tables + 1 (one per client, or one they
-- share: :tables is set by bench.run from the ibench dataset).
--
--   l.i0  inserts rows_per_commit rows (100) in one INSERT, in primary key
--         order (the serial), before the secondary indexes exist
--   l.x   inserts one batch of rows_per_commit rows (100), then creates
--         secondary_indexes (3) secondary indexes, one after the other:
--         marketsegment, registersegment, pdc (--secondary_at_end)
--   l.i1  inserts rows_per_commit rows (50), then deletes as many of the
--   l.i2  oldest (rows_per_commit 5), keeping the table's size: the
--         benchmark's queue, from :min_trxid (the run sets it from the
--         table's smallest id when it is -1, the first time)
--   qr    one range query of rows_per_query rows (10) on a secondary index
--         drawn from those there are (marketsegment, registersegment,
--         pdc: secondary_indexes of them), from a random value on: the
--         query thread of the query steps qr100, qr500, qr1000
--   qp    one point query of rows_per_query random primary keys (10) from
--         the oldest row to the newest, which it reads again every 100
--         queries (the benchmark's --query_pk_only): of qp100, qp500, qp1000
--
-- The query steps run qr or qp as fast as they go beside the inserts of
-- l.i1 held to 100, 500 or 1000 rows a second per table (groups =>, and
-- bench.ibench).
--
-- Each statement commits alone, as the benchmark's autocommit.  The rows
-- are the benchmark's: cashregisterid below cashregisters (1000),
-- customerid below customers (100000), productid below products (10000),
-- price below max_price (500), the same dateandtime for a batch, data of
-- data_length_min to data_length_max characters (10, 20) of which
-- data_random_pct percent (50) of three quarters are random base64 and
-- the rest 'a'.  They are made by the server (random()), where the
-- benchmark's client makes them and sends them as a VALUES list.
--
CREATE OR REPLACE FUNCTION bench.ibench_script(step text, options jsonb DEFAULT '{}')
RETURNS text
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    steps   constant text[] := ARRAY['l.i0', 'l.x', 'l.i1', 'l.i2', 'qr', 'qp'];
    known   constant text[] := ARRAY['rows_per_commit', 'secondary_indexes', 'delete_per_insert',
                                     'cashregisters', 'customers', 'products', 'max_price',
                                     'data_length_min', 'data_length_max', 'data_random_pct',
                                     'rows_per_query'];
    nq      integer;
    o       jsonb;
    k       text;
    s       text[] := '{}';
    ins     text;
    pool    integer;
BEGIN
    IF step IS NULL THEN
        RAISE EXCEPTION 'step must not be null'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'Name one of the Insert Benchmark''s steps: l.i0, l.x, l.i1, l.i2, qr or qp.';
    END IF;
    IF NOT step = ANY (steps) THEN
        RAISE EXCEPTION 'unknown Insert Benchmark step "%"', left(step, 64)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'The steps with a script of their own are l.i0, l.x, l.i1, l.i2, and qr and qp (the query clients of qr100 ... qp1000).';
    END IF;
    IF options IS NULL OR jsonb_typeof(options) <> 'object' THEN
        RAISE EXCEPTION 'options must be a JSON object'
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Give the benchmark''s options by name, as {"rows_per_commit": 1000}.';
    END IF;
    FOR k IN SELECT jsonb_object_keys(options) LOOP
        IF NOT k = ANY (known) THEN
            RAISE EXCEPTION 'unknown Insert Benchmark option "%"', left(k, 64)
                USING ERRCODE = 'invalid_parameter_value',
                      HINT = 'The options are ' || array_to_string(known, ', ') || ' (iibench.py''s, with _ for -).';
        END IF;
    END LOOP;
    -- the benchmark's defaults, and the rows per commit its scripts give each step
    o := jsonb_build_object('rows_per_commit', CASE step WHEN 'l.i0' THEN 100 WHEN 'l.x' THEN 100
                                                        WHEN 'l.i1' THEN 50 ELSE 5 END,
                            'secondary_indexes', 3, 'delete_per_insert', step IN ('l.i1', 'l.i2'),
                            'cashregisters', 1000, 'customers', 100000, 'products', 10000,
                            'max_price', 500, 'data_length_min', 10, 'data_length_max', 20,
                            'data_random_pct', 50, 'rows_per_query', 10) || options;
    FOREACH k IN ARRAY ARRAY['rows_per_commit', 'secondary_indexes', 'cashregisters', 'customers',
                             'products', 'max_price', 'data_length_min', 'data_length_max',
                             'data_random_pct', 'rows_per_query'] LOOP
        IF jsonb_typeof(o->k) <> 'number' OR (o->>k)::numeric <> trunc((o->>k)::numeric)
           OR (o->>k)::numeric < (CASE WHEN k IN ('secondary_indexes', 'data_random_pct') THEN 0 ELSE 1 END)
           OR (o->>k)::numeric > (CASE k WHEN 'secondary_indexes' THEN 3 WHEN 'data_random_pct' THEN 100
                                         WHEN 'data_length_min' THEN 4000 WHEN 'data_length_max' THEN 4000
                                         WHEN 'rows_per_commit' THEN 100000 WHEN 'rows_per_query' THEN 1000
                                         ELSE 2147483647 END) THEN
            RAISE EXCEPTION 'option % of the Insert Benchmark must be a whole number from % to %, not %', k,
                  CASE WHEN k IN ('secondary_indexes', 'data_random_pct') THEN 0 ELSE 1 END,
                  CASE k WHEN 'secondary_indexes' THEN 3 WHEN 'data_random_pct' THEN 100
                         WHEN 'data_length_min' THEN 4000 WHEN 'data_length_max' THEN 4000
                         WHEN 'rows_per_commit' THEN 100000 WHEN 'rows_per_query' THEN 1000
                         ELSE 2147483647 END, left(o->>k, 64)
                USING ERRCODE = 'invalid_parameter_value',
                      HINT = 'The options are iibench.py''s, with its bounds.';
        END IF;
    END LOOP;
    IF jsonb_typeof(o->'delete_per_insert') <> 'boolean' THEN
        RAISE EXCEPTION 'option delete_per_insert of the Insert Benchmark must be true or false, not %',
              left(o->>'delete_per_insert', 64)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'With true (l.i1 and l.i2) each insert is followed by a delete of as many of the oldest rows.';
    END IF;
    IF (o->>'data_length_min')::int > (o->>'data_length_max')::int THEN
        RAISE EXCEPTION 'data_length_min (%) must not be above data_length_max (%)',
              o->>'data_length_min', o->>'data_length_max'
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'The data column''s length is drawn from data_length_min to data_length_max.';
    END IF;
    IF step = 'l.x' AND (o->>'secondary_indexes')::int = 0 THEN
        RAISE EXCEPTION 'step l.x of the Insert Benchmark with secondary_indexes 0 creates no index'
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Give secondary_indexes from 1 to 3, or leave l.x out.';
    END IF;

    s := s || format('-- <builtin: ibench %s%s>', step,
                     CASE WHEN options = '{}' THEN '' ELSE ', ' || options::text END)
           || '\dataset ibench'::text
           || '\set t :client_id % :tables + 1'::text;
    -- the data: 'a' then the random part, rand_len = len * 0.75 * pct / 100,
    -- a window of a pool of random base64 made once for the batch, as the
    -- benchmark's client takes it from a pool it makes once: pool
    -- characters, 64 for each 3 md5s (48 bytes), 64 more than the longest
    -- random part so that its windows differ
    pool := 64 * (((o->>'data_length_max')::int * 3 * (o->>'data_random_pct')::int / 400) / 64 + 2);
    ins := format('insert into pi:{t} (dateandtime, cashregisterid, customerid, productid, price, data)'
                  || E'\nselect localtimestamp(0), floor(random() * %s)::int, floor(random() * %s)::int,'
                  || ' floor(random() * %s)::int, floor(random() * %s)::int,'
                  || E'\n       repeat(''a'', len - rlen) || substr(p.pool, 1 + floor(random() * (%s - rlen + 1))::int, rlen)'
                  || E'\n  from (select translate(encode(decode(string_agg(md5(random()::text), ''''), ''hex''), ''base64''), E''\\n'', '''') AS pool'
                  || E'\n          from generate_series(1, %s)) AS p,'
                  || E'\n       generate_series(1, %s) AS g,'
                  || E'\n       lateral (select %s + floor(random() * %s)::int + 0 * g AS len) AS l,'
                  || E'\n       lateral (select len * 3 * %s / 400 AS rlen) AS r;',
                  o->>'cashregisters', o->>'customers', o->>'products', o->>'max_price',
                  pool, pool / 64 * 3,
                  o->>'rows_per_commit', o->>'data_length_min',
                  (o->>'data_length_max')::int - (o->>'data_length_min')::int + 1,
                  o->>'data_random_pct');
    IF step = 'qr' THEN
        -- one of the range queries of the indexes there are, drawn evenly
        nq := greatest((o->>'secondary_indexes')::int, 1);
        IF nq > 1 THEN
            s := s || format('\set q random(1, %s)', nq) || '\if :q = 1'::text;
        END IF;
        s := s || format('\set v random(0, %s)', (o->>'products')::bigint - 1)
               || format('select productid, customerid, price from pi:{t} where productid >= :v'
                         || ' order by productid, customerid, price limit %s;', o->>'rows_per_query');
        IF nq >= 2 THEN
            s := s || '\elif :q = 2'::text
                   || format('\set v random(0, %s)', (o->>'cashregisters')::bigint - 1)
                   || format('select cashregisterid, customerid, price from pi:{t} where cashregisterid > :v'
                             || ' order by cashregisterid, customerid, price limit %s;', o->>'rows_per_query');
        END IF;
        IF nq >= 3 THEN
            s := s || '\else'::text
                   || format('\set v random(0, %s)', (o->>'max_price')::bigint - 1)
                   || format('select price, dateandtime, customerid from pi:{t} where price >= :v'
                             || ' order by price, dateandtime, customerid limit %s;', o->>'rows_per_query');
        END IF;
        IF nq > 1 THEN
            s := s || '\endif'::text;
        END IF;
        RETURN array_to_string(s, E'\n') || E'\n';
    ELSIF step = 'qp' THEN
        -- the range of ids, read again every 100 queries (:query_no, 0 at
        -- first, set by the run)
        s := s || '\if :query_no % 100 = 0'::text
               || ('select coalesce(min(transactionid), 1) AS min_trxid,'
                   || ' greatest(coalesce(max(transactionid), 1), coalesce(min(transactionid), 1) + 1) AS max_trxid'
                   || ' from pi:{t} \gset')::text
               || '\endif'::text
               || '\set query_no :query_no + 1'::text;
        FOR nq IN 1 .. (o->>'rows_per_query')::int LOOP
            s := s || format('\set id%s random(:min_trxid, :max_trxid - 1)', nq);
        END LOOP;
        s := s || format('select transactionid, productid, data from pi:{t} where transactionid in (%s);',
                         (SELECT string_agg(':id' || i, ', ' ORDER BY i)
                            FROM generate_series(1, (o->>'rows_per_query')::int) i));
        RETURN array_to_string(s, E'\n') || E'\n';
    END IF;
    IF step = 'l.x' THEN
        s := s || ins || 'create index pi:{t}_marketsegment on pi:{t} (productid, customerid, price);'::text;
        IF (o->>'secondary_indexes')::int >= 2 THEN
            s := s || 'create index pi:{t}_registersegment on pi:{t} (cashregisterid, customerid, price);'::text;
        END IF;
        IF (o->>'secondary_indexes')::int >= 3 THEN
            s := s || 'create index pi:{t}_pdc on pi:{t} (price, dateandtime, customerid);'::text;
        END IF;
    ELSIF (o->>'delete_per_insert')::boolean THEN
        -- the oldest row, the first time: the run sets :min_trxid to -1
        s := s || '\if :min_trxid < 0'::text
               || 'select coalesce(min(transactionid), 1) AS min_trxid from pi:{t} \gset'::text
               || '\endif'::text
               || ins
               || format('delete from pi:{t} where transactionid in (select transactionid from pi:{t}'
                         || ' where transactionid >= :min_trxid order by transactionid asc limit %s);',
                         o->>'rows_per_commit')
               || format('\set min_trxid :min_trxid + %s', o->>'rows_per_commit');
    ELSE
        s := s || ins;
    END IF;
    RETURN array_to_string(s, E'\n') || E'\n';
END
$fn$;

COMMENT ON FUNCTION bench.ibench_script(text, jsonb) IS
    'The script of an Insert Benchmark step (l.i0, l.x, l.i1, l.i2) or of the query clients of its query steps (qr, qp) for its options (rows_per_commit, secondary_indexes, rows_per_query, ...), for bench.run on an ibench dataset';
GRANT EXECUTE ON FUNCTION bench.ibench_script(text, jsonb) TO PUBLIC;
