--
-- TPC-C's consistency conditions, on a dataset of this server or of a
-- target, whoever loaded it.
--

#include "functions/tpcc_check.sql"
