--
-- bench._tpcc_rates: one run's NOPM and TPM as bench.tpcc_results has them
-- (NULL for a run of no TPC-C script, NOPM NULL for one without
-- new-order).  A function of the run's id, so that the view is read for
-- that run alone (its indexes, with the id as a parameter): joined to
-- many runs, the grouped view would be computed for every run there is.
--
CREATE OR REPLACE FUNCTION bench._tpcc_rates(run_id bigint, OUT nopm double precision,
                                             OUT tpm double precision)
RETURNS record
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $fn$
SELECT t.nopm::double precision, t.tpm::double precision
  FROM bench.tpcc_results t
 WHERE t.run_id = _tpcc_rates.run_id
$fn$;

COMMENT ON FUNCTION bench._tpcc_rates(bigint) IS
    'Internal (comparisons, charts): one run''s NOPM and TPM from bench.tpcc_results, read for that run alone';
